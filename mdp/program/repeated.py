"""An option said twice: a single-valued option of the ``mdp`` program (``--out``, ``--seed``,
``--variant``, a plugin's analysis option, ...) given twice with two values is refused in one
line, never taken as the last said. One check for every command, whoever built its parser
(:func:`said_once`, applied to the whole parser once it is built)."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from typing import Any

from mdp.checks import shown
from mdp.errors import ParamError


class _Typed:
    """An option's ``type``, remembering the text it was given: an option said twice is
    quoted as it was typed, not as what its type made of it (a dict's repr)."""

    def __init__(self, convert: Any) -> None:
        self.convert, self.texts = convert, list[str]()
        self.__name__ = getattr(convert, "__name__", repr(convert))  # argparse's errors name it

    def __call__(self, text: str) -> Any:
        self.texts.append(text)
        return self.convert(text)


class _Once(argparse._StoreAction):
    """argparse's ``store``, refusing a second value other than the first."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        said: dict[str, tuple[str | None, Any, str]] = namespace.__dict__.setdefault("_said_once", {})
        typed = self.type.texts if isinstance(self.type, _Typed) else []
        if isinstance(values, str) and not typed:
            typed.append(values)  # no type: the value is the text typed
        text = " ".join(map(shlex.quote, typed)) if typed else shown(values)
        typed.clear()
        if self.dest in said and said[self.dest][1] != values:
            first, before, said_as = said[self.dest]
            raise ParamError(f"{option_string} is given twice ({first} {said_as} and "
                             f"{option_string} {text}): give it once")
        said[self.dest] = (option_string, values, text)
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
            if callable(action.type) and not isinstance(action.type, _Typed):
                action.type = _Typed(action.type)
    return parser
