"""Shut the Box rule variants, rule parameters, scoring rules and rule plugins.

Expected values come from tests/brute_shutbox.py, an independent solver, with each variant's
rules written out again from its description in the issue that asked for it.
"""

from fractions import Fraction

import brute_shutbox
import numpy as np
import pytest

import mdp

SHUTBOX = "games/shutbox"
SCHEDULE_321 = [(0, 49, 3), (50, 71, 2), (72, None, 1)]

VARIANTS = {
    "riddler": dict(tiles=range(1, 10), one_die="max6", one_die_mode="choice"),
    "durango": dict(tiles=range(1, 10), one_die="sum6", one_die_mode="forced"),
    "two-dice": dict(tiles=range(1, 10), one_die="never"),
    "fiddler": dict(tiles=range(1, 7), dice=1),
    "ten-box": dict(tiles=range(1, 11), one_die="never"),
    "twelve-box": dict(tiles=range(1, 13), one_die="never"),
    "twelve-box-321": dict(tiles=range(1, 13), one_die="never", schedule=SCHEDULE_321),
    # Named by the rule plugins, after the game's own (their entry points by name: doubles,
    # flip_limit).
    "doubles-extra": dict(tiles=range(1, 10), one_die="max6", one_die_mode="choice", doubles=True),
    "max-two-flips": dict(tiles=range(1, 10), one_die="sum6", one_die_mode="forced", max_flips=2),
}


def value(exact=True, sense=None, variant=None, **params):
    game = mdp.load_game(SHUTBOX, variant=variant, **params)
    return mdp.solve(mdp.compile(game), exact=exact, sense=sense).value


def test_every_variant_is_tested():
    assert [v.name for v in mdp.load_game(SHUTBOX).variants()] == list(VARIANTS)


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
def test_variant_against_brute_force(name):
    expected = brute_shutbox.solve(**VARIANTS[name])
    assert value(variant=name) == expected
    assert value(exact=False, variant=name) == pytest.approx(float(expected), rel=1e-13)


def test_published_figures_by_variant():
    assert float(value(variant="riddler")) == 0.0976137161704307
    assert value(variant="fiddler") == Fraction(145, 1944)
    assert value(variant="two-dice") == Fraction(466473281, 6530347008)


def test_set_overrides_a_variant():
    game = mdp.load_game(SHUTBOX, variant="twelve-box", tiles="1-8")
    assert game.params["tiles"] == tuple(range(1, 9)) and game.params["one_die"] == "never"
    assert game.variant == "twelve-box"


def test_default_parameters_are_the_riddler_variant():
    assert mdp.load_game(SHUTBOX).params == mdp.load_game(SHUTBOX, variant="riddler").params


def test_fair_weights_reproduce_the_fair_result_exactly():
    assert value(weights="1/6,1/6,1/6,1/6,1/6,1/6") == value()
    assert value(weights=[Fraction(1, 4)] * 4, faces=4, tiles="1-7") == value(faces=4, tiles="1-7")


def test_decimal_weights_are_exact():
    weights = "0.2,0.16,0.16,0.16,0.16,0.16"
    expected = brute_shutbox.solve(range(1, 8), weights=[Fraction(1, 5)] + [Fraction(4, 25)] * 5)
    assert value(tiles="1-7", weights=weights) == expected


def test_loaded_die_with_a_missing_face():
    # A die that never shows 6: tiles 1-5 and one die.
    weights = [Fraction(1, 5)] * 5 + [Fraction(0)]
    expected = brute_shutbox.solve(range(1, 6), dice=1, weights=weights)
    assert value(tiles="1-5", dice=1, weights=weights) == expected


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_max_flips_against_brute_force(limit):
    expected = brute_shutbox.solve(range(1, 9), max_flips=limit)
    assert value(tiles="1-8", max_flips=str(limit)) == expected


@pytest.mark.parametrize("scoring", ["score", "digital"])
def test_minimized_scores_against_brute_force(scoring):
    expected = brute_shutbox.solve(range(1, 9), scoring=scoring)
    assert value(tiles="1-8", scoring=scoring) == expected


def test_digital_score_with_two_digit_tiles():
    expected = brute_shutbox.solve(range(1, 11), one_die="never", scoring="digital")
    assert value(tiles="1-10", one_die="never", scoring="digital") == expected


def test_payout_paying_only_a_shut_box_is_the_win_scoring():
    assert value(scoring="payout", payout="0:1") == value()
    assert value(scoring="payout", payout="0:100") == 100 * value()


@pytest.mark.slow  # half a second or more of CPU
def test_payout_table_against_brute_force_and_changes_the_strategy():
    table = "0:100,1-3:5"
    expected = brute_shutbox.solve(range(1, 10), scoring="payout", payout={0: 100, 1: 5, 2: 5, 3: 5})
    assert value(scoring="payout", payout=table) == expected
    win = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(SHUTBOX))), game)
    paid = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(SHUTBOX, scoring="payout", payout="0:1,1-3:1/2"))), game)
    differ = (win["optimal"] != paid["optimal"]).sum()
    assert differ > 0


def test_payout_from_a_file(tmp_path):
    table = tmp_path / "payout.txt"
    table.write_text("# casino table\n0: 100\n1-3: 5  # near misses\n")
    assert value(scoring="payout", payout=str(table)) == value(scoring="payout", payout="0:100,1-3:5")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("params", "brute"),
    [
        # (one die at shut totals 30 and 31, where the open tiles sum to 6 or less: the
        # one-die rule acts; from 20 on, as before round 20, it never did, and is refused)
        (dict(tiles="1-8", dice_schedule="0-9:3,10-31:2,32-:1", one_die="sum6", one_die_mode="forced"),
         dict(tiles=range(1, 9), one_die="sum6", one_die_mode="forced",
              schedule=[(0, 9, 3), (10, 31, 2), (32, None, 1)])),
        (dict(tiles="1-7", dice="3", faces="4", weights="1/2,1/4,1/8,1/8", one_die="always"),
         dict(tiles=range(1, 8), dice=3, faces=4, one_die="always",
              weights=[Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)])),
        (dict(scoring="payout", payout="0:10,1-3:1/2,10-45:-1/3", max_flips="2"),
         dict(tiles=range(1, 10), max_flips=2, scoring="payout",
              payout={0: 10, 1: Fraction(1, 2), 2: Fraction(1, 2), 3: Fraction(1, 2)}
              | {score: Fraction(-1, 3) for score in range(10, 46)})),
        (dict(tiles="1-8", scoring="digital", max_flips="1", weights="0.3,0.2,0.2,0.1,0.1,0.1"),
         dict(tiles=range(1, 9), scoring="digital", max_flips=1,
              weights=[Fraction(3, 10)] + [Fraction(1, 5)] * 2 + [Fraction(1, 10)] * 3)),
    ],
)
def test_rules_together_against_brute_force(params, brute):
    expected = brute_shutbox.solve(**brute)
    assert value(**params) == expected
    assert value(exact=False, **params) == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize("tiles", ["1-5", "1-8"])
def test_minimize_win_is_the_worst_play(tiles):
    n = int(tiles[-1])
    assert value(tiles=tiles, sense="min") == brute_shutbox.solve(range(1, n + 1), minimize=True)


def test_maximize_score_is_the_worst_play_for_score():
    expected = brute_shutbox.solve(range(1, 8), scoring="score", minimize=False)
    assert value(tiles="1-7", scoring="score", sense="max") == expected


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (dict(variant="durang"), "unknown variant 'durang' for game shutbox; did you mean durango?"),
        (dict(weights="1/6,1/6,1/6"), "parameter weights=1/6,1/6,1/6: the weights sum to 1/2, not 1"),
        (dict(weights="1/2,-1/6,1/6,1/6,1/6,1/6"), "parameter weights=1/2,-1/6,1/6,1/6,1/6,1/6: weight -1/6 is negative"),
        (dict(weights="1/2,1/2"), "parameter weights: 2 weights for dice of 6 faces; give one per face"),
        (dict(weights="a,b"), "parameter weights=a,b: expected one probability per face"),
        (dict(scoring="wins"), "parameter scoring=wins: unknown scoring rule; did you mean win?"),
        (dict(scoring="payout"), "parameters scoring and payout go together"),
        (dict(scoring="payout", payout="0=100"), "parameter payout=0=100: no file '0=100', and not a table like 0:100,1-3:5"),
        (dict(scoring="payout", payout="0:x"), "parameter payout=0:x: item '0:x': expected SCORE:AMOUNT"),
        (dict(scoring="payout", payout="0:1,0:2"), "parameter payout=0:1,0:2: score 0 is paid twice"),
        (dict(dice_schedule="0-49:3,52-71:2,72-:1"), "parameter dice_schedule=0-49:3,52-71:2,72-:1: range 52-71 leaves shut totals 50-51 out"),
        (dict(dice_schedule="1-49:3,50-:2"), "parameter dice_schedule=1-49:3,50-:2: range 1-49 leaves shut totals 0 out"),
        (dict(dice_schedule="0-49:3,40-:2"), "parameter dice_schedule=0-49:3,40-:2: range 40- overlaps"),
        (dict(tiles="1-12", dice_schedule="0-49:3,50-60:2"), "parameter dice_schedule: shut totals 61-78 have no number of dice"),
        (dict(dice_schedule="0-49"), "parameter dice_schedule=0-49: range 0-49 needs a number of dice"),
        (dict(max_flips="0"), "parameter max_flips=0: expected a whole number of 1 or more"),
        # Bounds that keep a few characters from asking for hours of work, refused at once.
        (dict(tiles="1-41"), "parameter tiles=1-41: 41 tiles; at most 40, since each tile doubles the states"),
        (dict(tiles="1-999999999"), "parameter tiles=1-999999999: tile 999999999 is above 1000; tiles are whole numbers from 1 to 1000"),
        (dict(dice="51"), "parameter dice=51: expected a whole number from 1 to 50 (these bounds keep a throw to at most 4,951 totals)"),
        (dict(faces="101"), "parameter faces=101: expected a whole number from 2 to 100"),
        (dict(dice_schedule="0-:51"), "parameter dice_schedule=0-:51: range 0- needs a number of dice from 1 to 50"),
        (dict(scoring="payout", payout="0-100000000:1"), "parameter payout: scores 0-100000000 pass 45, the highest final score (every tile open); pay scores from 0 to 45"),
        (dict(scoring="payout", payout="0:1e-999999999"), "parameter payout=0:1e-999999999: item '0:1e-999999999': expected SCORE:AMOUNT"),
        (dict(weights="1e-999999999,1,0,0,0,0"), "parameter weights=1e-999999999,1,0,0,0,0: expected one probability per face"),
    ],
)
def test_rule_errors(params, message):
    with pytest.raises(mdp.ParamError) as error:
        mdp.load_game(SHUTBOX, **params)
    assert str(error.value).startswith(message), str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.slow
def test_thirty_tiles_and_two_dice_are_few_states_and_solve():
    # Two dice never total more than 12, so tiles 13-30 stay open: under 2**12 sets of open
    # tiles are reachable. (A count of 2**30 sets once refused this box before any work.)
    game = mdp.load_game(SHUTBOX, tiles="1-30", one_die="never")
    solution = mdp.solve(mdp.compile(game), exact=True)
    assert solution.model.n_states < 50_000
    assert solution.value == 0 == brute_shutbox.solve(range(1, 31), one_die="never")
    score = mdp.solve(solution.model, terminal=solution.model.terminals["open_sum"], exact=True,
                      sense="min").value
    assert score == brute_shutbox.solve(range(1, 31), one_die="never", scoring="score")


def test_a_large_box_stops_cleanly_at_the_state_limit_and_the_memory_budget():
    game = mdp.load_game(SHUTBOX, tiles="1-20", dice=4, one_die="never")
    with pytest.raises(mdp.TooLarge, match=r"^game shutbox: more than 100,000 states; raise the limit with --max-states \(max_states= in Python\)$"):
        mdp.compile(game, max_states=100_000)
    with pytest.raises(mdp.TooLarge, match=r"^game shutbox: the model would need more than 1\.\d+ MB of memory \([\d,]+ states so far\), past the budget of 1 MB; raise it with --max-memory \(max_memory= in Python\)$"):
        mdp.compile(game, max_memory=1_000_000)


def test_rule_plugins_are_registered_from_the_entry_point_group():
    game = mdp.load_game(SHUTBOX)
    names = {game.plugins.get_name(p) for p in game.plugins.get_plugins()}
    assert {"flip_limit", "digital", "doubles"} <= names


@pytest.mark.slow
@pytest.mark.parametrize(
    ("params", "brute"),
    [
        (dict(tiles="1-6", one_die="never"), dict(tiles=range(1, 7), one_die="never")),
        (dict(tiles="1-9"), dict(tiles=range(1, 10))),
        (dict(tiles="1-8", one_die="sum6", one_die_mode="forced", scoring="score",
              weights="0.3,0.2,0.2,0.1,0.1,0.1"),
         dict(tiles=range(1, 9), one_die="sum6", one_die_mode="forced", scoring="score",
              weights=[Fraction(3, 10)] + [Fraction(1, 5)] * 2 + [Fraction(1, 10)] * 3)),
        (dict(tiles="1-7", faces="4", one_die="always"), dict(tiles=range(1, 8), faces=4, one_die="always")),
    ],
)
def test_doubles_let_one_more_tile_be_shut_against_brute_force(params, brute):
    expected = brute_shutbox.solve(**brute, doubles=True)
    assert expected != brute_shutbox.solve(**brute)  # the rule changes the game here
    assert value(doubles="extra", **params) == expected
    assert value(exact=False, doubles="extra", **params) == pytest.approx(float(expected), rel=1e-12)


def test_three_dice_throw_no_double():
    # No throw of three dice is a double (the independent solver: the same value with the
    # rule as without it), so doubles=extra is refused there as doing nothing.
    assert value(tiles="1-7", dice="3") == brute_shutbox.solve(range(1, 8), dice=3, doubles=True)
    with pytest.raises(mdp.ParamError, match="^parameter doubles=extra has no effect while no "
                                             "throw is of two dice"):
        value(tiles="1-7", dice="3", doubles="extra")


def test_a_double_is_a_roll_of_its_own_kind():
    # Tiles 1-4, all open, a roll of 4: a plain 4 shuts 4 or 1 3; a double 2 2 lets one more
    # tile be shut too. Shutting 4 alone stays best: 1 2 3 are left, and the extra tile is
    # a choice, not a duty.
    game = mdp.load_game(SHUTBOX, tiles="1-4", doubles="extra")
    assert game.describe().endswith("; a double lets one more tile be shut")
    solution = mdp.solve(mdp.compile(game))
    double = mdp.advise(solution, game, open="1 2 3 4", roll=4, kind="double")
    assert double.actions["shut"].cast(str).to_list() == ["4", "3 4", "2 4", "1 4", "1 3", "1 3 4", "1 2 3"]
    plain = mdp.advise(solution, game, open="1 2 3 4", roll=4)
    assert plain.state["kind"] is None and plain.actions["shut"].cast(str).to_list() == ["4", "1 3"]
    # A game that ends on a roll names it by its total and kind too.
    ends = mdp.game.columns.state_columns(game, solution.model.states[:solution.model.n_terminal])
    ended = {(o, r, k) for o, r, k in zip(ends["open"], ends["roll"], ends["kind"])}
    assert ("1", 2, "double") in ended and ("1", 3, None) in ended and ("", None, None) in ended


def _with_plugin(game, **hooks):
    """``game`` with one more rule plugin, registered after the others: its hooks wrap theirs."""
    import types

    game.plugins.register(types.SimpleNamespace(**{name: mdp.hookimpl(wrapper=True)(hook)
                                                   for name, hook in hooks.items()}), name="house")
    return game


def test_a_rule_plugin_chooses_the_dice():
    # The durango rule (one die, forced, once the open tiles sum to 6 or less) written as a
    # plugin over a game without the built-in one-die rule.
    def one_die_when_low(box, masks):
        options = yield
        return np.where((box.open_sum(masks) <= 6)[:, None], 1, options)

    game = _with_plugin(mdp.load_game(SHUTBOX, tiles="1-8", one_die="never"),
                        shutbox_dice_options=one_die_when_low)
    expected = brute_shutbox.solve(range(1, 9), one_die="sum6", one_die_mode="forced")
    assert mdp.solve(mdp.compile(game), exact=True).value == expected


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (lambda options: options + 1, "game shutbox: shutbox_dice_options gave dice [3] (open 1 2 3 4 5 6 7 8 9); give each state one number of dice or more, from 1 to 2 (the most the parameters roll), none twice, the usual number first, 0 for no more after the last"),
        (lambda options: np.column_stack([options, options]), "game shutbox: shutbox_dice_options gave dice [2, 2] (open 1 2 3 4 5 6 7 8 9); give each state"),
        (lambda options: options * 0, "game shutbox: shutbox_dice_options gave dice [0] (open 1 2 3 4 5 6 7 8 9); give each state"),
        (lambda options: options[:, 0], "game shutbox: shutbox_dice_options gave an array of shape (1,) and type int64 for 1 mask; expected integers, a row per mask (a 2-D array)"),
    ],
)
def test_a_rule_plugins_dice_are_checked(answer, message):
    def wrong(box, masks):
        return answer((yield))

    game = _with_plugin(mdp.load_game(SHUTBOX, one_die="never"), shutbox_dice_options=wrong)
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    assert str(error.value).startswith(message), str(error.value)


def test_a_rule_plugins_rolls_are_checked():
    def wrong(dice):
        rolls = yield
        return [(p, total + 1, kind) for p, total, kind in rolls]

    game = _with_plugin(mdp.load_game(SHUTBOX), shutbox_rolls=wrong)
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    assert str(error.value) == ("game shutbox: shutbox_rolls gave (Fraction(1, 6), 7, None) for 1 die; "
                                "expected (probability, total, kind) with a total from 1 to 6, a "
                                "probability above 0 and a kind None or a word of text, no spaces, "
                                "'=' or ',', not starting with '-'")
