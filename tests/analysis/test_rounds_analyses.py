"""The analyses of a game of rounds: a round state's own solution, games played at random,
advice at a position, and the refusal of the analyses that read a game of one model, on the
small game of tests/models.py, whose play is worked out here by hand."""

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from models import TWO_BOXES, two_boxes

import mdp
import mdp.outputs.prism
import mdp.program.cli
from mdp.engine.rounds.sample import sample

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "examples" / "two_boxes.py")


def by_hand():
    """The chance of each total under optimal play. In the first round a face f goes in A
    (worth f + 4, B left) or in B (worth 2f if f is even, + 7/2, A left), whichever is more;
    the second round's face f' then scores in the box left: f' in A, 2f' [f' even] in B."""
    totals = Counter()
    for f in range(1, 7):
        in_b = 2 * f * (f % 2 == 0)
        first_a = f + 4 > in_b + Fraction(7, 2)
        for g in range(1, 7):
            totals[f + 2 * g * (g % 2 == 0) if first_a else in_b + g] += Fraction(1, 36)
    return dict(totals)


def test_the_hand_worked_play_is_worth_the_hand_worked_value():
    assert sum(p * t for t, p in by_hand().items()) == TWO_BOXES


def test_a_round_state_is_the_round_solved_with_the_later_values():
    solution = mdp.solve(mdp.compile(two_boxes()))
    assert solution.at(0).value == pytest.approx(float(TWO_BOXES), rel=1e-15)
    assert [solution.at(1).value, solution.at(2).value] == pytest.approx([4, 3.5], rel=1e-15)
    # From A filled: the throw, worth 4, and a face's box B, 2f or nothing; A is not open
    # (minus infinity).
    with_a = solution.at(1).action_values().value
    assert sorted(with_a[np.isfinite(with_a)].tolist()) == [0, 0, 0, 4, 4, 8, 12]
    assert np.isneginf(with_a).sum() == 6


def test_games_played_at_random_follow_the_distribution_worked_by_hand():
    games = 72_000
    points, final = sample(mdp.solve(mdp.compile(two_boxes())), games, np.random.default_rng(5))
    assert set(final.tolist()) == {3}  # both boxes filled
    seen = Counter(points.tolist())
    for total, p in by_hand().items():
        sd = math.sqrt(p * (1 - p) / games)
        assert abs(seen.pop(total, 0) / games - p) < 5 * sd, total
    assert not seen  # no total the hand play cannot make


def test_simulate_gives_the_mean_its_interval_spread_and_percentiles():
    game = two_boxes()
    solution = mdp.solve(mdp.compile(game))
    result = mdp.simulate(solution, game, games=50_000, seed=2)
    exact = by_hand()
    mean = sum(p * t for t, p in exact.items())
    sd = math.sqrt(sum(p * (t - mean) ** 2 for t, p in exact.items()))
    assert result.low < mean < result.high
    assert result.sd == pytest.approx(sd, rel=0.02)
    assert result.outcomes.columns == ["points", "games", "frequency"]  # one final round state
    assert result.outcomes["games"].sum() == 50_000
    # The least total that at least p% of games did not pass, here as by hand.
    cumulative = np.cumsum([exact[t] for t in sorted(exact)])
    for share in (5, 25, 50, 75, 95):
        assert result.percentiles[f"{share}%"] == sorted(exact)[np.searchsorted(
            cumulative, Fraction(share, 100))], share
    again = mdp.simulate(solution, game, games=50_000, seed=2)
    assert again.summary() == result.summary()


def test_advice_names_the_round_state_and_the_state_within_it():
    game = mdp.load_game(EXAMPLE)
    solution = mdp.solve(mdp.compile(game))
    advice = mdp.advise(solution, game, filled="FACE", throws_left=1, face=4)
    # FACE filled: a 4 scores 8 in EVEN, or is thrown again (worth 4 = E[2f, f even]).
    assert advice.actions["action"].to_list() == ["EVEN", "again"]
    assert advice.actions["value"].to_list() == [8, 4]
    with pytest.raises(mdp.ParamError, match="no reachable round state has filled='EVEN FACE'"):
        mdp.advise(solution, game, filled="EVEN FACE", throws_left=1, face=4)
    with pytest.raises(mdp.ParamError, match="name a round state of two-boxes by its columns "
                       "filled"):
        mdp.advise(solution, game, throws_left=1, face=4)
    # Without the game's round columns, the key names the round state.
    keyed = mdp.advise(mdp.solve(mdp.compile(two_boxes())), two_boxes(), round_state=1,
                       state=("face", 4))
    # A filled: B alone is open, and a 4 scores 8 there (A, not allowed, is left out).
    assert keyed.actions.select("action", "value").rows() == [("B", 8.0)]


@pytest.mark.parametrize("what, call", [
    ("a policy of its actions", lambda game, solution: mdp.strategy_policy(solution.model, [1] * 30)),
    ("a PRISM model", lambda game, solution: mdp.outputs.prism.to_prism(solution.model)),
])
def test_what_reads_a_game_of_one_model_refuses_a_game_of_rounds(what, call):
    game = two_boxes()
    with pytest.raises(mdp.ParamError, match=f"game two-boxes is played in rounds, and {what} "
                       "reads a game of one model; advise gives the actions at a position of a "
                       "game of rounds, policy the value of every round state, distribution "
                       "the chance of each total, targets the best chance of reaching each, "
                       "simulate plays it, strategies values its strategies, and match plays "
                       "it against a second player who knows the total to beat"):
        call(game, mdp.solve(mdp.compile(game)))


@pytest.mark.parametrize("argv", [
    ["export", EXAMPLE, "--out", "x.prism"],
])
def test_commands_that_read_one_model_refuse_a_game_of_rounds_before_the_solve(
        argv, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)

    def no_work(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", no_work)  # the name the command line calls
    assert mdp.program.cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "game two-boxes is played in rounds" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_simulate_on_the_command_line_prints_the_spread_and_every_total(capsys):
    assert mdp.program.cli.main(["simulate", EXAMPLE, "--games", "20000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20,000 games: mean" in out and "standard deviation" in out and "percentiles: 5%" in out
    assert mdp.program.cli.main(["simulate", EXAMPLE, "--games", "2000", "--seed", "3",
                                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert sum(row["games"] for row in summary["outcomes"]) == 2000
    assert list(summary["percentiles"]) == ["5%", "25%", "50%", "75%", "95%"]


def test_the_chance_of_each_total_is_the_hand_worked_one_exactly():
    solution = mdp.solve(mdp.compile(two_boxes()), exact=True)
    frame = mdp.distribution(solution)
    assert frame.columns == ["points", "probability", "exact"]
    assert {t: Fraction(e) for t, e in zip(frame["points"], frame["exact"])} == by_hand()
    in_floats = mdp.distribution(mdp.solve(mdp.compile(two_boxes())))
    assert dict(zip(in_floats["points"], in_floats["probability"])) == pytest.approx(
        {t: float(p) for t, p in by_hand().items()}, rel=1e-15)


@pytest.mark.slow
def test_the_totals_of_a_small_yahtzee_card_average_to_its_value_exactly():
    # Two ways to the same number: the value solved backward, and the mean of the totals
    # followed forward round by round.
    solution = mdp.solve(mdp.compile(mdp.load_game("yahtzee", card="no-bonus",
                                                   boxes="ones,sixes,chance")), exact=True)
    frame = mdp.distribution(solution)
    chances = [Fraction(e) for e in frame["exact"]]
    assert sum(chances) == 1
    assert sum(t * p for t, p in zip(frame["points"], chances)) == solution.value


def test_the_command_prints_the_chance_of_each_total(capsys):
    assert mdp.program.cli.main(["distribution", EXAMPLE, "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    game = mdp.load_game(EXAMPLE)
    solved = mdp.solve(mdp.compile(game), exact=True)
    assert lines[2] == f"exact: {solved.value}"
    assert lines[4] == "  points  probability   cumulative  exact"
    frame = mdp.distribution(solved, game)  # each row's chance, exactly, last
    assert [line.split()[-1] for line in lines[5:]] == frame["exact"].to_list()
    assert lines[-1].split()[-2] == "100.0000%"
