"""Parsers of the options of mdp's analyses that several of them take (see
:class:`mdp.Param`): for text as on the command line and for Python values alike, ``None``
where the option is not given; and the check of ``--plot``, which several take."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from mdp.analysis.registry import program_arguments
from mdp.errors import ParamError
from mdp.game.params import parse_assignments
from mdp.game.parsers import LARGEST, parse_int, written_number


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
    if args.plot is not None:  # (an empty name too: refused, not taken as no picture)
        program_arguments().check_target(args.plot, "--plot")
        from mdp.outputs.plot import check_plot_path  # here: listing the commands draws nothing

        check_plot_path(args.plot)


def as_given(value: Any) -> Any:
    """One value of a repeated option, as given (``"min:open_sum"``): read where it is used."""
    return value


def column(value: Any) -> Any:
    """One value of a state's option: ``COLUMN=VALUE`` (or, from Python, the columns as a
    dict); :func:`state` takes them all together."""
    state(value)
    return dict(value) if isinstance(value, Mapping) else value


def seed(value: Any) -> int | None:
    return None if value is None else parse_int(0, grouped=True)(value)


def state(value: Any, what: str = "state", expected: str = "COLUMN=VALUE ...") -> dict[str, Any]:
    """A state by its columns: ``{"open": "1 2 3 5 8", "roll": 9}``, or ``COLUMN=VALUE``
    texts as the command line takes them (for ``what``, in words: ``state``)."""
    if isinstance(value, Mapping):
        return dict(value)
    items = [value] if isinstance(value, str) else list(value)
    if any(isinstance(item, Mapping) for item in items):  # from Python: columns, several ways
        merged: dict[str, Any] = {}
        for item in items:
            for column, cell in state(item, what, expected).items():
                if column in merged:
                    raise ParamError(f"{what}: column {column} is given twice; give each column once")
                merged[column] = cell
        return merged
    columns = [item.partition("=")[0].strip() for item in items]
    twice = next((column for column in columns if columns.count(column) > 1), None)
    if twice is not None:  # a state has one value in each column
        given = ", ".join(repr(item) for item, column in zip(items, columns) if column == twice)
        raise ParamError(f"{what}: column {twice} is given twice ({given}); give each column once")
    try:
        return parse_assignments(items)
    except ParamError:
        raise ParamError(f"{what} {' '.join(items)!r}: expected {expected}") from None


def first_total(after: Any, *, command: bool = True) -> int:
    """The first player's total that ``--after`` gives in a game of rounds, whose match is of
    two: one whole number, before any work. Named as the command line's option, or, not
    ``command``, as Python's (``after``)."""
    name = "--after" if command else "after"
    if len(after) != 1:
        raise ParamError(f"{name}: a match of a game of rounds is of 2 players, the second "
                         f"knowing the first's total; give that total once, not {len(after)} results")
    number = written_number(after[0])  # as the results of a match of one model are read
    if number is None or number.denominator != 1:
        raise ParamError(f"{name}: the first player's total is a whole number of points, not "
                         f"{after[0]!r}")
    return int(number)
