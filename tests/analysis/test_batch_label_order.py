"""A batch game that gives its labels as the model is built (unasked) and then, asked again
for them, gives the same transitions under labels in another order: every permutation but
the identity is refused, in one line naming the game, the hook and the state; the identity
gives the policy that the values say (action i is worth i + 1, by construction)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import StartBatch

import mdp


class Fan(StartBatch):
    """From state 0, ``n`` actions: action i leads for sure to terminal state i + 1, worth
    i + 1. Its labels are ``a0``, ``a1``, ...; after the first call, ``order`` permutes them
    (the transitions stay where they were)."""

    GAME_NAME = "fan"

    def __init__(self, order, takes_labels):
        self.order, self.calls = order, 0
        if not takes_labels:  # a hook without the argument, which always gives its labels
            self.mdp_expand = mdp.hookimpl(lambda states: self.expand(states, True))

    def expand(self, states, labels):
        self.calls += 1
        n = len(self.order)
        counts, labelled, nexts, values = [], [], [], []
        for key in states.tolist():
            if key == 0:
                counts.append(n)
                names = [f"a{i}" for i in range(n)]
                labelled += [names[i] for i in self.order] if self.calls > 1 else names
                nexts += list(range(1, n + 1))
            else:
                counts.append(0)
                values.append(key)
        return mdp.Expansion(np.array(counts), labelled, None, np.array(nexts, dtype=np.int64),
                             None, (Fraction(1),), values)


class Asked(Fan):
    @mdp.hookimpl
    def mdp_expand(self, states, labels):
        return self.expand(states, labels)


@settings(max_examples=25, deadline=None)
@given(order=st.integers(1, 5).flatmap(lambda n: st.permutations(range(n))),
       takes_labels=st.booleans())
def test_labels_in_another_order_are_refused(order, takes_labels):
    fan = Asked(order, True) if takes_labels else Fan(order, False)
    game = mdp.load_game(fan)
    solution = mdp.solve(mdp.compile(game, batch=True))
    if list(order) == sorted(order):
        table = mdp.policy(solution, game)
        best = table.filter(table["optimal"])
        assert best["action"].to_list() == [f"a{len(order) - 1}"]
        assert best["value"].to_list() == [len(order)]
        return
    with pytest.raises(mdp.ModelError) as raised:
        mdp.policy(solution, game)
    message = str(raised.value)
    assert message.startswith("game fan: asked again for labels, mdp_expand gave ")
    assert "other labels than as the model was built, or the same in another order (state 0)" \
        in message
    assert "\n" not in message
