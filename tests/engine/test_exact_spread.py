"""The spread of a game's points is worked out exactly where the chances are exact, and from
exact distances in floats: totals that a float cannot tell apart (past 2**53) spread as
the same game's small totals do. It was a standard deviation of 0 for points near 10**17."""

import itertools
import math
import sys
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table, two_boxes, two_boxes_ends

import mdp


def scored(points):
    """Two boxes, each end's plain points (Python's ints) made ``points(them)``."""

    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            plain = two_boxes_ends(ends, states)
            return mdp.RoundEnds(plain.next, points(np.asarray(plain.points).astype(object)))
        return rule

    return two_boxes(mdp_round_rule=mdp_round_rule)


def shifted(by):
    """Two boxes, each end earning ``by`` more points: every total ``2 * by`` more."""
    return scored(lambda points: points + by)


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


@settings(max_examples=15, deadline=None)
@given(values=st.lists(st.integers(-10**20, 10**20), min_size=2, max_size=4, unique=True),
       near=st.sampled_from([0, 2**53, 10**16, -10**17]))
def test_whole_values_as_ints_or_as_fractions_are_the_same_outcomes_kept_apart(values, near):
    """A whole Fraction is the number it holds, as an int is (round 25: Fraction(10**16) and
    Fraction(10**16 + 1) were one outcome, "2/3", where ints were two)."""
    values = [near + v % 7 for v in values]
    tables = []
    for whole in (int, Fraction):
        ends = {i: whole(v) for i, v in enumerate(values)}
        game = mdp.load_game(Table({"start": {"go": [(Fraction(1, len(values)), i) for i in ends]}}, ends))
        frame = mdp.distribution(mdp.solve(mdp.compile(game), exact=True), game)
        exact = frame["value_exact"] if "value_exact" in frame.columns else frame["value"].cast(int)
        counted = {Fraction(v): Fraction(c) for v, c in zip(exact.to_list(), frame["exact"])}
        n = len(values)
        assert counted == {Fraction(v): Fraction(values.count(v), n) for v in set(values)}
        tables.append(frame)
    assert tables[0].equals(tables[1])


@settings(max_examples=10, deadline=None)
@given(by=st.integers(0, 2**61) | st.integers(2**52, 2**54))  # (totals within 64 bits)
def test_games_simulated_spread_as_their_whole_totals_do(by):
    """The standard deviation and the percentiles of games played come from the totals the
    table lists, whatever their size (round 25: totals past 2**53 were made floats first, a
    deviation of 0 or 2 where the games listed spread by 1, and every percentile one float)."""
    game = shifted(by)
    played = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=300, seed=7)
    table = played.outcomes.group_by("points").agg(pl.col("games").sum()).sort("points")
    totals = [int(t) for t in table["points"].to_list()]
    counts = table["games"].to_list()
    mean = Fraction(sum(t * c for t, c in zip(totals, counts)), 300)
    sd = math.sqrt(sum(c * (t - mean) ** 2 for t, c in zip(totals, counts)) / 299)
    assert played.sd == pytest.approx(sd, rel=1e-9) and len(totals) > 1
    cumulative = list(itertools.accumulate(counts))
    for p in (5, 25, 50, 75, 95):
        at = totals[next(i for i, c in enumerate(cumulative) if c >= p * 300 / 100)]
        assert played.percentiles[f"{p}%"] == (at if abs(at) > 2**53 else float(at))


def scaled(scale):
    """Two boxes, each end's points times ``scale`` (a fraction): every total ``scale`` times."""
    return scored(lambda points: points * scale)


@settings(max_examples=6, deadline=None)
@given(st.integers(-330, 150).map(lambda k: Fraction(10) ** k * 3))  # (points past a float: refused)
def test_an_exact_spread_is_the_exact_one_at_any_size(scale):
    """Under exact chances the mean and percentiles are exact beside their floats, and a float
    that cannot hold one by its size (totals near 1e-400 or 1e400) is None, never 0 or inf:
    it was mean 0, sd 0 and every percentile 0 for totals near 1e-400."""
    game = scaled(scale)
    frame = mdp.distribution(mdp.solve(mdp.compile(game), exact=True), game)
    found = mdp.solve(mdp.compile(game), exact=True).spread(frame)
    mean, _ = by_hand(frame)
    assert Fraction(found["mean_exact"]) == mean
    totals = [Fraction(t) for t in frame["points_exact"]] if "points_exact" in frame.columns \
        else [Fraction(t) for t in frame["points"]]
    assert {Fraction(t) for t in found["percentiles_exact"].values()} <= set(totals)
    for got, exact in [(found["mean"], mean), *((found["percentiles"][p], Fraction(t))
                                                for p, t in found["percentiles_exact"].items())]:
        # None below the least normal float, 2.2e-308 (by the float's own bound)
        assert got == (None if exact < Fraction(sys.float_info.min) else float(exact))
    if found["sd"] is None:  # the deviation by its size, in words: a tenth of the scale or more
        assert Fraction(found["sd_about"]) > scale / 10
    else:
        assert found["sd"] > float(scale) / 10


@settings(max_examples=12, deadline=None)
@given(st.integers(2**53, 2**80), st.sampled_from([(int, int), (Fraction, Fraction), (int, Fraction)]))
def test_whole_percentiles_past_a_float_are_exact_in_any_form(low, kinds):
    """Simulated games ending at whole values a float cannot tell apart, given as ints or whole
    fractions: every percentile is the exact value the games passed, an int (whole fractions
    were floats: the 75% percentile 2**62 where it is 2**62 + 1)."""
    ends = {0: kinds[0](low), 1: kinds[1](low + 1)}
    game = mdp.load_game(Table({"start": {"flip": [(Fraction(1, 2), 0), (Fraction(1, 2), 1)]}}, ends))
    played = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=1000, seed=1)
    lows = played.outcomes["games"][0]
    assert 400 < lows < 600
    # By counting: the least value at least p% of the games did not pass.
    expected = [low if lows >= p * 1000 / 100 else low + 1 for p in (5, 25, 50, 75, 95)]
    assert list(played.percentiles.values()) == expected
    assert all(type(v) is int for v in played.percentiles.values())


def test_a_total_past_a_float_is_a_percentile_by_its_exact_value():
    """Round 27: totals past what a float holds (two boxes, each end 1.06 * 10**307 times its
    points: its 95% percentile, 17 of them, 1.8e308) had the percentile ``inf``; it is the
    exact total, its float None, as the exact spread's is."""
    game = scaled(Fraction(106, 100) * Fraction(10) ** 307)
    frame = mdp.distribution(mdp.solve(mdp.compile(game)), game)
    found = mdp.solve(mdp.compile(game)).spread(frame)
    totals = [Fraction(t) for t in frame["points_exact"]]
    for p, exact in found["percentiles_exact"].items():
        assert Fraction(exact) in totals
        assert found["percentiles"][p] == (None if Fraction(exact) > Fraction(sys.float_info.max)
                                           else float(Fraction(exact)))
    assert found["percentiles"]["95%"] is None and found["percentiles"]["5%"] is not None
