"""Games played toward a total say how many reached it (round 33, U33-07: mdp simulate
--at-least printed, and gave in its JSON as ``chance``, the solved chance alone; the share of
the games played that reached the total was nowhere). Counted here from the games' outcomes
themselves, for totals below, within and above the game's spread."""

import json
from pathlib import Path

import polars as pl
import pytest

from mdp.program.cli import main

THREE_DICE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "three_dice.py")


@pytest.mark.slow
@pytest.mark.parametrize("total", [0, 40, 60, 400])
def test_the_share_of_games_that_reached_the_total_is_said(tmp_path, capsys, total):
    argv = ["simulate", THREE_DICE, "--at-least", str(total), "--games", "3000", "--seed", "5"]
    out_file = tmp_path / "games.csv"
    assert main([*argv, "--json", "--out", str(out_file)]) == 0
    said = json.loads(capsys.readouterr().out)
    games = pl.read_csv(out_file)
    reached = games.filter(pl.col("points") >= total)["games"].sum() / 3000
    assert said["reached"] == pytest.approx(reached, abs=1e-12)
    assert said["reached_low"] <= said["reached"] <= said["reached_high"]
    assert 0 <= said["reached_low"] and said["reached_high"] <= 1
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith(f"reached in {100 * reached:.4f}% of the games played (95% confidence interval ")


def test_percentiles_of_whole_totals_are_whole_numbers_as_the_distribution_says_them(capsys):
    # Round 34, U34-02: simulate --json said 3.0 where distribution --json says 3.
    two_boxes = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
    assert main(["simulate", two_boxes, "--games", "2000", "--seed", "1", "--json"]) == 0
    simulated = json.loads(capsys.readouterr().out)["percentiles"]
    assert main(["distribution", two_boxes, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["percentiles"]
    assert all(type(v) is int for v in [*simulated.values(), *exact.values()]), (simulated, exact)
    assert simulated.keys() == exact.keys()
