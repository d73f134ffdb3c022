"""What a round rule gives is refused in one place, the same for every command: points that
are not finite (NaN, inf) at any end, allowed or not, named by game, hook, round state and
end (before: NaN at an end not allowed gave a false "whatever the player does" refusal, inf
an unnamed float error, and mdp match played both); float points at an end allowed, under
exact solving, by every exact command alike, before the work (before: mdp match --exact
played them); ``next`` of an unsigned type, which reads -1 as its largest number (before:
uint8's 255 was taken for a round state). The games are two boxes (tests/models.py) with one
answer of the rule changed."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp


def _changed(change, seen=None):
    """Two boxes whose rule's answer is ``change(states, next, points)`` -> (next, points);
    the round's ends put in the list ``seen``."""
    @mdp.hookimpl
    def mdp_round_rule(ends):
        if seen is not None:
            seen[:] = ends

        def rule(states):
            given = two_boxes_ends(ends, states)
            return mdp.RoundEnds(*change(states, np.array(given.next), np.array(given.points)))
        return rule

    return two_boxes(mdp_round_rule=mdp_round_rule)


def _commands(game, exact):
    """Every way a game of rounds is worked on, each from its own compile."""
    yield lambda: mdp.solve(mdp.compile(game), exact=exact)
    yield lambda: mdp.match(mdp.compile(game), game, exact=exact)
    yield lambda: mdp.at_least(mdp.compile(game), exact=exact)
    yield lambda: mdp.distribution(mdp.solve(mdp.compile(game), exact=exact), game)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from([0, 1, 2, 3]), st.integers(0, 11), st.sampled_from([np.nan, np.inf, -np.inf]),
       st.booleans(), st.booleans())
def test_points_that_are_not_finite_are_refused_at_any_end_by_every_command(key, end, bad, objects, exact):
    # Round state 3 (both boxes filled) allows no end; 1 and 2 allow half of them.
    def change(states, following, points):
        points = points.astype(object if objects else np.float64)
        if objects:  # exact numbers beside the float
            points[:] = [[Fraction(int(p)) for p in row] for row in points]
        points[states == key, end] = bad
        return following, points

    ends = []
    game = _changed(change, ends)
    shown = {np.inf: "inf", -np.inf: "-inf"}.get(bad, "nan")
    for command in _commands(game, exact):
        with pytest.raises(mdp.ModelError) as error:
            command()
        assert str(error.value) == (
            f"game two-boxes: mdp_round_rule gave points {shown} from round state {key} at the "
            f"end {ends[end]!r}; points are finite numbers at every end, allowed or not")


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([(0, 1, 2, 3), (0,), (1, 2)]), st.booleans())
def test_float_points_at_an_end_allowed_are_refused_by_every_exact_command(keys, objects):
    # Whole points given as floats (1.0) from the round states ``keys`` (a round, or all of
    # them: the rule's answer a function of each round state): floats solve it. Named: the
    # first of them, from the start, with an end allowed.
    def change(states, following, points):
        if not np.isin(states, keys).any():
            return following, points
        if not objects:  # a float64 array
            return following, points.astype(np.float64)
        points = points.astype(object)
        for row in np.flatnonzero(np.isin(states, keys)):
            points[row] = [float(p) for p in points[row]]
        return following, points

    game = _changed(change)
    floats = mdp.solve(mdp.compile(game))
    assert floats.value == pytest.approx(float(TWO_BOXES), rel=1e-15)
    mdp.match(mdp.compile(game), game)
    for command in _commands(game, True):
        with pytest.raises(mdp.ModelError) as error:
            command()
        assert str(error.value) == ("game two-boxes: exact solving needs rational numbers, but "
                                    f"mdp_round_rule gave float points (round state {keys[0]})")


@pytest.mark.parametrize("kind", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_next_of_an_unsigned_type_is_refused(kind):
    game = _changed(lambda states, following, points: (following.astype(kind), points))
    with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: mdp_round_rule gave next as "
                       rf"{np.dtype(kind).name}; round states are keys of a signed int type \(-1: "
                       "the end is not allowed\\)$"):
        mdp.compile(game)
