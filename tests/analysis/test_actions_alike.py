"""Two actions of one state whose readable columns are alike cannot be told apart in a
policy table, in mdp advise or in the report: refused, in one line naming the game, the hook,
the state and both actions, where the rows were made (every command alike). Whether two
collide is found here by brute force: the columns given, compared one pair at a time."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import StartBatch, Table

import mdp

MOVES = st.lists(st.sampled_from(["x", "y", "z", None]), min_size=1, max_size=4)


def table_game(moves):
    """From "start", one action per entry of ``moves`` (action i ends in terminal i, worth
    i), shown by the column ``move``: the entry."""
    game = Table({"start": {i: [(1, f"end{i}")] for i in range(len(moves))}},
                 {f"end{i}": i for i in range(len(moves))})
    game.mdp_action_columns = mdp.hookimpl(lambda action: {"move": moves[action]})
    return mdp.load_game(game)


class Batch(StartBatch):
    """The same as a batch game: state 0, terminals 1..n."""

    GAME_NAME = "fanned"

    def __init__(self, moves):
        self.moves = moves

    @mdp.hookimpl
    def mdp_expand(self, states):
        n = len(self.moves)
        counts = [n if k == 0 else 0 for k in states.tolist()]
        values = [k - 1 for k in states.tolist() if k]
        nexts = list(range(1, n + 1)) if 0 in states.tolist() else []
        return mdp.Expansion(np.array(counts), list(range(len(nexts))), None,
                             np.array(nexts, dtype=np.int64), None, (Fraction(1),), values)

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        keys = [int(k) for k in states]
        if actions is None:
            return {"at": keys}
        return {"at": keys, "move": [None if a is None else self.moves[a] for a in actions]}


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(moves=MOVES, batch=st.booleans())
def test_actions_shown_alike_are_refused(moves, batch):
    game = mdp.load_game(Batch(moves)) if batch else table_game(moves)
    solution = mdp.solve(mdp.compile(game), exact=True)
    alike = [(a, b) for a in range(len(moves)) for b in range(a + 1, len(moves))
             if moves[a] == moves[b]]
    named = {"at": 0} if batch else {"state": "start"}
    if not alike:
        assert mdp.policy(solution, game).height == len(moves)
        best = mdp.advise(solution, game, **named).actions
        assert best["value"].to_list()[0] == len(moves) - 1  # the last action's end, by hand
        return
    hook = "mdp_columns" if batch else "mdp_action_columns"
    for make in (lambda: mdp.policy(solution, game), lambda: mdp.advise(solution, game, **named)):
        with pytest.raises(mdp.ModelError) as raised:
            make()
        message = str(raised.value)
        a, b = alike[0]
        assert message.startswith(f"game {game.name}: {hook} shows the actions {a} and {b} "
                                  "alike ("), message
        assert "\n" not in message
