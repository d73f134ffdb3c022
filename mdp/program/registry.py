"""Extensions of mdp itself: output formats, commands and analyses.

They are registered through the hooks of group 5 of :mod:`mdp.game.hookspecs` on one plugin
manager for the whole program: mdp's own (:mod:`mdp.program.builtins.core`) first, the way pytest
registers its built-in plugins, then every plugin offered in the ``mdp.plugins`` entry-point
group. A plugin adds a format, a command or an analysis without touching ``mdp/``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, BinaryIO

import attrs
import pluggy

from mdp.game import hookspecs
from mdp.game.plugins import check_hook_names, import_module, register, register_plugins
from mdp.errors import MdpError, ModelError, ParamError, did_you_mean
from mdp.game.params import Param, resolve
from mdp.outputs.formats import Format

if TYPE_CHECKING:
    import argparse

    import polars as pl

    from mdp.game.load import Game
    from mdp.engine.solve import Solution

PLUGINS_ENTRY_POINTS = "mdp.plugins"
"""The entry-point group through which installed packages extend mdp."""

BUILTIN_PLUGINS = (
    "mdp.program.builtins.core",
    "mdp.program.builtins.analyses",
    "mdp.program.builtins.matches",
    "mdp.program.builtins.export",
    "mdp.program.builtins.report",
)
"""mdp's own extensions, registered by name like any plugin."""


@attrs.frozen
class Command:
    """A command of the ``mdp`` program: ``mdp NAME ...``.

    ``arguments(parser)`` adds the command's arguments to its :class:`argparse.ArgumentParser`
    (the helpers of :mod:`mdp.program.arguments` add the usual ones); ``run(args)`` does the work
    and returns the exit code (``None`` for 0). An :class:`mdp.MdpError` it raises becomes
    one line on stderr and exit code 2.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace], int | None] = attrs.field(repr=False)
    arguments: Callable[[argparse.ArgumentParser], None] | None = attrs.field(default=None, repr=False)
    description: str = ""


def _tuple(options: Iterable[Param]) -> tuple[Param, ...]:
    # A function, not the type tuple: attrs reads a converter's signature, and a built-in
    # type's is parsed from text with the tokenize module's regular expressions, compiled on
    # first use (2 ms of start-up).
    return tuple(options)


@attrs.frozen
class Analysis:
    """A table computed from a solved game: ``run(solution, game, **options)`` returns a
    Polars DataFrame.

    ``options`` are :class:`mdp.Param` s, parsed like game parameters; on the command line
    each is ``--NAME VALUE`` (with ``-`` for ``_``), or a switch ``--NAME`` when its default
    is ``False``. Every analysis is also a command: ``mdp NAME GAME [options]``, with the
    game's options and the output options of ``mdp policy``.
    """

    name: str
    help: str
    run: Callable[..., pl.DataFrame] = attrs.field(repr=False)
    options: tuple[Param, ...] = attrs.field(default=(), converter=_tuple)
    description: str = ""


@functools.cache
def plugins() -> pluggy.PluginManager:
    """The program's plugin manager, with the built-ins and the installed plugins registered."""
    manager = pluggy.PluginManager("mdp")
    manager.add_hookspecs(hookspecs)
    for name in BUILTIN_PLUGINS:
        register(manager, import_module(name), name, "mdp")
    register_plugins(manager, PLUGINS_ENTRY_POINTS)
    check_hook_names(manager, "mdp")
    return manager


def _collect(hook: str, kind: type) -> dict[str, Any]:
    what = kind.__name__.lower()
    found: dict[str, Any] = {}
    try:
        groups = getattr(plugins().hook, hook)()
    except MdpError:
        raise
    except Exception as error:
        raise ModelError(f"a plugin's {hook} raised {type(error).__name__}: {error}") from error
    for group in reversed(groups):  # built-ins first
        if not isinstance(group, (list, tuple)) or not all(isinstance(i, kind) for i in group):
            raise ModelError(f"a plugin's {hook} returned {group!r}, not a list of mdp.{kind.__name__}")
        for item in group:
            if item.name in found:
                raise MdpError(f"two plugins offer the {what} {item.name!r}")
            found[item.name] = item
    return found


def formats() -> dict[str, Format]:
    """Every output format on offer, by name, the built-ins first."""
    found = _collect("mdp_formats", Format)
    extensions: dict[str, str] = {}
    for fmt in found.values():
        for extension in fmt.extensions:
            if extension.lower() in extensions:
                raise MdpError(f"formats {extensions[extension.lower()]!r} and {fmt.name!r} "
                               f"both claim the extension {extension}")
            extensions[extension.lower()] = fmt.name
    return found


def commands() -> dict[str, Command]:
    """Every command of the ``mdp`` program on offer, by name, the built-ins first."""
    return _collect("mdp_commands", Command)


def analyses() -> dict[str, Analysis]:
    """Every analysis on offer, by name, the built-ins first."""
    return _collect("mdp_analyses", Analysis)


def analyse(name: str, solution: Solution, game: Game | None = None, **options: Any) -> pl.DataFrame:
    """Run the analysis ``name`` on a solution (``game`` gives it the game's words).

    Options are parsed by the analysis's own parameters, so text works as on the command
    line: ``mdp.analyse("policy", solution, game, optimal_only=True)``.
    """
    known = analyses()
    if name not in known:
        raise ParamError(f"unknown analysis {name!r}{did_you_mean(name, known)} "
                         f"(known: {', '.join(known)})")
    analysis = known[name]
    parsed = resolve(f"analysis {name}", analysis.options, options)
    return analysis.run(solution, game, **parsed)


def format_for(path: str | None = None, name: str | None = None) -> Format:
    """The format named ``name``, or else the one that ``path``'s extension asks for."""
    known = formats()
    if name is not None:
        if name not in known:
            raise ParamError(f"unknown format {name!r}{did_you_mean(name, known)} "
                             f"(known: {', '.join(known)})")
        return known[name]
    import os

    extension = os.path.splitext(path or "")[1].lower()
    for fmt in known.values():
        if extension in (e.lower() for e in fmt.extensions):
            return fmt
    allowed = ", ".join(e for fmt in known.values() for e in fmt.extensions)
    raise ParamError(f"{path}: unknown file type {extension or '(none)'!r} (allowed: {allowed}; "
                     "or name a format with --format)")


def write_table(frame: pl.DataFrame, path: str, format: str | None = None) -> str:
    """Write ``frame`` to ``path`` atomically, all of it or nothing at all, in the format
    ``format`` names or else the one its extension asks for. Returns the path."""
    from mdp.outputs.files import check_target, write_atomically

    fmt = format_for(path, format)
    check_target(path)
    write_atomically(path, lambda file: fmt.dump(frame, file, path))
    return path
