"""A batch game whose states may come back is expanded twice (every state found first, then
each stage again): an answer of ``mdp_expand`` asked again that is another is refused, naming
the state (round 24: a game that gave other next states the second time was solved as the
second game, its first answer seen by nothing; a hypothesis case of the hook-answers test)."""

import types
from fractions import Fraction

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

START = 4


def _game(changed_call, other, always=False, worth=None):
    """From key k (its stage), "step" to k - 1, or "jump" to k - 1 or k (it may come back) at
    even odds; keys 0 and 1 end, worth 4 and 1. Call ``changed_call`` of mdp_expand (from 1)
    answers ``other`` for the next states of the first state it is asked about; with
    ``always``, every answer about the start is ``other``. With ``worth``, call
    ``changed_call`` (every call, with ``always``) values key 0 at ``worth``, not 4."""
    calls = [0]

    @mdp.hookimpl
    def mdp_initial_state():
        return START

    @mdp.hookimpl
    def mdp_stage(states):
        return np.asarray(states, dtype=np.int64)

    @mdp.hookimpl
    def mdp_expand(states, labels):
        calls[0] += 1
        keys = np.asarray(states, dtype=np.int64).tolist()
        counts, nexts, ocounts = [], [], []
        for i, k in enumerate(keys):
            counts.append(2 if k >= 2 else 0)
            if k >= 2:
                step = [k - 1, k - 1, k]
                changed = other is not None and (k == START if always else
                                                 (i == 0 and calls[0] == changed_call))
                nexts += list(other) if changed else step
                ocounts += [1, 2]
        return mdp.Expansion(np.array(counts), None, np.array(ocounts, dtype=np.int64),
                             np.array(nexts, dtype=np.int64),
                             np.array([0 if n == 1 else 1 for n in ocounts for _ in range(n)]),
                             (1, Fraction(1, 2)), [worth if k == 0 and worth is not None and
                                                   (always or calls[0] == changed_call)
                                                   else {0: 4, 1: 1}[k] for k in keys if k < 2])

    return types.SimpleNamespace(GAME_NAME="hops", mdp_initial_state=mdp_initial_state,
                                 mdp_stage=mdp_stage, mdp_expand=mdp_expand)


@settings(max_examples=30, deadline=None)
@given(changed_call=st.integers(1, 6), other=st.lists(st.integers(0, START), min_size=3, max_size=3))
def test_an_answer_asked_again_that_is_another_is_refused(changed_call, other):
    try:
        value = mdp.solve(mdp.compile(mdp.load_game(_game(changed_call, other)))).value
    except mdp.ModelError as error:  # (or a next state of a higher stage, refused as such)
        assert str(error).startswith(("game hops: mdp_expand answered otherwise for state ",
                                      "game hops: mdp_stage: the stage rises")), error
        return
    # Asked once, or answered alike: one game, the steady one or the one whose start answers so
    games = [_game(0, ()), _game(0, other, always=True)]
    values = []
    for game in games:
        try:
            values.append(mdp.solve(mdp.compile(mdp.load_game(game))).value)
        except mdp.ModelError:
            pass
    assert any(value == pytest.approx(v) for v in values), (value, values)


@settings(max_examples=10, deadline=None)
@given(worth=st.integers(-3, 9).filter(lambda w: w != 1) | st.fractions(-9, 9).filter(lambda w: w != 1)
       | st.sampled_from([1.0000000000000002, float("inf"), -1]))
def test_a_terminal_value_asked_again_that_is_another_is_refused(worth):
    """Round 25: a state that ended worth 10 the first time and 0 after was solved as worth
    0, the first answer seen by nothing: terminal values are in the prints compared. Key 1
    answers 1 the first time it is asked and ``worth`` after."""
    game = _game(0, None)
    expand, asked = game.mdp_expand, [0]

    def mdp_expand(states, labels):
        found = expand(states, labels)
        keys = np.asarray(states).tolist()
        if 1 not in keys:
            return found
        asked[0] += 1
        values = list(found.terminal_values)
        values[[k for k in keys if k < 2].index(1)] = 1 if asked[0] == 1 else worth
        return attrs.evolve(found, terminal_values=values)

    game.mdp_expand = mdp.hookimpl(mdp_expand)
    with pytest.raises(mdp.ModelError, match="^game hops: mdp_expand answered otherwise for state 1 "
                                             r"when asked again \(.*terminal value\)"):
        mdp.compile(mdp.load_game(game))
    assert asked[0] == 2
