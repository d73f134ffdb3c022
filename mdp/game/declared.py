"""What a plugin declares for the command line and for people, checked as it loads: a
:class:`~mdp.Param`'s default and ``show``, an analysis's options together, and every text
it declares for people (one line each)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from mdp.errors import ModelError
from mdp.game.names import named_twice, one_name
from mdp.game.params import NOT_PARAMETERS, VARY_COLUMNS, VARY_PLAYERS, Param, check_default
from mdp.game.parsers import MAKERS


def options_fault(options: Any) -> str | None:
    """What is wrong with the options of an analysis (a tuple of :class:`Param`), in words
    naming the option, or ``None``: their declaration (:func:`declaration_fault`), then each
    alone (:func:`param_fault`, its texts too)."""
    if not isinstance(options, tuple) or not all(isinstance(o, Param) for o in options):
        return None
    return declaration_fault(options) or next(
        (f"option {o.name}: {fault}" for o in options if (fault := param_fault(o, "option")) is not None),
        None)


GIVEN = ("solution", "name", "game")
"""The arguments an analysis is called with besides its options (:func:`mdp.analyse`)."""


def declaration_fault(options: Iterable[Param]) -> str | None:
    """What makes options of one command impossible to give on its command line, in words
    (naming the option), or ``None``: a positional switch; a positional option after a
    positional one with ``repeat``, which takes every value; a required positional option
    after one that may be left out, which a value given alone would skip; two options named alike
    (:func:`mdp.shown.seen`)."""
    taking: str | None = None
    optional: str | None = None  # a positional option that may be left out
    taken: dict[str, str] = {}
    for option in options:
        if option.name in GIVEN:
            return (f"option {option.name} is named as an argument the analysis is given "
                    f"({', '.join(GIVEN)}: mdp.analyse(solution, name, game, **options)); name "
                    "it otherwise")
        if one_name(option.name) in taken:
            return f"options are named {named_twice(option.name, taken[one_name(option.name)])}"
        taken[one_name(option.name)] = option.name
        if option.positional and option.default is False and not option.repeat:
            return f"option {option.name} is a switch (default False), which cannot be positional"
        if option.positional and taking is not None:
            return (f"option {option.name} is positional after option {taking}, positional with "
                    f"repeat, which takes every value: {option.name} could never be given")
        if option.positional and option.required and optional is not None:
            return (f"option {option.name} is positional and required after option {optional}, "
                    f"positional and not: a value given alone would go to {option.name}")
        if option.positional and option.repeat:
            taking = option.name
        if option.positional and not option.required:
            optional = option.name
    return None


OPTION_FIELDS = ("required", "repeat", "positional", "metavar", "shared")
"""The fields of a :class:`Param` that only an analysis's option takes (the command line's
own arguments); a game's parameter, given by ``--set``, sets none."""
_PLAIN = {f.name: f.default for f in attrs.fields(Param) if f.name in OPTION_FIELDS}


def param_fault(param: Param, kind: str = "parameter") -> str | None:
    """What is wrong with a declared :class:`Param`, in words, or ``None``: a default its own
    parser refuses, or that its ``show`` does not give as text the parser reads back; of an
    ``kind="option"`` (an analysis's), a text for people (help, metavar) not one line too; of
    a game's parameter, a name of :func:`mdp.load_game`'s own or a field of an option's
    (:data:`OPTION_FIELDS`)."""
    if kind == "option":  # a game's parameter's texts are checked as every item's
        for field, text in texts(param):
            if not isinstance(text, str) or not text.isprintable():
                return f"its {field} is {text!r}, not one line of text"
    else:  # set by --set NAME=VALUE alone, with a default
        name = one_name(param.name)
        if name in map(one_name, NOT_PARAMETERS):
            return (f"its name is one of mdp.load_game's own ({', '.join(NOT_PARAMETERS)}), "
                    "which no --set can give: name it otherwise")
        if name in map(one_name, VARY_COLUMNS) or VARY_PLAYERS.fullmatch(name):
            return (f"its name is one of the columns a table of rule sets adds beside the "
                    f"parameters varied ({', '.join(VARY_COLUMNS)}, player_1, player_1_percent, "
                    "player_1_exact ...), whose column it would take: name it otherwise")
        if odd := [f for f in OPTION_FIELDS if getattr(param, f) != _PLAIN[f]]:
            return (f"its {odd[0]} is set, which only an analysis's option takes; a game's "
                    "parameter has a default and is given once, by --set NAME=VALUE")
    if param.default is None and param.parse not in MAKERS:
        return None
    try:  # the declaring plugin's fault, whoever gives the values
        default = check_default("", param, kind)
        if param.show is not None and not param.repeat:
            param.shown(default)
    except ModelError as error:
        return str(error).removeprefix(": ").removeprefix(f"parameter {param.name}: ")
    return None


def texts(item: Any) -> Iterator[tuple[str, Any]]:
    """Each text that ``item`` declares for people (its help, a variant's rules and values, a
    metavar, a description), by the field that holds it: each is shown on a line of its own,
    where a line break or an escape code would forge or wipe what mdp writes."""
    yield "help", getattr(item, "help", "")
    for field in attrs.fields(type(item)) if attrs.has(type(item)) else ():  # by their types
        value = getattr(item, field.name)
        if field.type in ("str", "str | None") and value is not None and field.name not in ("help", "name"):
            yield field.name, value
        elif field.type == "Mapping[str, str]" and isinstance(value, Mapping):
            yield from ((f"{field.name} {key}", text) for key, text in value.items() if isinstance(text, str))


def describe_fault(described: Any) -> str | None:
    """What is wrong with an answer of mdp_describe, or ``None``: a line break would forge
    lines of mdp's output."""
    if described is not None and not isinstance(described, str):
        return f"returned {described!r:.80}, not a str"
    if described and not described.isprintable():
        return (f"returned {described!r:.80}, not one line of printable text (no line break, "
                "control character or space other than ' ')")
    return None
