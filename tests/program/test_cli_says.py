"""What the command line says beside its answers: which way the value was played (the value
line's "(minimized)" and "(maximized)") and where a table went (``--out``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOX = [str(ROOT / "games" / "shutbox"), "--set", "tiles=1-4"]
TWO_BOXES = [str(ROOT / "docs" / "examples" / "two_boxes.py")]
LEAST = ("import mdp\n\n\n@mdp.hookimpl\ndef mdp_objective():\n"
         "    return mdp.Objective('expected total', 'min')\n")


def _value_line(capsys, *args) -> str:
    assert main(["solve", *args]) in (0, None)
    return capsys.readouterr().out.splitlines()[1]


@pytest.fixture(scope="module")
def least_total(tmp_path_factory):
    """Two boxes with the least total as its aim: a game of rounds that minimizes."""
    plugin = tmp_path_factory.mktemp("least") / "least_total.py"
    plugin.write_text(LEAST)
    return ["-p", str(plugin)]


# Every way to play, on a game that maximizes and one that minimizes, of one model and of
# rounds: the note says "minimized" exactly where the play minimized, and "maximized" where it
# maximized a game that minimizes. A strategy of one model takes its actions by weights, which
# no sense steers: no note (and a sense given with it is refused). A strategy of a game of rounds plays each round toward its aims,
# the way the sense says.
CASES = [
    # (game, options, the way the play went: None where no way)
    (BOX, [], "max"), (BOX, ["--maximize"], "max"), (BOX, ["--minimize"], "min"),
    (BOX, ["--strategy", "optimal", "--minimize"], "min"),
    (BOX, ["--strategy", "random"], None),  # with --minimize: refused (test_cli_one_meaning.py)
    (BOX + ["--set", "scoring=score"], [], "min"),
    (BOX + ["--set", "scoring=score"], ["--maximize"], "max"),
    (BOX + ["--set", "scoring=score"], ["--strategy", "random"], None),
    (TWO_BOXES, [], "max"), (TWO_BOXES, ["--minimize"], "min"),
    (TWO_BOXES, ["--strategy", "greedy"], "max"), (TWO_BOXES, ["--strategy", "greedy", "--minimize"], "min"),
    ("least", [], "min"), ("least", ["--maximize"], "max"), ("least", ["--strategy", "greedy"], "min"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "way"), CASES)
def test_the_value_line_says_minimized_only_where_the_play_minimized(capsys, least_total, game, options, way):
    args = TWO_BOXES + least_total if game == "least" else game
    line = _value_line(capsys, *args, *options)
    aim = "min" if game == "least" or "scoring=score" in game else "max"
    assert ("(minimized)" in line) == (way == "min")
    assert ("(maximized)" in line) == (way == "max" and aim == "min")


@pytest.mark.slow
@pytest.mark.parametrize("command", [["distribution"], ["simulate", "--games", "100", "--seed", "1"]])
@pytest.mark.parametrize("game", [BOX, TWO_BOXES], ids=["one-model", "rounds"])
def test_out_says_what_was_written_where_as_mdp_policy_does(capsys, tmp_path, command, game):
    policy = tmp_path / "policy.csv"
    assert main(["policy", *BOX, "--out", str(policy)]) in (0, None)
    said = capsys.readouterr()
    assert said.out == "" and said.err == f"{pl.read_csv(policy).height:,} rows written to {policy}\n"
    table = tmp_path / "table.csv"
    assert main([*command[:1], *game, *command[1:], "--out", str(table)]) in (0, None)
    said = capsys.readouterr()
    assert said.err == f"{pl.read_csv(table).height:,} rows written to {table}\n"
    assert said.out == ""  # the table goes to its file alone (tests/program/test_cli_out_alone.py)
