"""The chance of one total from the start (mdp.at_least(..., total=T),
mdp/engine/rounds/window.py): each round state's vector cut to the points still needed that
T can leave it, found by a forward pass over the rounds. The same chance, bit for bit, as
the sweep of every total (which the brute forces of test_rounds_reach.py check), for every T;
every round state's chances within its window the same too; past them refused in one line;
its memory bounded by the spread of the points before each round as well as after."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game
from test_rounds_reach import whole_cards

import mdp
from mdp.engine.rounds.reach import check_reach


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.booleans())
def test_one_total_is_the_chance_of_every_total_bit_for_bit(card, exact):
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    whole = mdp.at_least(model, exact=exact)
    low, high = whole.bounds()
    for total in range(low - 2, high + 3):
        one = mdp.at_least(model, exact=exact, total=total, start_only=True)
        assert one.chance(total) == whole.chance(total), total


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.data())
def test_every_round_state_s_window_holds_its_chances(card, data):
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    whole = mdp.at_least(model)
    total = data.draw(st.integers(whole.bounds()[0] - 1, whole.most + 1))
    one = mdp.at_least(model, total=total)
    assert one.window is not None
    for r, keys in enumerate(model.keys):
        for at, key in enumerate(keys.tolist()):
            least, most = int(one.window[r][0][at]), int(one.window[r][1][at])
            for need in range(least, most + 1):
                assert one.chance(need, key) == whole.chance(need, key), (key, need)


def test_past_the_window_is_refused_in_one_line():
    # Two boxes of a coin, points 1 or 2 and 0 or 3: toward 3 from the start, the round
    # state with the first box filled was reached with 1 or 2 points, so it holds 3 - 2 = 1
    # to 3 - 1 = 2 points still needed, not 3 (within its totals more, 0 to 3); the one with
    # the second filled, 0 or 3 points before, holds 0 to 3.
    model = mdp.compile(card_game([[1, 2], [0, 3]], 2, 1))
    one, whole = mdp.at_least(model, total=3), mdp.at_least(model)
    said = []
    for key in model.keys[1].tolist():
        assert [one.chance(n, key) for n in (1, 2)] == [whole.chance(n, key) for n in (1, 2)]
        try:
            said.append(one.chance(3, key) == whole.chance(3, key))
        except mdp.ParamError as error:
            said.append(str(error))
    assert sorted(map(str, said)) == [
        "True", "this Reach was solved toward one total from the start: from round state "
        f"{int(model.keys[1][0])} it holds 1 to 2 points still needed, not 3; solve again "
        "without total for every total"]
    with pytest.raises(mdp.ParamError, match=r"^this Reach was solved toward one total from the "
                       r"start: from round state \d+ it holds 3 to 3 points still needed, not 4; "
                       r"solve again without total for every total$"):
        one.chance(4)
    with pytest.raises(mdp.ParamError, match=r"^this Reach was solved toward one total \(total=3\): "
                       r"the chance of every total needs it solved without one$"):
        one.curve()
    assert one.chance(3) == mdp.at_least(model).chance(3)
    assert one.chance(-5) == 1.0 and one.chance(99) == 0.0  # beyond every total: the sides
    with pytest.raises(mdp.ParamError, match=r"^mdp.at_least: total is 2.5; expected a whole number or None$"):
        mdp.at_least(model, total=2.5)


def test_the_memory_of_one_total_is_bounded_by_the_points_before_too():
    # Three boxes of points 0 to 5 (the round states 1, 3, 3 and 1): every total's vectors
    # are as wide as the spread of the points to come, 15, 10, 5 and 0; toward one total,
    # no wider than one more than the spread of those earned before, 1, 6, 11 and 16.
    rounds = mdp.compile(card_game([[0, 5]] * 3, 2, 1))
    assert [len(keys) for keys in rounds.keys] == [1, 3, 3, 1]
    columns = [1 * 1, 3 * 6, 3 * 5, 1 * 0]
    whole, two = 8 * sum(columns), 8 * max(columns[0] + columns[1], columns[1] + columns[2])
    assert (two, whole) == (264, 272)
    check_reach(rounds, max_memory=whole, one_total=True)
    with pytest.raises(mdp.TooLarge, match=r"may take up to .*, past the budget of"):
        check_reach(rounds, max_memory=whole - 1, one_total=True)
    check_reach(rounds, max_memory=two, start_only=True, one_total=True)
    with pytest.raises(mdp.TooLarge, match=r"may take up to .*, past the budget of"):
        check_reach(rounds, max_memory=two - 1, start_only=True, one_total=True)
    assert mdp.at_least(rounds, max_memory=two, start_only=True, total=7).chance(7) == \
        mdp.at_least(rounds).chance(7)


def test_a_table_of_targets_is_still_bounded_by_every_total():
    # The card above: two rounds of every total's vectors take 8 * (30 + 15) = 360 bytes,
    # of one total's 264 (test_reach_start_only.py and the test above; toward 7, no
    # narrower: it is 7 from the least and 8 from the most total, wider than these): between them,
    # one total is solved and a table of every total refused.
    from mdp.analysis.targets import check_chance_of_total, check_targets

    rounds = mdp.compile(card_game([[0, 5]] * 3, 2, 1))
    check_chance_of_total(rounds, max_memory=300, total=7)
    with pytest.raises(mdp.TooLarge, match=r"^game card: the chance of at least every total may "
                       r"take up to 360 bytes, past the budget of 300 bytes"):
        check_targets(rounds, max_memory=300)
    with pytest.raises(mdp.TooLarge, match=r"^game card: the chance of at least a total may "
                       r"take up to 264 bytes, past the budget of 263 bytes"):
        check_chance_of_total(rounds, max_memory=263, total=7)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.data())
@pytest.mark.slow
def test_play_toward_one_total_is_followed_within_the_windows(card, data):
    # mdp distribution --at-least T follows the play toward T from the start: every round
    # state it meets is asked only the needs its window holds, and the chance of every
    # final total is that of the play solved for every total, exactly.
    from mdp.engine.rounds.toward import toward_distribution

    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    whole = mdp.at_least(model, exact=True)
    total = data.draw(st.integers(whole.bounds()[0] - 1, whole.most + 1))
    one = mdp.at_least(model, exact=True, total=total)
    assert toward_distribution(one, total).to_dicts() == toward_distribution(whole, total).to_dicts()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.data())
def test_the_round_played_toward_one_total_is_the_every_total_one_within_its_window(card, data):
    """The round played from a round state toward ``need`` more (:meth:`mdp.Reach.at`, what
    ``mdp advise --at-least T --points P`` shows, now from one total's vectors): the same
    values, exactly, as from every total's, for every need the window holds; past it, refused
    (it read the sides of the vectors after, a wrong chance)."""
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    whole = mdp.at_least(model, exact=True)
    total = data.draw(st.integers(whole.bounds()[0] - 1, whole.most + 1))
    one = mdp.at_least(model, exact=True, total=total)
    r = data.draw(st.integers(0, len(model.keys) - 1))
    at = data.draw(st.integers(0, len(model.keys[r]) - 1))
    key = int(model.keys[r][at])
    least, most = int(one.window[r][0][at]), int(one.window[r][1][at])
    for need in range(least, most + 1):
        assert list(one.at(key, need).values) == list(whole.at(key, need).values), (key, need)
    low, high = whole.bounds(key)
    for need in (least - 1, most + 1):
        if low < need <= high and not least <= need <= most:  # neither side: refused
            with pytest.raises(mdp.ParamError, match="solved toward one total from the start"):
                one.at(key, need)
