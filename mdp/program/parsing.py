"""The command line parsed: what a command does not take is said as its command's parser
says it, with the option it may have meant; a word that is not UTF-8 (a byte that Python
hands on as a lone surrogate: ``$'\\xff'``, a Latin-1 terminal's ``é``) is refused, but in a
file's name, which keeps its bytes."""

from __future__ import annotations

import argparse
import os
import shlex

from mdp.errors import ParamError, did_you_mean
from mdp.shown import broken, utf8

PATHS = ("game", "plugin")
"""The arguments that name files (as do those of metavar ``FILE``): their bytes are theirs."""


def parsed(parser: argparse.ArgumentParser, given: list[str]) -> argparse.Namespace:
    """The arguments parsed; one the command does not take is its command's mistake, said
    as its parser says it (``mdp solve: error: ...``), not the program's."""
    args = _parsed(parser, given)
    for action in {a.dest: a for p in _parsers(parser) for a in p._actions}.values():
        value = getattr(args, action.dest, None)
        if action.dest in PATHS or action.metavar == "FILE" or value is None:
            continue
        for text in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(text, str) and not utf8(text):
                raise ParamError(f"{action.option_strings[0] if action.option_strings else action.dest} "
                                 f"{_typed(text)}: {broken(text)}")
    return args


def _typed(text: str) -> str:
    """``text`` as it was typed: its bytes, those no letter shown as ``\\xff``."""
    return repr(os.fsencode(text))[2:-1]


def _parsed(parser: argparse.ArgumentParser, given: list[str]) -> argparse.Namespace:
    args, unknown = parser.parse_known_args(_values_joined(parser, given))
    if unknown:
        command = getattr(args, "command", None)
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        said = subparsers.choices.get(command.name) if command is not None else None
        # argparse gives the positionals that may be left out (nargs "?" or "*") nothing at
        # the first option after the game: the values after the options are theirs, in order.
        rests = [a for a in said._actions if not a.option_strings and a.nargs in ("?", "*")
                 and getattr(args, a.dest) in (None, [])] if said is not None else []
        if rests and not any(u.startswith("-") for u in unknown):
            words = list(unknown)
            for rest in rests:
                taken, words = (words[:1], words[1:]) if rest.nargs == "?" else (words, [])
                values = [rest.type(u) if rest.type else u for u in taken]
                if values:
                    setattr(args, rest.dest, values[0] if rest.nargs == "?" else values)
            if not words:
                return args
            unknown = words
        if rests:  # the words that are no option are those positionals': not named
            unknown = [u for u in unknown if u.startswith("-")] or unknown
        (said or parser).error(f"unrecognized arguments: {shlex.join(unknown)}"
                               f"{nearest(said or parser, unknown[0])}")
    return args


def nearest(parser: argparse.ArgumentParser, given: str) -> str:
    """``; did you mean --X?`` for an option misspelt."""
    if not given.startswith("-"):
        return ""
    return did_you_mean(given.partition("=")[0], parser._option_string_actions)


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and its commands' parsers."""
    return [parser, *(p for a in parser._actions if isinstance(a, argparse._SubParsersAction)
                      for p in a.choices.values())]


def _values_joined(parser: argparse.ArgumentParser, given: list[str]) -> list[str]:
    """``given``, with a value that starts with one ``-`` and is no option (``--max-memory
    -1G``) joined to the option that takes it (``--max-memory=-1G``): taken as the value,
    then refused for what it is by its option's type, not left as "expected one argument"
    (argparse takes only what looks like a negative number so). A word of two dashes is an
    option still, known or misspelt."""
    actions = {flag: a for p in _parsers(parser) for a in p._actions for flag in a.option_strings}
    short = [flag for flag in actions if len(flag) == 2]  # -p, and -pVALUE
    joined: list[str] = []
    for word in given:
        action = actions.get(joined[-1]) if joined else None
        if action is not None and action.nargs is None and word[:1] == "-" and \
                word[1:2] not in ("", "-") and word not in actions and \
                not any(word.startswith(flag) for flag in short) and "--" not in joined:
            joined[-1] = f"{joined[-1]}={word}"
        else:
            joined.append(word)
    return joined


def takes(parser: argparse.ArgumentParser, args: argparse.Namespace, flag: str) -> bool:
    """Whether the command parsed into ``args`` takes the option ``flag`` (``--exact``)."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return flag in subparsers.choices[args.command.name]._option_string_actions

