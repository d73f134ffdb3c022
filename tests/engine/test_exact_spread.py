"""The spread of a game's points is worked out exactly where the chances are exact, and from
exact distances in floats: totals that a float cannot tell apart (past 2**53) spread as
the same game's small totals do. It was a standard deviation of 0 for points near 10**17."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table, two_boxes, two_boxes_ends

import mdp


def shifted(by):
    """Two boxes, each end earning ``by`` more points: every total ``2 * by`` more."""

    @mdp.hookimpl
    def mdp_round_rule(ends):
        return lambda states: two_boxes_ends(ends, states, by)

    return two_boxes(mdp_round_rule=mdp_round_rule)


def by_hand(frame):
    """Mean and standard deviation from the exact table, summed here."""
    chances = [Fraction(c) for c in frame["exact"]]
    totals = [Fraction(t) for t in frame["points_exact" if "points_exact" in frame.columns
                                         else "points"].to_list()]
    mean = sum(c * t for c, t in zip(chances, totals))
    return mean, math.sqrt(sum(c * (t - mean) ** 2 for c, t in zip(chances, totals)))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**30))
def test_the_spread_of_points_does_not_depend_on_their_size(by):
    game = shifted(by)
    solution = mdp.solve(mdp.compile(game), exact=True)
    frame = mdp.distribution(solution, game)
    mean, sd = by_hand(frame)
    plain = two_boxes()
    _, plain_sd = by_hand(mdp.distribution(mdp.solve(mdp.compile(plain), exact=True), plain))
    assert sd == pytest.approx(plain_sd, rel=1e-12) and plain_sd > 1
    found = solution.spread(frame)
    assert found["mean"] == float(mean) and found["sd"] == pytest.approx(sd, rel=1e-12)
    # In floats (the same table, its chances as floats): from exact distances, as well.
    assert solution.spread(frame.drop("exact"))["sd"] == pytest.approx(sd, rel=1e-9)


def test_games_ending_at_values_a_float_cannot_tell_apart_are_counted_apart():
    # Two ends at even chances, 10**17 and 10**17 + 2: one float holds both.
    game = mdp.load_game(Table({"start": {"flip": [(Fraction(1, 2), 0), (Fraction(1, 2), 1)]}},
                               {0: 10**17, 1: 10**17 + 2}))
    played = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=1000, seed=1)
    assert played.outcomes["value_exact"].to_list() == [str(10**17), str(10**17 + 2)]
    heads = played.outcomes["games"][1]
    # The standard deviation of 1000 draws of 0 or 2, heads of them 2, with n - 1.
    assert played.sd == pytest.approx(math.sqrt(4 * heads * (1000 - heads) / 1000 / 999), rel=1e-12)
