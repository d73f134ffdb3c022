"""Parsers of the options of mdp's analyses that several of them take (see
:class:`mdp.Param`): for text as on the command line and for Python values alike, ``None``
where the option is not given; and the check of ``--plot``, which several take."""

from __future__ import annotations

import argparse
from typing import Any

from mdp.analysis.registry import program_arguments
from mdp.game.params import LARGEST, parse_int


def size(value: Any) -> int | None:
    """A number of bytes, 1 or more."""
    return None if value is None else parse_int(1)(value)


def text(value: Any) -> str | None:
    """A text: a file's path, a strategy's name."""
    return None if value is None else str(value)


def total(value: Any) -> int | None:
    """A total of points: a whole number, less than 0 too (a game's totals may be)."""
    return None if value is None else points(value)


def points(value: Any) -> int:
    """Points earned so far: a whole number, less than 0 too (a game's points may be)."""
    return parse_int(-LARGEST, grouped=True)(value)


def check_plot(args: argparse.Namespace) -> None:
    """The picture's file (``--plot``), checked before any work: its type, and that it can
    be written."""
    if args.plot:
        from mdp.outputs.plot import check_plot_path  # here: listing the commands draws nothing

        check_plot_path(args.plot)
        program_arguments().check_target(args.plot, "--plot")
