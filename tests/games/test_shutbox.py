"""Shut the Box: published figures, and an independent brute force (tests/brute_shutbox.py).

The game is described once, by its batch hooks; the brute force is the cross-check.
"""

from fractions import Fraction

import brute_shutbox
import pytest

import mdp
from mdp_games import shutbox


def solve(exact=True, sense=None, **params):
    return mdp.solve(mdp.compile(mdp.load_game("games/shutbox", **params)), exact=exact, sense=sense).value


def test_standard_box():
    # Published: 9.7614% (0.0976137161704307) with perfect play, one die allowed once 7, 8
    # and 9 are shut (the Riddler's rules).
    value = solve()
    assert float(value) == 0.0976137161704307
    assert solve(exact=False) == pytest.approx(0.0976137161704307, rel=1e-15)
    assert value == brute_shutbox.solve(range(1, 10))


def test_six_tiles_one_die():
    # Published: 145/1944 for tiles 1-6 and a single die.
    assert solve(tiles="1-6", dice=1) == Fraction(145, 1944)


def test_always_two_dice():
    # Published (The Fiddler on the Proof): 466473281/6530347008 when two dice are always rolled.
    assert solve(one_die="never") == Fraction(466473281, 6530347008)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [
        dict(tiles="1-9", one_die="sum6"),
        dict(tiles="1-9", one_die="always"),
        dict(tiles="1-9", one_die="max6", one_die_mode="forced"),
        dict(tiles="1-9", one_die="sum6", one_die_mode="forced"),
        dict(tiles="1-7", faces=4),
        dict(tiles="1-8", dice=3, faces=4, one_die="never"),
        dict(tiles="1,3,5,8,12", one_die="never"),
        dict(tiles="2-8", faces=5, one_die="always"),
    ],
)
def test_rule_parameters_against_brute_force(params):
    expected = brute_shutbox.solve(
        mdp.load_game("games/shutbox", **params).params["tiles"],
        **{k: v for k, v in params.items() if k != "tiles"} | {
            "faces": int(params.get("faces", 6)), "dice": int(params.get("dice", 2))},
    )
    assert solve(**params) == expected
    assert solve(exact=False, **params) == pytest.approx(float(expected), rel=1e-13)


@pytest.mark.parametrize("tiles", ["1-5", "1-7", "1-9"])
def test_worst_play_against_brute_force(tiles):
    expected = brute_shutbox.solve(range(1, int(tiles[-1]) + 1), minimize=True)
    assert solve(tiles=tiles, sense="min") == expected


def test_policy_columns_and_first_decision():
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game("games/shutbox"))), game)
    assert policy.columns == ["open", "roll", "dice", "shut", "value", "optimal", "regret"]
    # Rolled 9 with every tile open: shutting the 9 alone is best (an independent check: the
    # brute force's value of the box with 9 shut, against every other way to make 9).
    first = policy.filter((policy["open"] == "1 2 3 4 5 6 7 8 9") & (policy["roll"] == 9))
    best = first.filter(first["optimal"])
    assert best["shut"].to_list() == ["9"]
    assert best["value"][0] == pytest.approx(float(brute_shutbox.solve(range(1, 9))), rel=1e-14)
    assert first.height == 8  # 9, 1+8, 2+7, 3+6, 4+5, 1+2+6, 1+3+5, 2+3+4


def test_one_die_choice_appears_once_high_tiles_are_shut():
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game("games/shutbox"))), game)
    before_roll = policy.filter(policy["roll"].is_null())
    assert before_roll.filter(before_roll["open"] == "1 2 3 4 5 6")["dice"].to_list() == [2, 1]
    assert before_roll.filter(before_roll["open"] == "1 2 3 4 5 6 7")["dice"].to_list() == [2]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"tiles": "0-3"}, "parameter tiles=0-3: tile 0 is below 1"),
        ({"tiles": "1,2,2"}, "parameter tiles=1,2,2: tile 2 appears twice"),
        ({"tiles": "a-b"}, "parameter tiles=a-b: expected a range like 1-9 or a list like 1,2,3"),
        ({"tiles": ""}, "parameter tiles=: expected a range like 1-9"),
        ({"dice": "0"}, "parameter dice=0: expected a whole number from 1 to 50 (these bounds"),
        ({"dice": "two"}, "parameter dice=two: expected a whole number from 1 to 50"),
        ({"faces": "1"}, "parameter faces=1: expected a whole number from 2 to 100 (these bounds"),
        ({"one_die": "sometimes"}, "parameter one_die=sometimes: allowed: never, max6, sum6, always"),
        ({"one_die_mode": "maybe"}, "parameter one_die_mode=maybe: allowed: choice, forced"),
        ({"colour": "red"}, "unknown parameter 'colour' for game shutbox"),
    ],
)
def test_bad_parameters(params, message):
    with pytest.raises(mdp.ParamError) as error:
        mdp.load_game("games/shutbox", **params)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_parameters_resolve_and_show():
    game = mdp.load_game("games/shutbox", tiles="1-6,8", dice="3")
    assert game.params["tiles"] == (1, 2, 3, 4, 5, 6, 8)
    assert game.params["dice"] == 3
    assert game.shown_params() == {
        "tiles": "1-6,8", "dice": 3, "faces": 6, "one_die": "max6", "one_die_mode": "choice",
        "dice_schedule": None, "weights": None, "scoring": "win", "payout": None,
        "shut_pays": 1, "shut_wins": "yes", "doubles": "plain", "max_flips": None}
    assert game.with_params(tiles=[1, 2]).params["tiles"] == (1, 2)
    assert game.with_params(faces="8").params["tiles"] == (1, 2, 3, 4, 5, 6, 8)


def test_columns_of_states_alone():
    # The terminal states of a model are named by their own columns: open tiles, and the
    # roll that ended the game (none when the box is shut before a roll), and the sums of
    # the open and the shut tiles (of 1-9: 45 in all).
    game = mdp.load_game("games/shutbox")
    box = shutbox.box(game)
    states = [box.key(0b1, 5), box.key(0), box.key(0b110000000, 2), box.key(0b1, 5)]
    columns = mdp.game.columns.state_columns(game, states)  # lazy text made
    assert {name: list(values) for name, values in columns.items()} == {
        "open": ["1", "", "8 9", "1"], "roll": [5, None, 2, 5],
        "open_sum": [1, 0, 17, 1], "shut_sum": [44, 45, 28, 44]}


def test_columns_of_a_state_in_a_large_box_need_no_table_of_every_box():
    game = mdp.load_game("games/shutbox", tiles="1-40")
    box = shutbox.box(game)
    columns = game.call("mdp_columns", states=[box.key(box.full, 7)], actions=[None])
    assert columns["open"][0] == " ".join(map(str, range(1, 41))) and columns["roll"][0] == 7


def test_exact_solving_of_many_dice_past_64_bits_of_denominator():
    # Before: an OverflowError traceback (the common denominator 6**31 is past 64 bits).
    # On tiles 1-5 every open tile is 6 or less from the start, so one die may be rolled;
    # 31 dice throw at least 31, more than the 15 of every tile, so one die is always
    # rolled: the value is that of one die, by hand.
    many = mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-5", dice="31")), exact=True)
    one = mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-5", dice="1")), exact=True)
    assert many.value == one.value
