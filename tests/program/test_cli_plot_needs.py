"""--plot needs matplotlib, and a command asked for a picture without it is refused before
any work, every command that takes --plot alike (found in the parser, not listed here): one
whose matplotlib is found but fails to import (a broken install) too."""

import sys

import pytest
from drawing import plotting

from mdp.program import arguments
from mdp.program.cli import main


def test_the_commands_that_draw_are_found():
    assert {p.id for p in plotting()} >= {"distribution", "simulate", "lengths", "targets"}


@pytest.mark.parametrize("argv", list(plotting()))
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

