"""A match of a game of rounds (mdp.match, mdp/analysis/targets.py rounds_match): two players,
the better total winning one stake, each playing for money, the second knowing the first's
total. Against brute forces written here: plain recursions over the dice of small cards, in
exact rationals, the second maximizing the expected winnings for each total of the first's
(1 past it, 0 at it, -1 short: played jointly, not the chance of beating it alone), the first
maximizing minus the second's best answer to their total."""

import importlib.util
import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game
from test_rounds_reach import brute_best

import mdp
from mdp.analysis.targets import rounds_match
from mdp.engine.rounds.payoff import beating
from mdp.engine.rounds.reach import solve_reach
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "two_boxes.py"
TWO_BOXES = [[f for f in range(1, 7)], [2 * f if f % 2 == 0 else 0 for f in range(1, 7)]]


def brute_match(points, faces, throws, sense="max", over=()):
    """The first player's expected winnings, each playing for money, and the second's best
    winnings against each total of the first's (the game ending early with the boxes of
    ``over`` filled)."""
    sign = 1 if sense == "max" else -1

    @cache
    def second(total):  # the sign of the second's total less the first's, the better one
        return brute_best(points, faces, throws,
                          lambda mine: sign * ((mine > total) - (mine < total)), over)(0, 0)

    first = brute_best(points, faces, throws, lambda total: -second(total), over)(0, 0)
    return first, second


def best_mean_totals(points, faces, throws):
    """The chance of each total of the first player playing for the best mean (the first
    best action in the order again, then the boxes, as the game gives them)."""
    model = mdp.compile(card_game(points, faces, throws))
    shares = mdp.distribution(mdp.solve(model, exact=True))
    return {int(t): Fraction(p) for t, p in zip(shares["points"], shares["exact"])}


cards = st.integers(1, 3).flatmap(lambda n: st.integers(2, 3).flatmap(lambda faces: st.tuples(
    st.lists(st.lists(st.integers(-4, 9), min_size=faces, max_size=faces), min_size=n, max_size=n),
    st.just(faces), st.integers(1, 2))))


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_both_play_for_money_against_a_brute_force(card):
    points, faces, throws = card
    game = card_game(points, faces, throws)
    model = mdp.compile(game)
    expected, second = brute_match(points, faces, throws)
    result = mdp.match(model, game, exact=True)
    assert result.values == (expected, -expected)
    first_wins, second_wins, tie = result.wins
    assert first_wins + second_wins + tie == 1 and min(result.wins) >= 0
    assert second_wins - first_wins == -expected  # the winnings are the wins less the losses
    floats = mdp.match(model, game)
    assert floats.values[0] == pytest.approx(float(expected), abs=1e-12)
    # The second's winnings against each total: one sweep, every total at once.
    reach = solve_reach(model, exact=True, payoff=beating("max"))
    for total in range(-14, 30):
        assert reach.chance(total) == second(total), total


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards.filter(lambda card: len(card[0]) > 1).flatmap(lambda card: st.tuples(
    st.just(card), st.sets(st.integers(1, (1 << len(card[0])) - 2), min_size=1, max_size=3))))
def test_games_that_end_early_at_some_round_states_against_a_brute_force(case):
    # Round states side by side in one batch, some ending the game and some playing on: the
    # batch's columns were read against the rows of those playing only (an IndexError).
    (points, faces, throws), over = case
    game = card_game(points, faces, throws, over=over)
    model = mdp.compile(game)
    expected, second = brute_match(points, faces, throws, over=over)
    assert mdp.match(model, game, exact=True).values == (expected, -expected)
    assert mdp.match(model, game).values[0] == pytest.approx(float(expected), abs=1e-12)
    reach = solve_reach(model, exact=True, payoff=beating("max"))
    chances = mdp.at_least(model, exact=True)
    for total in range(-14, 30):
        assert reach.chance(total) == second(total), total
        assert chances.chance(total) == brute_best(points, faces, throws,
                                                   lambda mine: int(mine >= total), over)(0, 0)


def test_two_boxes_the_second_plays_for_money_not_for_the_chance_of_beating():
    # Player 1 playing for the best mean: player 2 playing for money wins 47771/559872 stakes
    # (a new user's exhaustive recursion, and the brute force here), where playing for the
    # chance of beating the total alone wins 27139/559872 (what mdp printed before).
    _, second = brute_match(TWO_BOXES, 6, 2)
    mean = best_mean_totals(TWO_BOXES, 6, 2)
    assert sum(p * second(t) for t, p in mean.items()) == Fraction(47771, 559872)
    game = _example()
    reach = solve_reach(mdp.compile(game), exact=True, payoff=beating("max"))
    assert sum(p * reach.chance(t) for t, p in mean.items()) == Fraction(47771, 559872)
    # Both for money: player 1 loses less than against the best mean's total.
    result = mdp.match(mdp.compile(game), game, exact=True)
    assert result.values == (Fraction(-3529, 46656), Fraction(3529, 46656))
    assert result.values[0] == brute_match(TWO_BOXES, 6, 2)[0]
    assert result.wins == (Fraction(117379, 279936), Fraction(138553, 279936), Fraction(6001, 69984))


def test_a_match_without_choices_by_hand():
    # One throw of a die of three faces, scored as it falls: each total 1, 2, 3 with 1/3,
    # for both players; a tie 1/3, and each wins the other third.
    game = card_game([[1, 2, 3]], 3, 1)
    result = mdp.match(mdp.compile(game), game, exact=True)
    assert result.wins == (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    assert result.values == (0, 0)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.fractions(-3, 3, max_denominator=4), min_size=3, max_size=3), st.booleans())
def test_points_not_whole_are_refused_naming_the_match_not_a_total(points, exact):
    # Before: "the chance of at least a total is for whole points", when a match was asked.
    game = card_game([points], 3, 1)
    model = mdp.compile(game)
    half = next((p for p in points if p.denominator != 1), None)
    if half is None:
        assert mdp.match(model, game, exact=exact).values[0] == 0  # one throw each, alike
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.match(model, game, exact=exact)
    assert str(error.value) == (f"game card: mdp_round_rule gave points {half} from round state "
                                "0; a match (who scores more) is for whole points (less than "
                                "2**49 in size)")


def _minimizing(points, faces, throws):
    game = card_game(points, faces, throws)

    @mdp.hookimpl
    def mdp_objective():
        return mdp.Objective("expected total", "min")

    game.plugins.register(type("Least", (), {"mdp_objective": staticmethod(mdp_objective)}))
    return game


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards)
def test_a_game_that_minimizes_its_total_is_won_by_the_lower(card):
    points, faces, throws = card
    game = _minimizing(points, faces, throws)
    assert game.objective.sense == "min"
    expected, _ = brute_match(points, faces, throws, "min")
    result = mdp.match(mdp.compile(game), game, exact=True)
    assert result.values == (expected, -expected)
    first_wins, second_wins, _ = result.wins
    assert second_wins - first_wins == -expected


def test_a_match_of_a_game_of_rounds_on_the_command_line(capsys):
    assert main(["match", str(EXAMPLE), "--exact", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    wins = [Fraction(p["wins_exact"]) for p in summary["players"]]
    assert sum(wins) + Fraction(summary["ties_exact"]) == 1
    assert [Fraction(p["exact"]) for p in summary["players"]] == [Fraction(-3529, 46656),
                                                                  Fraction(3529, 46656)]
    assert main(["match", str(EXAMPLE)]) == 0
    assert "both play for money, player 2 knowing player 1's total; the higher total wins" \
        in capsys.readouterr().out
    assert main(["match", str(EXAMPLE), "--players", "3"]) == 2
    assert "a match of a game of rounds is of 2 players, not 3" in capsys.readouterr().err


def _example():
    spec = importlib.util.spec_from_file_location("two_boxes_match", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return mdp.load_game(module)


def test_the_payoff_of_the_points_still_needed_is_a_step_function():
    payoff = beating("max")
    assert payoff.of(np.array([-5, -1, 0, 1, 9]), True).tolist() == [1, 1, 0, -1, -1]
    assert beating("min").of(np.array([-5, 0, 9]), False).tolist() == [-1.0, 0.0, 1.0]


@pytest.mark.slow
def test_a_table_of_matches_of_a_game_of_rounds():
    # Each row is the match of its rule set (a game of rounds has no match-only parameters).
    table = mdp.match_table("yahtzee", {"boxes": ["ones", "twos"]}, params={"card": "yahtzee"},
                            exact=True)
    for row in table.iter_rows(named=True):
        game = mdp.load_game("yahtzee", card="yahtzee", boxes=row["boxes"])
        assert Fraction(row["player_1_exact"]) == mdp.match(mdp.compile(game), game, exact=True).values[0]


MIN_BOXES = '''
import mdp
from two_boxes import *  # noqa: F403

GAME_NAME = "min-boxes"


@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("expected total", "min")
'''


@pytest.mark.parametrize("argv, said", [
    (["solve", "MIN", "--at-least", "14"], "game min-boxes plays for the least total (its "
     "objective minimizes), and --at-least plays for at least a total"),
    (["targets", "MIN"], "and mdp targets plays for at least a total"),
    (["distribution", "MIN", "--at-least", "3"], "and --at-least plays for at least a total"),
    (["simulate", "MIN", "--at-least", "3", "--games", "10"], "and --at-least plays for at least a total"),
    (["advise", "MIN", "filled=", "throws_left=1", "face=4", "--at-least", "3"],
     "and --at-least plays for at least a total"),
    (["distribution", "shutbox", "--at-least", "3"],
     "game shutbox is of one model, and --at-least is for a game played in rounds"),
    # --after advises the second of a match of a game of rounds (test_advise_after_rounds.py):
    # of two players, after the first's total alone.
    (["advise", str(EXAMPLE), "filled=", "throws_left=1", "face=4", "--after", "13", "--after", "2"],
     "--after: a match of a game of rounds is of 2 players, the second knowing the first's total"),
])
def test_play_for_at_least_a_total_is_refused_where_it_means_nothing(argv, said, tmp_path, capsys,
                                                                     monkeypatch):
    (tmp_path / "two_boxes.py").write_text(EXAMPLE.read_text())
    (tmp_path / "min_boxes.py").write_text(MIN_BOXES)
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = [str(tmp_path / "min_boxes.py") if a == "MIN" else a for a in argv]

    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    try:
        code = main(argv)
    except SystemExit as ended:
        code = ended.code
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err


def test_at_least_in_python_refuses_a_game_that_minimizes():
    game = _minimizing([[1, 2]], 2, 1)
    with pytest.raises(mdp.ParamError, match="^game card plays for the least total"):
        mdp.at_least(mdp.compile(game))


def test_a_match_past_its_limits_is_refused_before_any_work(monkeypatch):
    game = _example()
    model = mdp.compile(game)

    def solve_reach(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr("mdp.engine.rounds.reach.solve_reach", solve_reach)
    monkeypatch.setattr("mdp.analysis.targets.solve_reach", solve_reach)
    monkeypatch.setattr("mdp.engine.rounds.reach.MOST_EXACT_COLUMNS", 10)
    with pytest.raises(mdp.TooLarge, match="too many in exact numbers \\(at most 10\\)"):
        mdp.match(model, game, exact=True)
    # Two boxes, 1, 2 and 1 round states by rounds, each round's points 0 to 12. The
    # second's vectors bounded as wide as the points of the rounds after can spread, plus 1
    # (their payoff's steps): 25, 13 and 1, 52 numbers; the first's, toward one target, as
    # wide as the points before can spread, plus 1: 1, 13 and 25, 52 too; and two rounds'
    # of the chance of winning beside them, 25 + 2 * 13 = 51 (2 * 13 + 25 for the first):
    # 8 * (52 + 51) = 824 bytes.
    rounds = model.of_rounds("a match")
    with pytest.raises(mdp.TooLarge, match=r"^game two-boxes: a match may take up to 824 bytes "
                       r"for its vectors over the totals, past the budget of 823 bytes; raise it "
                       r"with --max-memory"):
        rounds_match(rounds, max_memory=823)
    with pytest.raises(AssertionError, match="solved before the refusal"):  # not refused
        rounds_match(rounds, max_memory=824)
    with pytest.raises(mdp.TooLarge, match="past the budget of 823 bytes"):
        mdp.match(model, game, max_memory=823)


def test_the_memory_budget_of_the_command_line_reaches_the_match(capsys, monkeypatch):
    # Two boxes compile within 1 MB; the budget given is the one the match is checked against.
    given = []

    def check_match(model, *, exact=False, max_memory="default"):
        given.append(max_memory)
        raise mdp.TooLarge("refused here")

    monkeypatch.setattr("mdp.analysis.targets.check_match", check_match)
    assert main(["match", str(EXAMPLE), "--max-memory", "1M"]) == 3
    assert given == [1_000_000] and "refused here" in capsys.readouterr().err
