"""The chance of every total from the start alone (mdp.at_least(..., start_only=True),
mdp/engine/rounds/reach.py), two rounds' vectors held at a time: the same chances, bit for
bit, as the sweep that keeps every round's, which the brute forces of test_rounds_reach.py
check; the rest refused in one line; its memory bounded by two rounds, not all."""

import pytest
from hypothesis import HealthCheck, given, settings
from test_rounds_properties import card_game
from test_rounds_reach import brute_card, whole_cards

import mdp
from mdp.engine.rounds.reach import check_reach


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards)
def test_the_start_s_chances_are_those_of_the_whole_sweep(card):
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    for exact in (False, True):
        whole, start = mdp.at_least(model, exact=exact), mdp.at_least(model, exact=exact, start_only=True)
        low, curve = start.curve()
        assert (low, curve.tolist()) == (whole.curve()[0], whole.curve()[1].tolist())
        for total in range(low - 2, start.most + 3):
            assert start.chance(total) == whole.chance(total)
    best = brute_card(points, faces, throws)
    assert [start.chance(t) for t in range(low, start.most + 2)] == \
        [best(0, t) for t in range(low, start.most + 2)]


def test_the_rest_is_refused_in_one_line():
    model = mdp.compile(card_game([[1, 2], [0, 3]], 2, 1))
    reach = mdp.at_least(model, start_only=True)
    later = int(model.keys[1][0])
    said = (r"^this Reach holds the start's chances only \(solved with start_only=True\): the "
            r"chances from other round states and the play of a round need every round's; solve "
            r"again without start_only$")
    for ask in (lambda: reach.chance(2, key=later), lambda: reach.curve(later),
                lambda: reach.at(None, 2)):
        with pytest.raises(mdp.ParamError, match=said):
            ask()
    assert reach.bounds(later) == mdp.at_least(model).bounds(later)  # bounds are kept


def test_the_memory_of_the_start_alone_is_two_rounds_not_all():
    # Three boxes of points 0 to 5: the rounds' vectors are as wide as the spread of the
    # points still to come (the totals past them are surely reached or not), 15, 10, 5 and
    # 0; the round states, 1, 3, 3 and 1.
    rounds = mdp.compile(card_game([[0, 5]] * 3, 2, 1))
    assert [len(keys) for keys in rounds.keys] == [1, 3, 3, 1]
    columns = [1 * 15, 3 * 10, 3 * 5, 1 * 0]
    whole, two = 8 * sum(columns), 8 * (columns[1] + columns[2])
    assert (two, whole) == (360, 480)
    check_reach(rounds, max_memory=two, start_only=True)
    with pytest.raises(mdp.TooLarge, match=r"may take up to .*, past the budget of"):
        check_reach(rounds, max_memory=two - 1, start_only=True)
    with pytest.raises(mdp.TooLarge, match=r"may take up to .*, past the budget of"):
        check_reach(rounds, max_memory=whole - 1)
    check_reach(rounds, max_memory=whole)
    assert mdp.at_least(rounds, max_memory=two, start_only=True).chance(10) == \
        mdp.at_least(rounds).chance(10)
