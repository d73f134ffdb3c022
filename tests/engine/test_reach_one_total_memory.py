"""The memory of the chance of one total (mdp solve --at-least T, mdp.at_least(total=T))
bounded before the work by T itself (mdp/engine/rounds/window.py, widths_toward): each round
state's vector holds only the points still needed that T can leave it, so a total near the
least or the most a game can earn needs a few columns however large its points are; and the
chance under best-mean play beside it holds only the totals that play ends with
(mdp.analysis.targets.best_mean_chances), however far apart."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game
from test_rounds_reach import whole_cards

import mdp
from mdp.analysis.targets import best_mean_chances, chance_of, check_chance_of_total
from mdp.engine.rounds.payoff import AT_LEAST, beating
from mdp.engine.rounds.reach import _widths, check_reach, solve_reach
from mdp.engine.rounds.window import widths_exactly


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.sets(st.integers(1, 6), max_size=2), st.data())
def test_every_vector_toward_one_total_is_within_the_bound_said_before_the_work(card, over, data):
    # Any card (points -4 to 9, games that may end early), any payoff, any total about the
    # points' reach: no round state's vector is wider than the bound the check reads.
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws, over=over))
    least = sum(min(row) for row in points)
    most = sum(max(row) for row in points)
    total = data.draw(st.integers(min(least, 0) - 3, max(most, 0) + 3), label="total")
    payoff = data.draw(st.sampled_from([AT_LEAST, beating("max")]), label="payoff")
    reach = solve_reach(model, payoff=payoff, total=total)
    bound = _widths(model, payoff, total=total)
    held = [int(np.diff(offsets).max(initial=0)) for offsets in reach.offsets]
    assert all(h <= b for h, b in zip(held, bound)), (held, bound)


BIG = 10**12
TWO_BOXES = (Path(__file__).parents[2] / "docs" / "examples" / "two_boxes.py").read_text()


def _big():
    # Two boxes of a two-faced die, one throw a round: box A scores 0 on a 1 and BIG on a 2,
    # box B the other way about. By hand: the first round earns BIG whatever is thrown (the
    # box that pays it for that face); the second pays BIG with the other box half the time.
    return mdp.compile(card_game([[0, BIG], [BIG, 0]], 2, 1))


def test_a_total_near_the_least_a_game_earns_needs_a_few_columns_whatever_its_points():
    model = _big()
    check_chance_of_total(model, max_memory=10_000, total=2)
    check_reach(model, max_memory=10_000, total=2 * BIG + 1)  # past the most: every need is 0
    with pytest.raises(mdp.TooLarge, match=r"^game card: the chance of at least a total may take "
                       r"up to .*, past the budget of 10 kB"):
        check_chance_of_total(model, max_memory=10_000, total=BIG + 3)
    assert mdp.at_least(model, exact=True, total=2, max_memory=10_000).chance(2) == 1
    assert mdp.at_least(model, exact=True, total=2 * BIG, max_memory=10_000).chance(2 * BIG) == \
        Fraction(1, 2)


def test_the_chance_under_best_mean_play_holds_only_the_totals_it_ends_with():
    # Best-mean play takes BIG in the first round and the other box after: BIG or 2 BIG,
    # half each (by hand, as above); two totals held, not 2 BIG + 1.
    solution = mdp.solve(_big(), exact=True)
    totals, above = best_mean_chances(solution, max_memory=10_000)
    assert totals.tolist() == [BIG, 2 * BIG] and above.tolist() == [1, Fraction(1, 2)]
    assert [chance_of(totals, above, t, True) for t in (-5, BIG, BIG + 1, 2 * BIG, 2 * BIG + 1)] == \
        [1, 1, Fraction(1, 2), Fraction(1, 2), 0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.sets(st.integers(1, 6), max_size=2), st.data())
def test_the_widths_counted_before_the_work_are_the_sweep_s(card, over, data):
    # Where the bound is past the budget, the check counts each vector's width exactly
    # (widths_exactly: the window within the least and most still to earn): the sweep's own.
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws, over=over))
    least, most = sum(min(row) for row in points), sum(max(row) for row in points)
    total = data.draw(st.integers(min(least, 0) - 3, max(most, 0) + 3), label="total")
    payoff = data.draw(st.sampled_from([AT_LEAST, beating("max")]), label="payoff")
    reach = solve_reach(model, payoff=payoff, total=total)
    assert [w.tolist() for w in widths_exactly(model, payoff, total)] == \
        [np.diff(offsets).tolist() for offsets in reach.offsets]


def test_the_least_and_the_most_total_of_large_points_are_a_few_columns(tmp_path):
    # Round 36, U36-1: Two boxes with points of BIG times: the least total is BIG (FACE 1, an
    # odd face in EVEN), the most 18 * BIG (6 and 12). The bound of the rounds' points said
    # 1e4 GB at both; counted exactly, a few columns. By hand: 1 at the least; at the most a
    # 6 in each round of up to two throws, (11/36)**2 = 121/1296.
    source = TWO_BOXES.replace('    return face if box == "FACE" else 2 * face * (face % 2 == 0)',
                               f'    return {BIG} * (face if box == "FACE" else 2 * face * (face % 2 == 0))')
    assert source != TWO_BOXES
    (tmp_path / "big_boxes.py").write_text(source)
    model = mdp.compile(mdp.load_game(str(tmp_path / "big_boxes.py")))
    assert mdp.at_least(model, total=BIG, max_memory=10_000).chance(BIG) == 1
    assert mdp.at_least(model, total=18 * BIG, max_memory=10_000, exact=True).chance(18 * BIG) == \
        Fraction(121, 1296)
    with pytest.raises(mdp.TooLarge, match=r"past the budget of 10 kB"):
        check_chance_of_total(model, max_memory=10_000, total=9 * BIG)  # (vectors BIG wide)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.sets(st.integers(1, 6), min_size=1, max_size=2), st.data())
def test_one_total_is_every_total_s_chance_where_games_end_early(card, over, data):
    # Round 36: a game that may end before its last round earns 0 in the rounds after, which
    # the rounds' least and most points left out (their spread, and the total held within
    # them): one total below the least of every round's least was solved for another
    # ("from round state 0 it holds 5 to 5 points still needed, not 2", where targets said 3/4).
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws, over=over))
    every = mdp.at_least(model, exact=True)
    least, most = sum(min(min(row), 0) for row in points), sum(max(max(row), 0) for row in points)
    total = data.draw(st.integers(least - 2, most + 2), label="total")
    assert mdp.at_least(model, exact=True, total=total).chance(total) == every.chance(total)
    assert mdp.at_least(model, total=total).chance(total) == pytest.approx(float(every.chance(total)), abs=1e-12)


ENDS_EARLY = '''from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "early2"


@mdp.hookimpl
def mdp_initial_state():
    return "throw"


@mdp.hookimpl
def mdp_actions(state):
    return ["throw"] if state == "throw" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 4), (p, e)) for p in (1, 3) for e in ("stop", "go")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[0]


@mdp.hookimpl
def mdp_round_start():
    return 0


@mdp.hookimpl
def mdp_round_rule(ends):
    stop = np.array([end[1] == "stop" for end in ends])
    pts = np.array([end[0] for end in ends])

    def rule(states):
        s = states[:, None]
        following = np.where(s == 0, np.where(stop, 1, 2), np.where(s == 2, 3, -1)) + np.zeros(len(ends), dtype=np.int64)
        points = np.where(s == 0, pts, 5) + np.zeros(len(ends), dtype=np.int64)
        return mdp.RoundEnds(following, points)
    return rule
'''


def test_one_total_of_a_game_that_ends_early_by_hand(tmp_path):
    # A throw: 1 or 3 points, and the game ends there or goes on to a round of 5 (each 1/4).
    # By hand, at least 0 to 8: 1, 1, 3/4, 3/4, 1/2, 1/2, 1/2, 1/4, 1/4 (totals 1, 3, 6, 8).
    (tmp_path / "ends_early.py").write_text(ENDS_EARLY)
    model = mdp.compile(mdp.load_game(str(tmp_path / "ends_early.py")))
    by_hand = [1, 1, Fraction(3, 4), Fraction(3, 4), Fraction(1, 2), Fraction(1, 2), Fraction(1, 2),
               Fraction(1, 4), Fraction(1, 4)]
    assert [mdp.at_least(model, exact=True, total=t).chance(t) for t in range(9)] == by_hand
    assert [mdp.at_least(model, total=t).chance(t) for t in range(9)] == [float(c) for c in by_hand]
