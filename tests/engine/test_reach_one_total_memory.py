"""The memory of the chance of one total (mdp solve --at-least T, mdp.at_least(total=T))
bounded before the work by T itself (mdp/engine/rounds/window.py, widths_toward): each round
state's vector holds only the points still needed that T can leave it, so a total near the
least or the most a game can earn needs a few columns however large its points are; and the
chance under best-mean play beside it holds only the totals that play ends with
(mdp.analysis.targets.best_mean_chances), however far apart."""

from fractions import Fraction

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
