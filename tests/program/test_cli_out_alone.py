"""Every analysis with --out writes its table to the file alone, and says on standard error
how many rows it wrote, as mdp policy does: mdp distribution and mdp targets printed the
whole table on standard output too. Each command with --out that is an analysis (found in
the parser), with or without a picture."""

import argparse
from pathlib import Path

import pytest

from mdp.program.cli import _parser, main
from mdp.program.registry import commands_and_analyses

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = str(ROOT / "docs" / "examples" / "two_boxes.py")
ARGV = {  # each analysis with --out, on a small game
    "policy": [ROUNDS], "distribution": [ROUNDS], "simulate": [ROUNDS, "--games", "50"],
    "strategies": [ROUNDS], "advise": ["shutbox", "open=1 2 3 4", "roll=3"],
    "lengths": ["shutbox", "--set", "tiles=1-4"], "targets": [ROUNDS],
    "match": ["shutbox", "--set", "tiles=1-4", "--vary", "shut_pays=1,2"],
}


def _analyses_with_out():
    parser = _parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(name for name, sub in subparsers.choices.items()
                  if any("--out" in a.option_strings for a in sub._actions)
                  and hasattr(commands_and_analyses()[name], "table_of"))


def test_every_analysis_with_out_is_run_here():
    assert _analyses_with_out() == sorted(ARGV)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ARGV))
def test_the_table_goes_to_its_file_alone(name, tmp_path, capsys):
    out = tmp_path / "t.csv"
    assert main([name, *ARGV[name], "--out", str(out)]) == 0
    said = capsys.readouterr()
    rows = len(out.read_text().splitlines()) - 1
    assert said.out == ""
    assert said.err.endswith(f"{rows:,} rows written to {out}\n")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ARGV))
def test_with_json_the_rows_written_are_said_as_without(name, tmp_path, capsys):
    """With --json, standard output holds the summary alone, and standard error says the
    rows written, as without it (only the tables of --vary said it; the others, nothing)."""
    import json

    out = tmp_path / "t.csv"
    assert main([name, *ARGV[name], "--out", str(out), "--json"]) == 0
    said = capsys.readouterr()
    rows = len(out.read_text().splitlines()) - 1
    json.loads(said.out)
    assert said.err.endswith(f"{rows:,} rows written to {out}\n")
