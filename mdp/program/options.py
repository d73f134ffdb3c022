"""An analysis's options (:class:`mdp.Param`, :attr:`mdp.analysis.registry.Analysis.options`)
as the arguments of its command: each value read by the option's parser as it is typed, and
kept as text for :func:`~mdp.game.params.resolve`; the help saying the default as the
analysis gets it."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

from mdp.errors import ModelError, ParamError
from mdp.game.names import one_name
from mdp.game.params import Param, check_default, parsed, values_of
from mdp.game.parsers import Choice
from mdp.program.arguments import KEPT
from mdp.program.helptext import as_written
from mdp.shown import breaks, broken, clipped, typed


def add_options(parser: argparse.ArgumentParser, options: Iterable[Param],
                owner: str = "analysis") -> None:
    """Each of an analysis's options as the argument its :class:`mdp.Param` describes, its
    value going to the argument ``NAME``: ``--NAME VALUE`` (with ``-`` for ``_``), a switch
    ``--NAME`` when its default is ``False``, given once per value with ``repeat``, without
    a flag with ``positional``; none for a ``shared`` one, which an argument every command
    has gives. Each value is checked by the option's parser as it is read and kept as text;
    a name that clashes with another argument is the fault of the ``owner``
    (``"analysis NAME"``)."""
    for option in options:
        if option.shared:
            continue
        how: dict[str, Any] = {"help": as_written(option.help)}
        if option.default is False and not option.repeat:
            how["action"] = "store_true"
        else:
            choices = option.parse.allowed if isinstance(option.parse, Choice) else None
            how.update(type=_reader(option), choices=choices,
                       metavar=option.metavar or (None if choices else _word(option)))
            if option.repeat and not option.positional:
                how.update(action="append", default=[])
            if option.repeat and not option.positional:  # said as mdp's own say it
                values = " ".join(str(option.shown(v)) for v in _default(option, owner))
                how["help"] = as_written(f"{option.help} [repeatable{'; default: ' * bool(values)}{values}]")
            elif option.default not in (None, (), []) and not option.repeat:
                how["help"] = as_written(f"{option.help} [default: {option.shown(_default(option, owner))}]")
        given = {action.dest: (action.option_strings or [action.dest])[0] for action in parser._actions}
        given.update({name: f"{name} (mdp's own record of the command)" for name in KEPT})
        # argparse sees a clash of flags, not one of the values' names, nor names alike
        names = {one_name(name): name for name in given}
        if (other := names.get(one_name(option.name))) is not None:
            alike = "" if other == option.name else f" (read alike: {option.name} and {other})"
            raise ModelError(f"{owner}: option {option.name} clashes with the command's argument "
                             f"{given[other]}, which gives {other} already{alike}; name it otherwise")
        if option.positional:
            nargs = ("+" if option.required else "*") if option.repeat else None if option.required else "?"
            parser.add_argument(option.name, nargs=nargs, **how)
        else:
            parser.add_argument("--" + option.name.replace("_", "-"), dest=option.name,
                                required=option.required, **how)


def _word(option: Param) -> str:
    """The word for ``option``'s value where it declares none: its name in capitals where it
    is given without a flag (two such told apart), else ``VALUE``."""
    return option.name.upper() if option.positional else "VALUE"


def _default(option: Param, owner: str) -> Any:
    """``option``'s default as its parser reads it, the value the analysis gets (``"05"``
    read as 5), as ``mdp params`` shows a game's; as declared where its parser refuses it
    (said when the option is read)."""
    if option.repeat and option.default in (None, (), []):
        return ()
    try:
        return check_default(owner, option, "option")
    except ModelError:
        return values_of(option.default) if option.repeat else option.default


def _reader(option: Param) -> Callable[[str], Any]:
    """An argparse ``type`` for ``option``: the text given, checked by its parser as it is
    read and kept as given (a value of a repeated option alone), for
    :func:`~mdp.game.params.resolve` to read once, as a game's ``--set`` is; a value it
    refuses is one line naming the option, the value and what is allowed."""
    name = (option.metavar or _word(option)) if option.positional else "--" + option.name.replace("_", "-")

    def read(text: str) -> Any:
        if breaks(text):
            raise ParamError(f"{name} {typed(clipped(text))}: {broken(text)}")
        try:
            parsed(f"option {name}", option, text)
        except (ValueError, TypeError) as error:
            raise ParamError(f"{name} {text}: {error}") from None
        return text

    return read
