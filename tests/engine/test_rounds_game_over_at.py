"""The round played from a round state that ends the game is worth 0, in floats and exactly,
whatever round it sits in: before, ``RoundsSolution.at(K).value`` was -inf in floats at a
round state that ends the game in a round other round states still play (so ``mdp advise
GAME done=K`` failed with a float-overflow message), and the exact solution gave a float 0.0,
or the points the rule gave there, at such a state; ``mdp match --exact`` of a game over from
the start died on a KeyError, and floats showed "-0". A key that is no round state, or True,
is a ParamError naming what is allowed, as ``Reach.at`` gives.

The games are generated: the round of two boxes (a die thrown once, its face scored in box A
or B), with round states in rounds that each end the game or lead on, each box to a round
state of the next round or not allowed; the values are checked against a recursion written
here."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import two_boxes

import mdp

WIDTH = 10  # round state r * WIDTH + j is the j-th of round r


@st.composite
def tables(draw):
    """``{key: None}`` for a round state that ends the game, else ``{key: ((next_a, next_b),
    (times_a, times_b))}``: each box's next round state (-1: not allowed, but not both) and
    points, a multiple of the face; and the points (ignored) the rule gives where it ends."""
    rounds = draw(st.integers(1, 3))
    sizes = [1] + [draw(st.integers(1, 3)) for _ in range(rounds)]
    table = {}
    for r in range(rounds + 1):
        for j in range(sizes[r]):
            key = r * WIDTH + j
            if r == rounds or draw(st.booleans()) and draw(st.booleans()):
                table[key] = None
                continue
            later = st.integers(0, sizes[r + 1] - 1).map(lambda i, r=r: (r + 1) * WIDTH + i)
            a, b = draw(st.tuples(st.one_of(st.just(-1), later), later))
            if draw(st.booleans()):
                a, b = b, a
            table[key] = ((a, b), (draw(st.integers(-3, 3)), draw(st.integers(-3, 3))))
    start = draw(st.sampled_from([0, 0, 0, WIDTH * rounds]))  # at times over from the start
    return table, start, draw(st.integers(-9, 9))


def _game(table, start, junk):
    @mdp.hookimpl
    def mdp_round_start():
        return start

    @mdp.hookimpl
    def mdp_round_rule(ends):
        box = np.array([0 if end[1] == "A" else 1 for end in ends])
        face = np.array([end[2] for end in ends])

        def rule(states):
            following = np.full((len(states), len(ends)), -1, dtype=np.int64)
            points = np.full((len(states), len(ends)), junk, dtype=np.int64)
            for row, key in enumerate(states.tolist()):
                if table[key] is not None:
                    (a, b), (ta, tb) = table[key]
                    following[row] = np.where(box == 0, a, b)
                    points[row] = face * np.where(box == 0, ta, tb)
            return mdp.RoundEnds(following, points)
        return rule

    return two_boxes(mdp_round_start=mdp_round_start, mdp_round_rule=mdp_round_rule)


def _values(table):
    """The value of every round state by recursion: 0 where the game ends, else the mean
    over the faces of the best allowed box's points and the value of what follows."""
    values = {}
    for key in sorted(table, reverse=True):
        if table[key] is None:
            values[key] = Fraction(0)
            continue
        (a, b), (ta, tb) = table[key]
        values[key] = sum((max(f * t + values[n] for n, t in ((a, ta), (b, tb)) if n >= 0)
                           for f in range(1, 7)), Fraction(0)) / 6
    return values


@settings(max_examples=40, deadline=None)
@given(tables())
@pytest.mark.slow  # half a second or more of CPU
def test_the_round_from_every_round_state_is_worth_its_value_and_nothing_after_the_game(drawn):
    table, start, junk = drawn
    game = _game(table, start, junk)
    model = mdp.compile(game)
    expected = _values(table)
    floats, exact = mdp.solve(model), mdp.solve(model, exact=True)
    for key in np.concatenate(model.keys).tolist():
        at = exact.at(key)
        assert isinstance(at.value, Fraction) and at.value == expected[key], key
        assert at.summary()["exact"] == f"{expected[key].numerator}/{expected[key].denominator}"
        assert floats.at(key).value == pytest.approx(float(expected[key]), rel=1e-12, abs=1e-12)
        assert exact.value_of(key) == expected[key]
    assert exact.value == expected[start]


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(tables())
def test_a_match_of_such_a_game_shows_its_exact_values_and_no_negative_zero(drawn):
    table, start, junk = drawn
    game = _game(table, start, junk)
    model = mdp.compile(game)
    exact, floats = mdp.match(model, game, exact=True), mdp.match(model, game)
    assert [p["exact"] for p in exact.summary()["players"]] == [
        f"{v.numerator}/{v.denominator}" for v in exact.values]
    assert exact.values[0] == -exact.values[1] and sum(exact.wins) == 1
    for value, exactly in zip(floats.values, exact.values):
        assert value == pytest.approx(float(exactly), abs=1e-12)
        assert math.copysign(1, value) == 1 or value != 0
    if table[start] is None:  # nobody plays: a tie
        assert exact.values == (0, 0) and exact.wins == (0, 0, 1)


@pytest.mark.parametrize("key", [55, True, 2.5, "0", -1])
def test_a_key_that_is_no_round_state_is_refused_naming_what_is_allowed(key):
    solution = mdp.solve(mdp.compile(two_boxes()))
    with pytest.raises(mdp.ParamError, match=r"^mdp.RoundsSolution.at: key is .*; expected a round "
                       r"state of game two-boxes \(a key of mdp.Rounds.keys\), or None for the start"):
        solution.at(key)
