"""Strategies of a game played in rounds (mdp/analysis/strategy.py, mdp/engine/rounds.py): each
round played best toward the worths a strategy aims at for its ends, that play valued with
each end's points and what follows. The engine's greedy and Yahtzee's greedy-bonus on small
cards against a brute force written here, which plays each turn for its aims over the rules
of the card as printed; greedy on the two-boxes example as worked by hand; the commands; and
what a strategy's plugin can get wrong."""

import functools
import itertools
import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import two_boxes

import mdp
import mdp.program.cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "examples" / "two_boxes.py")
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]


def points(box, hand):
    """The points of an upper box (the dice of its face) or of chance (all the dice)."""
    return sum(hand) if box == "chance" else (UPPER.index(box) + 1) * Counter(hand)[UPPER.index(box) + 1]


@functools.cache
def rolls(n):
    """Every throw of n dice, order forgotten, with how many of the 6**n throws give it."""
    return list(Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n)).items())


@functools.cache
def myopic(card, boxes, share):
    """The expected final score of a card of ``boxes`` (upper boxes and chance) when each turn
    is played for what it aims at: 63 times an end's points (with the bonus of 35 where the
    turn brings the upper total to 63), plus ``share`` times the upper points it adds toward
    63 while the upper boxes left can still reach it (``share`` 0: greedy, the points alone).
    Of actions aimed at equally, the first in the game's own order (its mdp_actions) is
    taken. A plain recursion in exact numbers, over cards (boxes filled, upper total), and in
    a turn over hands and the dice kept, each worth what it aims at and what it is worth:
    whole numbers over a power of 6 (a throw of n dice, 6**n ways), the quickest exact sums."""
    game = mdp.load_game("yahtzee", card=card, boxes=",".join(boxes))

    @functools.cache  # a turn's states are the same on every card: each asked once
    def actions(state):
        return game.call("mdp_actions", state=state)

    def first_best(options):  # (aim, worth) pairs in the game's order
        top = max(aim for aim, _ in options)
        return next(option for option in options if option[0] == top)

    @functools.cache
    def value(filled, total):
        """Of a card with m boxes open: the numerator over 6**(15 m), three throws of five
        dice a turn."""
        if len(filled) == len(boxes):
            return 0
        later = 6 ** (15 * (len(boxes) - len(filled) - 1))  # the next card's denominator
        reach = sum(5 * (UPPER.index(b) + 1) for b in boxes if b in UPPER and b not in filled)

        def end(box, hand):
            gained = points(box, hand) if box in UPPER else 0
            scored = points(box, hand) + 35 * (total < 63 <= total + gained)
            toward = min(gained, 63 - total) if total < 63 <= total + reach else 0
            return 63 * scored + share * toward, scored * later + value(filled | {box}, min(total + gained, 63))

        @functools.cache
        def rolled(rolls_left, hand):  # over 6**(5 rolls_left), and the worth over later too
            if rolls_left == 0:
                return first_best([end(box, hand) for box in actions((0, hand, True)) if box not in filled])
            scale = 6 ** (5 * rolls_left)
            return first_best([tuple(scale * x for x in rolled(0, hand)) if keep == hand else
                               kept(rolls_left, keep) for keep in actions((rolls_left, hand, True))])

        @functools.cache
        def kept(rolls_left, dice):  # over 6**(5 rolls_left), and the worth over later too
            after = [(count, rolled(rolls_left - 1, tuple(sorted(dice + throw))))
                     for throw, count in rolls(5 - len(dice))]
            return tuple(6 ** len(dice) * sum(count * pair[i] for count, pair in after) for i in (0, 1))

        return kept(3, ())[1]

    return Fraction(value(frozenset(), 0), 6 ** (15 * len(boxes)))


# The brute force of four boxes takes some seconds: its two tests share it (myopic's cache),
# in one process when run side by side.
MYOPIC_FOUR_BOXES = pytest.mark.xdist_group("myopic-four-boxes")


def compiled(card, boxes):
    game = mdp.load_game("yahtzee", card=card, boxes=",".join(boxes))
    return game, mdp.compile(game)


@pytest.mark.parametrize("card, boxes, strategy, share", [
    ("yahtzee", ("ones", "twos", "chance"), "greedy", 0),
    pytest.param("no-bonus", ("fours", "fives", "sixes", "chance"), "greedy-bonus", 35,  # the bonus in reach
                 marks=[pytest.mark.slow, MYOPIC_FOUR_BOXES]),
])
@pytest.mark.slow  # half a second or more of CPU
def test_a_strategy_of_a_small_card_is_the_brute_force_exactly_and_in_floats(card, boxes, strategy, share):
    game, model = compiled(card, boxes)
    exact = mdp.evaluate(model, strategy, game=game, exact=True)
    assert exact.value == myopic(card, boxes, share)
    assert exact.summary()["strategy"] == strategy
    floats = mdp.evaluate(model, strategy, game=game)
    assert floats.value == pytest.approx(float(exact.value), rel=1e-12)
    assert exact.value < mdp.solve(model, exact=True).value  # worse than the best play


@pytest.mark.slow
@MYOPIC_FOUR_BOXES
def test_the_bonus_in_mind_plays_otherwise_than_greedy():
    # Not a figure, a difference: on the card above greedy-bonus takes other turns than greedy,
    # so that the test above tells them apart.
    boxes = ("fours", "fives", "sixes", "chance")
    game, model = compiled("no-bonus", boxes)
    assert mdp.evaluate(model, "greedy", game=game, exact=True).value != myopic("no-bonus", boxes, 35)


# Two boxes (docs/examples/two_boxes.py): greedy by hand. The last round is played as by the
# best play, nothing coming after it: 6 with EVEN left, 17/4 with FACE left. In the first, a
# final face f aims at its points alone, f in FACE if odd, 2f in EVEN if even: 1, 4, 3, 8, 5,
# 12, and a second throw at their mean, 11/2: so a first 4 and 6 are kept (in EVEN, each worth
# 2f + 17/4), and the others thrown again ("again" is the first action, so it wins a tie). A
# second throw g then goes in FACE if odd (g + 6), in EVEN if even (2g + 17/4): worth 85/8 on
# average. In all (8 + 17/4 + 12 + 17/4) / 6 + 4/6 * 85/8 = 71/6, less than the best 571/48.
GREEDY_TWO_BOXES = Fraction(71, 6)


def test_greedy_on_two_boxes_is_the_hand_derivation():
    game = mdp.load_game(EXAMPLE)
    model = mdp.compile(game)
    assert mdp.evaluate(model, "greedy", game=game, exact=True).value == GREEDY_TWO_BOXES
    assert mdp.evaluate(model, "greedy", game=game).value == pytest.approx(float(GREEDY_TWO_BOXES),
                                                                           rel=1e-15)
    assert mdp.evaluate(model, "optimal", game=game, exact=True).value == Fraction(571, 48)


def test_advice_under_a_strategy_values_each_action_and_says_which_it_takes():
    game = mdp.load_game(EXAMPLE)
    solution = mdp.evaluate(mdp.compile(game), "greedy", game=game, exact=True)
    # A first 5: greedy throws again (5 < 11/2), worth 85/8, where FACE would be worth 5 + 6
    # and EVEN 0 + 17/4, each followed by greedy play.
    advice = mdp.advise(solution, game, filled="", throws_left=1, face=5)
    rows = {row["action"]: (row["value_exact"], row["probability"]) for row in advice.actions.to_dicts()}
    assert rows == {"again": ("85/8", 1.0), "FACE": ("11", 0.0), "EVEN": ("17/4", 0.0)}


def test_the_totals_under_a_strategy_average_to_its_value():
    game = mdp.load_game(EXAMPLE)
    solution = mdp.evaluate(mdp.compile(game), "greedy", game=game, exact=True)
    frame = mdp.distribution(solution, game)
    assert sum(Fraction(p) * t for p, t in zip(frame["exact"], frame["points"])) == GREEDY_TWO_BOXES


def test_games_played_under_a_strategy_average_to_its_value():
    game = mdp.load_game(EXAMPLE)
    solution = mdp.evaluate(mdp.compile(game), "greedy", game=game)
    result = mdp.simulate(solution, game, games=40_000, seed=3)
    assert result.low < float(GREEDY_TWO_BOXES) < result.high
    # The best play scores more: its interval lies above greedy's value.
    assert mdp.simulate(mdp.solve(mdp.compile(game)), game, games=40_000, seed=3).mean > result.mean


def test_greedy_minimizing_takes_the_fewest_points_each_round():
    # tests/models.py's two boxes, one throw a round: minimizing, a first face f goes
    # where it scores less: B (0) if odd, then A's 7/2; A (f) if even, then B's 4. That is
    # (3 * 7/2 + 6 + 8 + 10) / 6 = 23/4.
    game = two_boxes()
    assert mdp.evaluate(mdp.compile(game), "greedy", game=game, exact=True, sense="min").value == \
        Fraction(23, 4)


def test_greedy_is_offered_to_every_game_of_rounds_and_to_no_game_of_one_model():
    assert list(mdp.strategies(mdp.load_game(EXAMPLE))) == ["greedy"]
    assert list(mdp.strategies(mdp.load_game("yahtzee", variant="full"))) == ["greedy", "greedy-bonus"]
    assert list(mdp.strategies(mdp.load_game("yahtzee"))) == []


def test_the_table_of_strategies_has_the_shape_of_one_model_s():
    game = mdp.load_game(EXAMPLE)
    frame = mdp.strategy_values(mdp.compile(game), game, exact=True)
    assert frame.columns == ["strategy", "value", "exact", "regret", "help"]
    assert frame["strategy"].to_list() == ["optimal", "greedy"]
    assert frame["exact"].to_list() == ["571/48", "71/6"]
    assert frame["regret"].to_list() == pytest.approx([0, float(Fraction(571, 48) - GREEDY_TWO_BOXES)])


@pytest.mark.slow
def test_greedy_scores_less_than_the_best_play_and_as_it_plays():
    # A card of three boxes with the Yahtzee bonus and the forced joker (its value is the
    # brute force's above); greedy on the whole card: tests/outputs/test_report_browser.py.
    game = mdp.load_game("yahtzee", card="yahtzee", boxes="threes,full-house,yahtzee")
    model = mdp.compile(game)
    greedy = mdp.evaluate(model, "greedy", game=game)
    assert greedy.value < mdp.solve(model).value
    played = mdp.simulate(greedy, game, games=20_000, seed=1)
    assert played.low < greedy.value < played.high


# The commands.


def run(argv, capsys):
    code = mdp.program.cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_strategies_command_prints_each_value_beside_the_best(capsys):
    code, out, err = run(["strategies", EXAMPLE, "--exact"], capsys)
    assert code in (0, None) and not err
    assert out.splitlines() == [
        "Two boxes: two rounds of up to two throws of a die, FACE and EVEN to fill",
        "optimal  11.8958333333  = 571/48  the best play",
        "greedy   11.8333333333  = 71/6  each round for its own points alone, later rounds ignored",
    ]


@pytest.mark.slow
def test_the_strategies_command_in_json_gives_the_values_of_a_small_card(capsys):
    code, out, _ = run(["strategies", "yahtzee", "--set", "card=yahtzee", "--set",
                        "boxes=ones,twos,chance", "--exact", "--json"], capsys)
    rows = json.loads(out)
    assert [row["strategy"] for row in rows] == ["optimal", "greedy", "greedy-bonus"]
    greedy = myopic("yahtzee", ("ones", "twos", "chance"), 0)
    assert rows[1]["exact"] == f"{greedy.numerator}/{greedy.denominator}"
    assert math.isclose(rows[1]["regret"], rows[0]["value"] - float(greedy), rel_tol=1e-12)


def test_solve_with_a_strategy_of_a_game_of_rounds_names_it(capsys):
    _, out, _ = run(["solve", EXAMPLE, "--strategy", "greedy", "--exact"], capsys)
    assert out.splitlines()[1:3] == ["expected total playing greedy: 11.8333333333333", "exact: 71/6"]


@pytest.mark.parametrize("argv", [
    ["solve", EXAMPLE, "--strategy", "gredy"],
    ["simulate", EXAMPLE, "--strategy", "gredy", "--games", "10"],
])
def test_a_strategy_the_game_lacks_is_refused_before_any_work(argv, capsys, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", no_work)
    code, out, err = run(argv, capsys)
    assert code == 2 and not out
    assert err == ("mdp: error: game two-boxes has no strategy 'gredy'; did you mean greedy? "
                   "(known: optimal, greedy)\n")


# What a strategy's plugin can get wrong.


def with_strategy(strategy):
    @mdp.hookimpl
    def mdp_strategies():
        return [strategy]

    return two_boxes(mdp_strategies=mdp_strategies)


def _one_float(ends):
    """Whole points as Python ints in an object array, but one 0.5."""
    aims = np.array([[int(p) for p in row] for row in np.asarray(ends.points).tolist()], dtype=object)
    aims[0, 0] = 0.5
    return aims


@pytest.mark.parametrize("aims, exact, message", [
    (lambda game, model, keys, ends: ends.points[:, :3], False,
     r"game two-boxes: strategy odd gave aims of shape \(2, 3\); expected one row per round "
     r"state and one column per end of the round: \(2, 12\)"),
    (lambda game, model, keys, ends: ends.points / 0, False,
     r"game two-boxes: strategy odd gave an aim that is not a finite number for an end allowed "
     r"there \(round state [0-9]\)"),
    (lambda game, model, keys, ends: ends.points / 2, True,
     "game two-boxes: strategy odd gave float aims; exact evaluation needs int or Fraction aims"),
    # Round 33, P33-16: ints and one float in an object array were "not all numbers".
    (lambda game, model, keys, ends: _one_float(ends), True,
     "game two-boxes: strategy odd gave the aim 0.5, a float; exact evaluation needs int or Fraction aims"),
    (lambda game, model, keys, ends: np.full(ends.next.shape, "x"), False,
     r"game two-boxes: strategy odd gave aims that are not all numbers \(int, Fraction or float\)"),
    (lambda game, model, keys, ends: 1 / 0, False,
     "game two-boxes: strategy odd raised ZeroDivisionError: division by zero"),
])
def test_aims_are_checked_where_they_enter(aims, exact, message):
    game = with_strategy(mdp.RoundsStrategy("odd", "wrong aims", aims))
    with np.errstate(all="ignore"), pytest.raises(mdp.ModelError, match=message):
        mdp.evaluate(mdp.compile(game), "odd", game=game, exact=exact)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["next", "points", "keys"]), st.integers(0, 1), st.integers(0, 11),
       st.integers(-1, 3), st.booleans())
def test_a_strategy_cannot_change_the_ends_it_aims_at(target, row, column, value, exact):
    """A strategy that writes into what it is given (``ends.next`` set to -1 forbade an end,
    and greedy's aims were then worth 41/4 on the real game rather than 71/6) is told it
    cannot: what it reads is read-only, and its aims are what the engine keeps."""

    def writing(game, model, keys, ends):
        arrays = {"next": ends.next, "points": ends.points, "keys": keys}
        array = arrays[target]
        array[(row, column % array.shape[1]) if array.ndim == 2 else row % len(array)] = value
        return np.array(ends.points, copy=True)

    game = with_strategy(mdp.RoundsStrategy("writing", "greedy, writing its ends", writing))
    with pytest.raises(mdp.ModelError, match="game two-boxes: strategy writing raised "
                       "ValueError: assignment destination is read-only"):
        mdp.evaluate(mdp.compile(game), "writing", game=game, exact=exact)
    copying = with_strategy(mdp.RoundsStrategy("copying", "greedy, writing a copy", lambda
                                               game, model, keys, ends: np.array(ends.points)))
    model = mdp.compile(copying)
    assert mdp.evaluate(model, "copying", game=copying, exact=True).value == \
        mdp.evaluate(model, "greedy", game=copying, exact=True).value


AIM_KINDS = {
    "bool": lambda points: points > 3,
    "bool objects": lambda points: np.array([[bool(v > 3) for v in row] for row in points], dtype=object),
    "past floats": lambda points: np.array([[int(v) * 10**400 for v in row] for row in points], dtype=object),
    # Before: aims times 1/10**400 were all 0 in floats, 3.0 where exact gives 9/2, silently.
    "below floats": lambda points: np.array([[Fraction(int(v), 10**400) for v in row] for row in points], dtype=object),
    "past int64": lambda points: np.array([[int(v) * 2**70 for v in row] for row in points], dtype=object),
    "fractions": lambda points: np.array([[Fraction(int(v), 3) for v in row] for row in points], dtype=object),
    "negated": lambda points: -np.asarray(points),
    "floats": lambda points: np.asarray(points, dtype=np.float64) / 2,
    "complex": lambda points: np.asarray(points) + 0j,
    "text": lambda points: np.asarray(points).astype(str),
    # Round 25: a NumPy duration among the aims, a traceback (of no unit) or its seconds.
    "duration": lambda points: np.array([[np.timedelta64(int(v), "s") for v in row] for row in points],
                                        dtype=object),
    "duration of no unit": lambda points: np.array([[np.timedelta64(int(v)) for v in row] for row in points],
                                                   dtype=object),
    "durations": lambda points: np.asarray(points).astype("timedelta64[s]"),
    # Round 36, A36P-2: long doubles are the numbers they hold, as a game's are: floats where
    # floats hold them, else exactly; past a float's range refused by what they are (a NumPy
    # warning of no words in floats, "float aims" exactly).
    "long doubles": lambda points: np.asarray(points, dtype=np.longdouble) * 3,
    "long doubles a float rounds": lambda points: np.asarray(points, dtype=np.longdouble) * 2**60 + 1,
    "long doubles past a float": lambda points: np.asarray(points, dtype=np.longdouble) * np.longdouble(2) ** 1100,
}


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("kind", sorted(AIM_KINDS))
def test_aims_of_any_kind_are_evaluated_or_refused_as_the_strategy_s(kind, exact):
    """Whatever a strategy aims with, it is evaluated, or refused in one line naming the game
    and the strategy: true/false aims were blamed on a terminal= the user never gave (exact),
    and aims past a float's range were an OverflowError traceback."""
    game = with_strategy(mdp.RoundsStrategy("odd", "aims", lambda game, model, keys, ends:
                                            AIM_KINDS[kind](ends.points)))
    model = mdp.compile(game)
    refused = {"bool", "bool objects", "complex", "text", "duration", "duration of no unit", "durations",
               "long doubles past a float"} | ({"floats", "long doubles"} if exact else {"past floats", "below floats"})
    if kind in refused:
        with np.errstate(all="ignore"), pytest.raises(mdp.ModelError, match="^game two-boxes: strategy odd gave") as error:
            mdp.evaluate(model, "odd", game=game, exact=exact)
        if kind.endswith(" floats") and not exact:
            assert str(error.value).endswith("which a float cannot hold (it would be 0 or infinite); "
                                             "evaluate exactly (--exact)"), error.value
        if kind == "long doubles past a float":
            assert str(error.value).endswith("which is past what a float holds (about 1.8e308)"), error.value
    else:  # a positive multiple of the points aims as greedy does
        value = mdp.evaluate(model, "odd", game=game, exact=exact).value
        greedy = mdp.evaluate(model, "greedy", game=game, exact=exact).value
        assert (value == greedy) == (kind != "negated")


def test_a_strategy_is_of_its_kind_of_game():
    game = with_strategy(mdp.Strategy("first", "weights", lambda game, model: [1] * model.n_actions))
    with pytest.raises(mdp.ModelError, match="game two-boxes: strategy first is an mdp.Strategy, "
                       "for a game of one model, but two-boxes is not: give an mdp.RoundsStrategy"):
        mdp.evaluate(mdp.compile(game), "first", game=game)
    aiming = mdp.RoundsStrategy("aiming", "aims", lambda game, model, keys, ends: ends.points)
    game = mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py"))
    with pytest.raises(mdp.ParamError, match="game reroll is of one model, and strategy aiming "
                       r"\(aims at the ends of rounds\) is for a game played in rounds"):
        mdp.evaluate(mdp.compile(game), aiming, game=game)


def test_a_game_of_rounds_cannot_name_a_strategy_greedy():
    game = with_strategy(mdp.RoundsStrategy("greedy", "mine", lambda game, model, keys, ends: ends.points))
    with pytest.raises(mdp.ModelError, match="game two-boxes: two strategies are named 'greedy'"):
        mdp.strategies(game)


def _counting():
    calls = iter(range(10**9))
    return lambda game, model, keys, ends: ends.points * (1 if next(calls) % 2 else -1)


IMPURE = {
    "a counter": _counting,
    "the batch's size": lambda: lambda game, model, keys, ends: ends.points * len(keys),
    "the batch's first": lambda: lambda game, model, keys, ends: ends.points + int(keys[0]) * (ends.points > 2),
    "a coin": lambda: (lambda random: lambda game, model, keys, ends: ends.points * random.choice([-1, 1]))(
        __import__("random").Random(7)),
}


@pytest.mark.parametrize("impurity", IMPURE)
@pytest.mark.parametrize("exact", [False, True])
def test_aims_that_are_not_a_pure_function_are_refused(impurity, exact):
    """Aims that change with each call, or with the round states asked beside, are refused
    as an impure round rule is (main: solve, distribution, simulate and advice each
    followed other aims, and the value disagreed with the mean)."""
    game = with_strategy(mdp.RoundsStrategy("odd", "impure aims", IMPURE[impurity]()))
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: strategy odd gave round state [0-9]+ "
                       r"other aims than it gave before.*must be a pure function"):
        solution = mdp.evaluate(mdp.compile(game), "odd", game=game, exact=exact)
        mdp.distribution(solution, game)


def test_pure_aims_that_read_the_round_state_are_accepted():
    """Aims that depend on each round state alone (here, the boxes filled) are pure: the
    value is the mean of the distribution's totals."""
    game = with_strategy(mdp.RoundsStrategy("own", "pure aims", lambda game, model, keys, ends:
                                            ends.points * (1 + keys[:, None] % 2)))
    solution = mdp.evaluate(mdp.compile(game), "own", game=game, exact=True)
    frame = mdp.distribution(solution, game)
    assert sum(Fraction(p) * t for p, t in zip(frame["exact"], frame["points"])) == solution.value


RAISING = """
import mdp

GAME = "two-boxes"

@mdp.hookimpl
def mdp_strategies():
    def aims(game, model, keys, ends):
        if set(keys.tolist()) & {bad}:
            raise KeyError("boom")
        return ends.points
    return [mdp.RoundsStrategy("boom", "greedy, but for some round states", aims)]
"""


@settings(max_examples=15, deadline=None)
@given(st.sets(st.sampled_from([0, 1, 2]), min_size=1), st.booleans())
def test_a_plugins_strategy_that_raises_is_named_with_the_plugin_and_round_states(
        tmp_path_factory, bad, exact):
    # Before: "game two-boxes: strategy worst raised KeyError: 'boom'", neither the plugin
    # that offers it nor the round states it was asked about named. Round state 0 starts;
    # 1 and 2 (a box filled) follow, asked together; 3 ends the game and is never asked.
    path = tmp_path_factory.mktemp("plugin") / "raising.py"
    path.write_text(RAISING.format(bad=bad))
    game = mdp.load_game(EXAMPLE, plugins=[str(path)])
    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(mdp.compile(game), "boom", game=game, exact=exact)
    found = re.fullmatch(rf"game two-boxes: strategy boom of plugin {re.escape(str(path))} raised "
                         r"KeyError: 'boom' \(asked about round states? ([\d, ]+)\)", str(error.value))
    assert found, error.value
    asked = {int(key) for key in found[1].split(", ")}
    assert asked in ({0}, {1, 2}) and asked & bad  # one batch, holding a round state of bad
