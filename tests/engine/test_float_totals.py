"""Float points that are decimals (tenths, hundredths, as ``np.array(lst, float) / 10``
gives them): the same decimal total reached by two orders of additions (0.1 + 0.4 against
0.2 + 0.3) is one total, in the distribution and in the simulation. It was split over
several rows that print the same number (0.5 at 8.30%, 0.82% and 1.85% instead of 10.97%),
and a percentile of 0 showed 2.78e-17."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.engine.rounds import totals


def rolled(points, power, floats=False):
    """A game of rounds of ``len(points)`` rounds, no choice: each round a throw of one of
    ``len(points[r])`` ends at even chances, end ``i`` of round ``r`` earning
    ``points[r][i] / 10**power`` as a float (``power`` of 1 or more), or
    ``points[r][i] * 10**-power`` as a whole number (int64; with ``floats``, as a float)."""
    width = max(len(p) for p in points)

    @mdp.hookimpl
    def mdp_initial_state():
        return "throw"

    @mdp.hookimpl
    def mdp_actions(state):
        return ["throw"] if state == "throw" else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(Fraction(1, width), i) for i in range(width)]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_round_start():
        return 0

    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            nxt = np.where(states[:, None] < len(points), states[:, None] + 1, -1)
            nxt = np.broadcast_to(nxt, (len(states), len(ends))).copy()
            table = np.array([[row[end % len(row)] for end in ends] for row in points] + [[0] * len(ends)])
            table = table / 10**power if power > 0 else table * 10**-power
            table = table.astype(float) if floats else table
            return mdp.RoundEnds(nxt, table[np.minimum(states, len(points))])
        return rule

    return mdp.load_game(SimpleNamespace(
        GAME_NAME="tenths", mdp_initial_state=mdp_initial_state, mdp_actions=mdp_actions,
        mdp_outcomes=mdp_outcomes, mdp_terminal_value=mdp_terminal_value,
        mdp_round_start=mdp_round_start, mdp_round_rule=mdp_round_rule))


def by_hand(points, power):
    """The chance of every total, in fractions of the decimal points (the brute force)."""
    width = max(len(p) for p in points)
    totals = {Fraction(0): Fraction(1)}
    for row in points:
        after: dict[Fraction, Fraction] = {}
        for total, chance in totals.items():
            for end in range(width):
                t = total + Fraction(row[end % len(row)]) / Fraction(10)**power
                after[t] = after.get(t, Fraction(0)) + chance / width
        totals = after
    return totals


ROUNDS = st.lists(st.lists(st.integers(-9, 9), min_size=1, max_size=4), min_size=1, max_size=3)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(ROUNDS, st.integers(1, 3))
def test_one_row_per_decimal_total(points, power):
    game = rolled(points, power)
    frame = mdp.distribution(mdp.solve(mdp.compile(game)), game)
    expected = by_hand(points, power)
    assert frame["points"].to_list() == [float(t) for t in sorted(expected)]
    assert frame["probability"].to_list() == pytest.approx([float(expected[t]) for t in sorted(expected)],
                                                           rel=1e-12, abs=1e-15)
    assert "points_exact" not in frame.columns


@settings(max_examples=10, deadline=None)
@given(ROUNDS, st.integers(1, 3))
def test_games_played_count_one_row_per_decimal_total(points, power):
    game = rolled(points, power)
    played = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=200, seed=1)
    shown = played.outcomes["points"].to_list()
    assert len(shown) == len(set(shown))
    assert set(shown) <= {float(t) for t in by_hand(points, power)}


WHOLE = st.lists(st.lists(st.integers(-2**51, 2**51) | st.integers(-9, 9)
                          | st.integers(-2**60, 2**60).map(lambda v: int(float(v))),  # floats hold them
                          min_size=1, max_size=3), min_size=1, max_size=3)


@settings(max_examples=15, deadline=None)
@given(WHOLE)
@example([[-2, 1, 10**15], [-2, 1, 10**15]]).via("round 24's game: -4 was a total of 0")
@example([[-2, 2**51], [5, 2**51]]).via("totals apart by less than 10 near 4.5e15")
@example([[10**16, 3]]).via("round 25: a total of 3 beside 1e16 was 0")
@example([[2**53, 1], [2**53, 1]]).via("round 25: 2 was 0, 2**53 + 1 was 9007199254741000")
@example([[0, 1152921504606844672, -1152877524141733632]]).via("a mean the terms' rounding hides")
def test_whole_float_points_are_the_whole_numbers_they_are(points):
    # Round 24: points of 1e15 as floats, 15 significant digits of the game's scale made -4
    # a total of 0 and 999999999999998 one of 1e15 (the distribution's mean beside another
    # value), where mdp simulate and the same points as ints had them apart. Floats hold
    # whole numbers and mdp adds them exactly (round 25: past 2**53 too): never snapped.
    game = rolled(points, 0, floats=True)
    solution = mdp.solve(mdp.compile(game))
    expected = by_hand(points, 0)
    frame = mdp.distribution(solution, game)
    assert frame["points"].to_list() == sorted(expected)
    assert frame["probability"].to_list() == pytest.approx([float(expected[t]) for t in sorted(expected)],
                                                           rel=1e-12)
    # The mean in floats: within their rounding of the terms it adds, which cancel (2**60 and
    # nearly -2**60 at even chances: a mean of 1.5e13 off by 21, 2e-17 of the terms).
    scale = float(sum(abs(t) * c for t, c in expected.items()))
    assert solution.value == pytest.approx(float(sum(t * c for t, c in expected.items())), rel=1e-12,
                                           abs=max(1e-3, 8 * 2**-52 * scale))
    played = mdp.simulate(solution, game, games=50, seed=1).outcomes["points"].to_list()
    assert set(played) <= set(expected) and all(type(t) is int for t in played)


def test_tenths_that_cancel_are_a_total_of_0():
    # 0.1 + 0.2 - 0.3 is 5.55e-17 in floats: a total of 0, as 0.3 - 0.3 is.
    game = rolled([[1, 3], [2, -3], [-3]], 1)
    solution = mdp.solve(mdp.compile(game))
    frame = mdp.distribution(solution, game)
    assert frame["points"].to_list() == [-0.5, -0.3, 0.0, 0.2]
    assert solution.spread(frame)["percentiles"]["75%"] == 0.0


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(ROUNDS, st.integers(-15, -6), st.sampled_from(["default", 1 << 20]))
def test_whole_points_too_wide_for_a_vector_are_followed_round_state_by_round_state(points, power, memory):
    # Whole points of about 10**9: the totals of two rounds side by side would take
    # gigabytes, the round states are few; floats follow each round state as exact numbers
    # do, where they were refused (560 GB) and --exact answered at once.
    game = rolled(points, power)
    frame = mdp.distribution(mdp.solve(mdp.compile(game)), game, max_memory=memory)
    expected = by_hand(points, power)
    assert frame["points"].to_list() == sorted(expected)
    assert frame["probability"].to_list() == pytest.approx([float(expected[t]) for t in sorted(expected)],
                                                           rel=1e-12)


@pytest.mark.parametrize("memory", [None, "default"])
def test_whole_points_wide_over_few_round_states_are_followed_one_by_one_whatever_the_budget(
        monkeypatch, memory):
    # Points of 10**7 over three rounds: a round at a time, vectors of 2.7e8 totals took 9 GB
    # and 50 s where the budget allowed them (no budget, or a machine of 16 GB); one by one,
    # four round states, 0.02 s.
    points = [[1, -2, 3, 4], [5, 6, 7, 8], [9, 1, 2, 3]]
    game = rolled(points, -7)
    solution = mdp.solve(mdp.compile(game))

    def refused(*args, **kwargs):
        raise AssertionError("followed a round at a time")

    monkeypatch.setattr(totals, "follow", refused)
    frame = mdp.distribution(solution, game, max_memory=memory)
    expected = by_hand(points, -7)
    assert frame["points"].to_list() == sorted(expected)
    assert frame["probability"].to_list() == pytest.approx([float(expected[t]) for t in sorted(expected)],
                                                           rel=1e-12)
    # The bound: one round of points 0 or ``top``, two round states (the round's and the
    # end's), whose totals side by side take 8 bytes for the one total before the round and
    # for each of 0 to ``top`` after it: 8 * (top + 2) bytes against 2 * ONE_BY_ONE_BYTES.
    top = 2 * totals.ONE_BY_ONE_BYTES // 8 - 2  # exactly the bound: a round at a time
    narrow = mdp.compile(rolled([[0, top]], 0))
    assert narrow.n_round_states == 2
    assert totals.check_chances(mdp.compile(rolled([[0, top + 1]], 0)), max_memory=None)
    assert not totals.check_chances(narrow, max_memory=None)


def test_too_many_round_states_to_follow_one_by_one_are_refused_in_floats_as_exactly(monkeypatch):
    monkeypatch.setattr(totals, "MOST_ROUND_STATES", 2)
    model = mdp.compile(rolled([[1, 2], [3, 4]], -12))  # 3 round states
    for exact in (False, True):
        with pytest.raises(mdp.TooLarge, match="3 round states"):
            model.check_chances(exact=exact)
