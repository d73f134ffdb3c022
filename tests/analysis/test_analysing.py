"""Distribution, simulation, advice and plots: published figures, exact identities, a seeded
statistical check and the policy table as references."""

import json
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
import mdp.program.cli


@pytest.fixture(scope="module")
def box():
    game = mdp.load_game("games/shutbox")
    return game, mdp.solve(mdp.compile(game), exact=True)


def test_twelve_box_reproduces_durango_bills_figures():
    """Durango Bill's 12-tile table (two dice throughout, the chance of shutting the box
    maximized): 83.355% of games end with a shut sum of at most 55, 3.83% with exactly 45.
    Tie rule: the game's first optimal move (the highest tile first)."""
    game = mdp.load_game("games/shutbox", variant="twelve-box")
    frame = mdp.distribution(mdp.solve(mdp.compile(game)), game)
    at_most_55 = frame.filter(pl.col("shut_sum") <= 55)["probability"].sum()
    exactly_45 = frame.filter(pl.col("shut_sum") == 45)["probability"].sum()
    assert f"{100 * at_most_55:.3f}" == "83.355"
    assert f"{100 * exactly_45:.2f}" == "3.83"


def test_exact_distribution_sums_to_one_and_wins_at_the_value(box):
    game, solution = box
    frame = mdp.distribution(solution, game)
    exact = [Fraction(x) for x in frame["exact"]]
    assert sum(exact) == 1
    won = frame.with_columns(e=pl.Series(exact, dtype=pl.Object)).filter(pl.col("open_sum") == 0)
    assert won["e"][0] == solution.value == Fraction(956177159, 9795520512)


def test_a_strategys_distribution_wins_at_its_value(box):
    game, solution = box
    random = mdp.evaluate(solution.model, "random", game=game, exact=True)
    frame = mdp.distribution(random, game)
    assert Fraction(frame.filter(pl.col("open_sum") == 0)["exact"][0]) == random.value
    assert sum(Fraction(x) for x in frame["exact"]) == 1


@pytest.mark.slow  # half a second or more of CPU
def test_tie_break_changes_the_distribution_not_the_value(box):
    game, solution = box
    plain = mdp.distribution(solution, game)
    lexicographic = mdp.distribution(solution, game, tie_break=["max:shut_sum"])
    assert plain["exact"][-1] == lexicographic["exact"][-1]  # the chance of shutting the box
    mean = lambda f: sum(Fraction(e) * s for e, s in zip(f["exact"], f["shut_sum"]))  # noqa: E731
    # The second objective, solved on the optimal moves, can only raise the mean shut sum.
    assert mean(lexicographic) > mean(plain)


@pytest.mark.slow
def test_simulation_agrees_with_the_exact_distribution(box):
    """Fixed seed: the exact value lies in the interval, and a chi-square test of the outcome
    frequencies against the exact chances passes at the 0.1% level."""
    game, solution = box
    random = mdp.evaluate(solution.model, "random", game=game, exact=True)
    result = mdp.simulate(random, game, games=400_000, seed=2024)
    assert result.low <= float(random.value) <= result.high
    expected = mdp.distribution(random, game)["probability"].to_numpy() * result.games
    observed = result.outcomes["games"].to_numpy()
    keep = expected >= 5  # the usual rule for the chi-square approximation
    chi2 = (((observed - expected) ** 2 / expected)[keep]).sum()
    # 99.9% point of chi-square with (keep.sum() - 1) degrees of freedom, Wilson-Hilferty.
    k = keep.sum() - 1
    bound = k * (1 - 2 / (9 * k) + 3.0902 * (2 / (9 * k)) ** 0.5) ** 3
    assert chi2 < bound
    assert observed[~keep].sum() == pytest.approx(expected[~keep].sum(), abs=50)


@pytest.mark.slow
def test_simulation_is_reproducible(box):
    game, solution = box
    one, two = (mdp.simulate(solution, game, games=50_000, seed=5) for _ in range(2))
    assert one.summary() == two.summary()
    assert one.outcomes["games"].sum() == 50_000


@pytest.mark.slow
def test_advice_ranks_as_the_policy_table_on_every_state():
    game = mdp.load_game("games/shutbox", tiles="1-5")
    solution = mdp.solve(mdp.compile(game), exact=True)
    policy = mdp.policy(solution, game)
    for (open_tiles, roll), rows in policy.group_by(["open", "roll"], maintain_order=True):
        columns = {"open": open_tiles} if roll is None else {"open": open_tiles, "roll": roll}
        advice = mdp.advise(solution, game, **columns)
        assert advice.state == {"open": open_tiles, "roll": roll}
        ranked = rows.sort("regret", maintain_order=True)
        assert advice.actions["value_exact"].to_list() == ranked["value_exact"].to_list()
        assert advice.actions["optimal"].to_list() == ranked["optimal"].to_list()
        action = "dice" if roll is None else "shut"
        assert advice.actions[action].to_list() == ranked[action].to_list()


def test_advice_on_a_missing_state_is_one_line_and_exit_2(capsys):
    assert mdp.program.cli.main(["advise", "games/shutbox", "open=1 2 3 5 8", "roll=13"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "columns open, roll" in error and "roll='13'" in error


@pytest.mark.slow
def test_cli_json_shapes(capsys):
    assert mdp.program.cli.main(["distribution", "games/shutbox", "--exact", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)["outcomes"][0]
    assert list(outcome) == ["shut_sum", "open_sum", "probability", "exact"]
    assert mdp.program.cli.main(["simulate", "games/shutbox", "--games", "1000", "--seed", "1", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == [
        "game", "variant", "params", "plugins", "rules",  # a record of what was played
        "games", "seed", "mean", "low", "high", "sd", "percentiles", "outcomes"]
    assert mdp.program.cli.main(["advise", "games/shutbox", "open=1 2 3 5 8", "roll=9", "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)
    assert list(advice)[:5] == ["game", "variant", "params", "plugins", "rules"]
    assert advice["state"] == {"open": "1 2 3 5 8", "roll": 9}
    assert [a["shut"] for a in advice["actions"]] == ["1 8", "1 3 5"]
    assert mdp.program.cli.main(["strategies", "games/shutbox", "--exact", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["strategy"] == "optimal" and rows[0]["exact"] == "956177159/9795520512"


@pytest.mark.slow
def test_plot_is_written_and_the_program_says_where(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "outcomes.png"
    assert mdp.program.cli.main(["distribution", "games/shutbox", "--plot", str(path), "--json"]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().err == f"the picture written to {path}\n"


@pytest.mark.slow  # half a second or more of CPU
def test_a_simulation_is_drawn_too_and_a_plot_file_of_another_type_is_refused_before_work(
        tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    path = tmp_path / "games.svg"
    assert mdp.program.cli.main(["simulate", "games/shutbox", "--games", "1000", "--plot",
                                 str(path), "--json"]) == 0
    assert b"share of games" in path.read_bytes()  # the axis says what the bars are
    capsys.readouterr()
    monkeypatch.setattr(mdp, "compile", lambda *a, **k: pytest.fail("compiled before the check"))
    assert mdp.program.cli.main(["simulate", "games/shutbox", "--games", "10", "--plot",
                                 str(tmp_path / "games.pdf")]) == 2
    assert capsys.readouterr().err == f"mdp: error: {tmp_path / 'games.pdf'}: a plot is written as .png or .svg\n"


def test_plot_without_matplotlib_names_the_package(tmp_path, monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert mdp.program.cli.main(["distribution", "games/shutbox", "--plot", str(tmp_path / "a.png")]) == 2
    assert "--plot needs matplotlib: pip install matplotlib" in capsys.readouterr().err


def test_a_chance_simulated_in_few_games_has_an_interval_within_0_and_1():
    # Wilson's score interval for 1 success in 10 trials, 95%: 0.0179 to 0.4042 (Wilson 1927;
    # the usual tables). The normal interval, 0.1 +- 0.196, would reach below 0.
    model = mdp.compile(mdp.load_game("shutbox"))
    result = mdp.simulate(mdp.solve(model), games=10, seed=1)
    assert result.mean == 0.1  # seed 1: one box shut in ten games
    assert (round(result.low, 4), round(result.high, 4)) == (0.0179, 0.4042)
    none = mdp.simulate(mdp.solve(model, sense="min"), games=5, seed=1)
    assert none.mean == 0.0 and none.low == 0.0 and 0 < none.high < 1


def test_a_simulation_of_many_outcomes_prints_every_one(capsys):
    # The twelve-box ends in 77 sums: all printed, one per line, as before games of rounds
    # (whose outcomes are summed up column by column past 60).
    assert mdp.program.cli.main(["simulate", "games/shutbox", "--variant", "twelve-box",
                                 "--games", "1000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "shut_sum  open_sum       games   frequency" in out and "a row per points" not in out
    assert len(out.splitlines()) == 4 + 77


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 5]), min_size=2, max_size=8), st.booleans())
def test_the_interval_of_a_value_not_a_chance_is_the_normal_one_whatever_the_games_met(ends, chance):
    # The interval is chosen by what the values mean (the objective), never by the values the
    # games happened to meet: for a value not a chance, mean +- 1.96 standard errors, not cut to
    # the least and greatest met (the true mean may lie past them), and not Wilson's where
    # every game met 0 or 1; for a chance, Wilson's where every game ends at 0 or 1.
    from mdp.analysis.simulate import Z95, counted

    values, counts = np.unique(np.array(ends, dtype=np.float64), return_counts=True)
    frame = pl.DataFrame({"value": values, "games": counts})
    if chance:
        values, counts = np.unique(np.array(ends, dtype=np.float64) > 1, return_counts=True)
        values = values.astype(np.float64)
        frame = pl.DataFrame({"value": values, "games": counts})
    found = counted(len(ends), None, values, counts, frame, chance=chance)
    games = len(ends)
    mean = float(counts @ values) / games
    sd = math.sqrt(float(counts @ (values - mean) ** 2) / (games - 1))
    if chance:
        z2n = Z95 * Z95 / games  # Wilson (1927): the score interval
        centre = (mean + z2n / 2) / (1 + z2n)
        half = Z95 / (1 + z2n) * math.sqrt(mean * (1 - mean) / games + z2n / (4 * games))
        expected = (max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half)))
    else:
        expected = (mean - Z95 * sd / math.sqrt(games), mean + Z95 * sd / math.sqrt(games))
    assert found.low == pytest.approx(expected[0], abs=1e-12)
    assert found.high == pytest.approx(expected[1], abs=1e-12)


def test_a_score_that_met_only_1_is_not_given_the_interval_of_a_chance():
    # Every game of a pub score of one tile 1 ends at 1 (the die always shows 5: tile 5 shut,
    # 1 left): the score is surely 1, so its interval is 1 to 1, not Wilson's 0.57 to 1.
    game = mdp.load_game("shutbox", tiles=[1, 5], weights=[0, 0, 0, 0, 1, 0], scoring="score")
    result = mdp.simulate(mdp.solve(mdp.compile(game)), games=5, seed=1)
    assert (result.mean, result.low, result.high) == (1.0, 1.0, 1.0)
