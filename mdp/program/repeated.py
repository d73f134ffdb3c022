"""An option said twice: a single-valued option of the ``mdp`` program (``--out``, ``--seed``,
``--variant``, a plugin's analysis option, ...) given twice with two values is refused in one
line, never taken as the last said. One check for every command, whoever built its parser
(:func:`said_once`, applied to the whole parser once it is built)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from mdp.checks import shown
from mdp.errors import ParamError


class _Once(argparse._StoreAction):
    """argparse's ``store``, refusing a second value other than the first."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        said: dict[str, tuple[str | None, Any]] = namespace.__dict__.setdefault("_said_once", {})
        if self.dest in said and said[self.dest][1] != values:
            first, before = said[self.dest]
            raise ParamError(f"{option_string} is given twice ({first} {shown(before)} and "
                             f"{option_string} {shown(values)}): give it once")
        said[self.dest] = (option_string, values)
        super().__call__(parser, namespace, values, option_string)


def said_once(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make every single-valued option of ``parser`` and of its commands' parsers refuse a
    second, different value; returns the parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                said_once(sub)
        elif type(action) is argparse._StoreAction and action.option_strings:
            action.__class__ = _Once
    return parser
