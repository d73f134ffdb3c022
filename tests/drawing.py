"""The commands that draw a picture (take ``--plot``), found in the parser rather than listed,
each with a game it can draw and the arguments it cannot do without: shared by the tests of
pictures (matplotlib missing, plain text, files written together)."""

import argparse
from pathlib import Path

import pytest

from mdp.program.cli import _parser
from mdp.program.registry import commands_and_analyses

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = str(ROOT / "docs" / "examples" / "two_boxes.py")
REQUIRED = {"games": ["--games", "20"]}  # an argument a command cannot do without, by argument


def plotting():
    """``pytest.param(argv, id=command)`` for every command that takes --plot."""
    parser = _parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        if any("--plot" in a.option_strings for a in sub._actions):
            extra = [w for a in sub._actions if a.required and a.dest in REQUIRED for w in REQUIRED[a.dest]]
            rounds = getattr(commands_and_analyses()[name], "rounds", False)
            yield pytest.param([name, ROUNDS if rounds else "shutbox", *extra], id=name)
