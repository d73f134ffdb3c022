"""--scheduler is taken by every command that compiles a game (the report too, which solves
the game, values its strategies and plays it), from the one place that adds the limits of
compiling: never a list of commands to keep up."""

import argparse
import contextlib

import pytest

from mdp.program import cli
from mdp.program.cli import _parser, main


def _commands():
    parser = _parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("name", sorted(_commands()))
def test_a_command_that_compiles_takes_the_scheduler(name):
    options = {o for a in _commands()[name]._actions for o in a.option_strings}
    assert ("--max-states" in options) == ("--scheduler" in options)
    if name in {"solve", "report", "policy", "match", "targets", "strategies", "variants"}:
        assert "--scheduler" in options


def test_the_report_works_on_the_scheduler_given(tmp_path, monkeypatch):
    asked = []

    @contextlib.contextmanager
    def on_cluster(address):
        asked.append(address)
        yield

    monkeypatch.setattr(cli, "on_cluster", on_cluster)
    out = tmp_path / "r.html"
    argv = ["report", "shutbox", "--set", "tiles=1-2", "--no-strategies", "--out", str(out)]
    assert main([*argv, "--scheduler", "tcp://127.0.0.1:8786"]) == 0
    assert asked == ["tcp://127.0.0.1:8786"] and out.exists()
