"""The program's plugins: output formats, commands, analyses and model exports.

They are registered through the hooks of :mod:`mdp.hookspecs.program` on one plugin manager
for the whole program: mdp's own (:mod:`mdp.program.builtins`) first, the way pytest
registers its built-in plugins, then every plugin offered in the ``mdp.plugins`` entry-point
group. A plugin adds a format, a command, an analysis or an export without touching ``mdp/``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import attrs

import mdp
from mdp.checks import NAME, OPTIONAL_GAME, OPTIONAL_NAME, PATH, SOLVED_OR_MODEL, TABLE, arguments
from mdp.errors import MdpError, ParamError, did_you_mean
from mdp.game.load import load_plugin
from mdp.game.params import Param, resolve
from mdp.game.plugins import (
    PLUGINS_ENTRY_POINTS,
    Plugins,
    by_name,
    check_hook_names,
    collect,
    hook_names,
    import_module,
    register,
    register_plugins,
)
from mdp.hookspecs import PROJECT
from mdp.hookspecs import program as program_hooks
from mdp.outputs.files import check_target, write_atomically

if TYPE_CHECKING:
    import argparse

    import polars as pl

    from mdp.analysis.pieces import Pieces
    from mdp.engine.model import CompiledModel
    from mdp.engine.solution import Solution
    from mdp.game.load import Game
    from mdp.outputs.exports import Export
    from mdp.outputs.formats import Format

BUILTIN_PLUGINS = (
    "mdp.program.builtins.core",
    "mdp.program.builtins.analyses",
    "mdp.program.builtins.matches",
    "mdp.program.builtins.export",
    "mdp.program.builtins.report",
    "mdp.program.builtins.completion",
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
    # first use, at start-up.
    return tuple(options)


@attrs.frozen
class Analysis:
    """A table computed from a game: one call in Python (:func:`mdp.analyse`) and one command
    of the ``mdp`` program (``mdp NAME GAME``), both through :meth:`answer`.

    ``run(solution, game, **options)`` computes the answer: a Polars DataFrame (or
    :class:`mdp.Pieces`, a table too large to hold, made as it is written), or an object
    that holds one, which ``table(answer)`` takes out (a :class:`mdp.Simulation`'s
    outcomes). ``options`` are :class:`mdp.Param` s, parsed like game parameters, so text
    works as on the command line. An analysis with ``needs="model"`` solves what it needs
    itself (``strategies`` evaluates each strategy, ``match`` solves for money): it is given
    the compiled model and the settings of a solve instead of a solution,
    ``run(model, game, *, exact, sense, progress, **options)``.

    The command solves the game (with ``needs="model"``, compiles it), runs the analysis and
    writes its answer. Its arguments are the game's (:func:`mdp.program.arguments.add_game_arguments`),
    ``--out`` and ``--format``, each option as ``--NAME VALUE`` (a switch ``--NAME`` when its
    default is ``False``) and ``--json``, unless ``arguments(parser)`` adds the command's
    own; each option takes the value of the argument of its name. Then:

    - ``check(args)``, if given, refuses before any work what the arguments cannot mean;
    - the table goes to ``--out FILE``, or to standard output with ``--format NAME``;
    - ``--json`` prints ``summary(answer, solved)`` on standard output (by default the
      solution's :meth:`~mdp.Solution.summary` with the table's ``rows``, ``columns`` and
      ``out``);
    - otherwise, unless the table went to standard output, ``show(answer, solved, game)``
      prints the answer for people (``solved`` is what ``run`` was given). An analysis
      without ``show`` prints its table instead, as CSV, and ``--json`` its summary alone;
    - with ``vary``, the command also takes ``--vary KEY=V1,V2`` (repeatable) and then
      writes ``vary(game, values, variant=, params=, exact=, max_states=, progress=,
      **options)``, a table over rule sets (:func:`mdp.match_table`), instead of the answer;
      ``--out`` and ``--format`` write only that table.
    """

    name: str
    help: str
    run: Callable[..., Any] = attrs.field(repr=False)
    options: tuple[Param, ...] = attrs.field(default=(), converter=_tuple)
    description: str = ""
    needs: Literal["solution", "model"] = attrs.field(
        default="solution", validator=attrs.validators.in_(("solution", "model")))
    table: Callable[[Any], pl.DataFrame] | None = attrs.field(default=None, repr=False)
    arguments: Callable[[argparse.ArgumentParser], None] | None = attrs.field(default=None, repr=False)
    check: Callable[[argparse.Namespace], None] | None = attrs.field(default=None, repr=False)
    summary: Callable[[Any, Any], Any] | None = attrs.field(default=None, repr=False)
    show: Callable[[Any, Any, Game], None] | None = attrs.field(default=None, repr=False)
    vary: Callable[..., pl.DataFrame] | None = attrs.field(default=None, repr=False)
    rounds: bool = False
    """Whether it answers for a game played in rounds too (``advise``, ``simulate``,
    ``distribution``); the others refuse one, before any work."""
    check_model: Callable[[Any, argparse.Namespace], None] | None = attrs.field(default=None, repr=False)
    """``check_model(model, args)`` refuses, once the game is compiled and before it is
    solved, what the analysis cannot answer for (a game of rounds too large to follow, say)."""
    progress: bool = False
    """Whether ``run`` of a solution takes ``progress=`` too: a callable given a line at each
    step of long work, which the command shows on a terminal (``run`` of a model always
    does)."""

    def answer(self, solved: Solution | CompiledModel, game: Game | None,
               options: Mapping[str, Any], *, exact: bool = False, sense: str | None = None,
               progress: Callable[[str], None] | None = None) -> Any:
        """Run the analysis on ``solved``, with ``options`` parsed by its own parameters.

        ``solved`` is a solution; for an analysis that ``needs="model"``, a solution (its
        model is then solved as the solution was: exact or not, and for the same aim) or a
        compiled model, solved as ``exact`` and ``sense`` say.
        """
        parsed = resolve(f"analysis {self.name}", self.options, options)
        if not self.rounds:
            from mdp.engine.rounds import one_model  # here: listing the analyses needs no NumPy

            one_model(f"analysis {self.name}", solved)
        is_solution = hasattr(solved, "model")
        if self.needs == "solution":
            if not is_solution:
                raise ParamError(f"analysis {self.name} takes a solution (mdp.solve(model)), "
                                 f"not {type(solved).__name__}")
            return self.run(solved, game, **parsed, **({"progress": progress} if self.progress else {}))
        if is_solution:
            solved, exact, sense = solved.model, solved.exact, solved.sense
        return self.run(solved, game, exact=exact, sense=sense, progress=progress, **parsed)

    def table_of(self, answer: Any) -> pl.DataFrame:
        """The table an answer holds (the answer itself, without ``table``)."""
        return answer if self.table is None else self.table(answer)


@functools.cache
def plugins() -> Plugins:
    """The program's plugin manager, with the built-ins and the installed plugins registered."""
    manager = Plugins(PROJECT)
    manager.add_hookspecs(program_hooks)  # the program's hooks only: see check_hook_names
    for name in BUILTIN_PLUGINS:
        register(manager, import_module(name), name, "mdp")
    register_plugins(manager, PLUGINS_ENTRY_POINTS)
    check_hook_names(manager, "mdp")
    return manager


_GIVEN: list[str] = []  # the names of the program's plugins given by hand, while registered


def add_given(specs: Iterable[str]) -> list[str]:
    """Load the plugins given by hand (``mdp -p FILE``, each as
    :func:`mdp.game.load.load_plugin` takes it): register with the program those whose hooks
    are all the program's, and return the others, rule plugins of a game, for the game the
    command loads. :func:`drop_given` unregisters them again."""
    program = {name for name in dir(program_hooks) if name.startswith("mdp_")}
    rules = []
    for spec in specs:
        name, plugin = load_plugin(spec)
        if set(hook_names(plugin)) <= program:
            register(plugins(), plugin, name, "mdp")
            _GIVEN.append(name)
        else:
            rules.append(spec)
    return rules


def drop_given() -> None:
    """Unregister the plugins :func:`add_given` registered: the program's plugins are what
    is installed again."""
    while _GIVEN:
        plugins().unregister(name=_GIVEN.pop())


def offered_by(name: str) -> tuple[str, str] | None:
    """The plugin, not one of mdp's own, that offers the command or analysis ``name``, and
    which it is (``"command"``, ``"analysis"``): when it breaks, the plugin is to blame, where
    a fault of mdp's own is a bug. ``None`` for mdp's own."""
    manager = plugins()
    for hook, kind in (("mdp_commands", "command"), ("mdp_analyses", "analysis")):
        for impl in getattr(manager.hook, hook).get_hookimpls():
            if impl.plugin_name not in BUILTIN_PLUGINS and \
                    any(getattr(item, "name", None) == name for item in impl.function() or ()):
                return impl.plugin_name, kind
    return None


def _offered(hook: str, kind: type) -> dict[str, Any]:
    """What the plugins offer through ``hook``, by name, the built-ins first; a name offered
    twice is an error."""
    what = kind.__name__.lower()
    return by_name(collect(plugins(), hook, kind, "a plugin of mdp"),
                   lambda name: MdpError(f"two plugins offer the {what} {name!r}"))


def formats() -> dict[str, Format]:
    """Every output format on offer, by name, the built-ins first."""
    found = _offered("mdp_formats", mdp.Format)
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
    return _offered("mdp_commands", Command)


def analyses() -> dict[str, Analysis]:
    """Every analysis on offer, by name, the built-ins first."""
    return _offered("mdp_analyses", Analysis)


def exports() -> dict[str, Export]:
    """Every model export on offer (``mdp export --format NAME``), by name, the built-ins
    first."""
    return _offered("mdp_exports", mdp.Export)


def analyse(name: str, solution: Solution | CompiledModel, game: Game | None = None,
            **options: Any) -> pl.DataFrame:
    """Run the analysis ``name`` on a solution (``game`` gives it the game's words) and
    return its table.

    Options are parsed by the analysis's own parameters, so text works as on the command
    line: ``mdp.analyse("policy", solution, game, optimal_only=True)``,
    ``mdp.analyse("simulate", solution, game, games=1000, seed=1)``. An analysis that solves
    what it needs itself (``strategies``, ``match``) takes the compiled model as well.
    """
    arguments("analyse", name=(name, NAME), solution=(solution, SOLVED_OR_MODEL), game=(game, OPTIONAL_GAME))
    known = analyses()
    if name not in known:
        raise ParamError(f"unknown analysis {name!r}{did_you_mean(name, known)} "
                         f"(known: {', '.join(known)})")
    analysis = known[name]
    table = analysis.table_of(analysis.answer(solution, game, options))
    return table.frame() if isinstance(table, mdp.Pieces) else table


def format_for(path: str | None = None, name: str | None = None) -> Format:
    """The format named ``name``, or else the one that ``path``'s extension asks for."""
    known = formats()
    if name is not None:
        if name not in known:
            raise ParamError(f"unknown format {name!r}{did_you_mean(name, known)} "
                             f"(known: {', '.join(known)})")
        return known[name]
    extension = os.path.splitext(path or "")[1].lower()
    for fmt in known.values():
        if extension in (e.lower() for e in fmt.extensions):
            return fmt
    allowed = ", ".join(e for fmt in known.values() for e in fmt.extensions)
    raise ParamError(f"{path}: unknown file type {extension or '(none)'!r} (allowed: {allowed}; "
                     "or name a format with --format)")


def write_table(frame: pl.DataFrame | Pieces, path: str, format: str | None = None) -> str:
    """Write ``frame`` (a DataFrame, or :class:`mdp.Pieces`, written a piece at a time) to
    ``path`` atomically, all of it or nothing at all, in the format ``format`` names or else
    the one its extension asks for. Returns the path."""
    arguments("write_table", frame=(frame, TABLE), path=(path, PATH), format=(format, OPTIONAL_NAME))
    fmt = format_for(path, format)
    check_target(path)
    write_atomically(path, lambda file: fmt.dump(frame, file, path))
    return path
