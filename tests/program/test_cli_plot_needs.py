"""--plot needs matplotlib, and a command asked for a picture without it is refused before
any work, every command that takes --plot alike (found in the parser, not listed here): one
whose matplotlib is found but fails to import (a broken install) too."""

import argparse
import sys
from pathlib import Path

import pytest

from mdp.program import arguments
from mdp.program.cli import _parser, main
from mdp.program.registry import commands_and_analyses

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = str(ROOT / "docs" / "examples" / "two_boxes.py")
REQUIRED = {"games": ["--games", "20"]}  # an argument a command cannot do without, by argument


def _plotting():
    parser = _parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        if any("--plot" in a.option_strings for a in sub._actions):
            extra = [w for a in sub._actions if a.required and a.dest in REQUIRED for w in REQUIRED[a.dest]]
            rounds = getattr(commands_and_analyses()[name], "rounds", False)
            yield pytest.param([name, ROUNDS if rounds else "shutbox", *extra], id=name)


def test_the_commands_that_draw_are_found():
    assert {p.id for p in _plotting()} >= {"distribution", "simulate", "lengths", "targets"}


@pytest.mark.parametrize("argv", list(_plotting()))
def test_a_picture_without_matplotlib_is_refused_before_any_work(argv, tmp_path, monkeypatch, capsys):
    def worked(*args, **kwargs):
        raise AssertionError("the work began before --plot was checked")

    monkeypatch.setattr(arguments, "load", worked)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # found or not, it does not import
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    out, plot = tmp_path / "t.csv", tmp_path / "t.png"
    assert main([*argv, "--out", str(out), "--plot", str(plot)]) == 2
    assert capsys.readouterr().err == "mdp: error: --plot needs matplotlib: pip install matplotlib\n"
    assert list(tmp_path.iterdir()) == []

