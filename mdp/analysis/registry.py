"""The plugins of mdp beyond a game's: output formats, analyses and model exports, and the
commands of the ``mdp`` program.

They are registered through the hooks of :mod:`mdp.hookspecs.program` on one plugin manager
(:func:`plugins`): mdp's own first (:data:`BUILTIN_PLUGINS`; the program adds its commands',
:mod:`mdp.program.registry`), the way pytest registers its built-in plugins, then every plugin
offered in the ``mdp.plugins`` entry-point group. A plugin adds a format, a command, an
analysis or an export without touching ``mdp/``. This module holds the plugin manager and the
analyses (:func:`analyses`, :func:`analyse`); the formats and exports are
:mod:`mdp.outputs.registry`'s. Nothing here imports the program: ``mdp.analyse`` works
without the command line.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

import attrs

from mdp.checks import NAME, OPTIONAL_GAME, SOLVED_OR_MODEL, arguments, first, shown
from mdp.errors import ModelError, ParamError, did_you_mean
from mdp.game.hookimpls import check_hook_names
from mdp.game.names import named_twice
from mdp.game.params import Param, resolve
from mdp.game.plugins import (
    PLUGINS_ENTRY_POINTS,
    Plugins,
    by_name,
    collect,
    import_module,
    offering,
    register,
    register_plugins,
)
from mdp.hookspecs import PROJECT
from mdp.hookspecs import program as program_hooks

if TYPE_CHECKING:
    import argparse

    import polars as pl

    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds import Rounds
    from mdp.engine.solved import Solved
    from mdp.game.load import Game

BUILTIN_PLUGINS = [
    "mdp.outputs.formats",
    "mdp.analysis.builtins.analyses",
    "mdp.analysis.builtins.advise",
    "mdp.analysis.builtins.lengths",
    "mdp.analysis.builtins.matches",
    "mdp.analysis.builtins.targets",
    "mdp.outputs.exports",
]
"""mdp's own extensions, registered by name like any plugin, before the installed ones: the
formats, analyses and exports of the library; the program adds its commands'
(:func:`add_builtins`)."""


LEFT_OUT = ("variant", "exact", "residual", "strategy")
"""The game's options that an analysis may say its command never takes (``without``)."""


def _left_out(analysis: Any, attribute: Any, names: tuple[str, ...]) -> None:
    wrong = [name for name in names if name not in LEFT_OUT]
    if wrong:
        raise ValueError(f"without names {wrong[0]!r}, none of the options a command may leave "
                         f"out ({', '.join(LEFT_OUT)})")


def _tuple(options: Iterable[Any]) -> tuple[Any, ...]:
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
    writes its answer. Its arguments are the game's (:func:`mdp.program.arguments.add_game_arguments`;
    without ``--strategy``, ``--maximize`` and ``--minimize`` unless it ``optimizes``),
    ``--out`` and ``--format``, each option as the argument its :class:`mdp.Param` describes
    (``--NAME VALUE``, a switch ``--NAME`` when its default is ``False``:
    :func:`mdp.program.options.add_options`) and ``--json``; each option takes the value of
    the argument of its name. Then:

    - ``check(args)``, if given, refuses before any work what the arguments cannot mean,
      and ``check_game(game, args)`` what they cannot mean for the game loaded (each reads
      a copy of the arguments: what it changes is not acted on);
    - the table goes to ``--out FILE``, or to standard output with ``--format NAME``;
    - ``--json`` prints ``summary(answer, solved)`` on standard output (``json`` says what it
      is, in words, for the help: ``"one JSON array"`` for a list; by default the
      solution's :meth:`~mdp.Solution.summary` with the table's ``rows``, ``columns`` and
      ``out``);
    - otherwise, where the table is not asked for (no ``--out``, no ``--format``),
      ``show(answer, solved, game)`` prints the answer for people (``solved`` is what
      ``run`` was given); with ``--out``, a line says how many rows were written. An analysis
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
    check: Callable[[argparse.Namespace], None] | None = attrs.field(default=None, repr=False)
    summary: Callable[[Any, Any], Any] | None = attrs.field(default=None, repr=False)
    show: Callable[[Any, Any, Game], None] | None = attrs.field(default=None, repr=False)
    vary: Callable[..., pl.DataFrame] | None = attrs.field(default=None, repr=False)
    rounds: bool = False
    """Whether it answers for a game played in rounds too (``advise``, ``simulate``,
    ``distribution``, ``strategies``, ``policy``); the others refuse one once it is compiled
    (``model.single``), before it is solved."""
    check_game: Callable[[Game, argparse.Namespace], object] | None = attrs.field(default=None, repr=False)
    """``check_game(game, args)`` refuses, once the game is loaded and before any of its states
    is found, what the arguments cannot mean for it (a tie-break column it does not have, a
    match of a game with no match rules)."""
    check_model: Callable[[Any, argparse.Namespace], None] | None = attrs.field(default=None, repr=False)
    """``check_model(model, args)`` refuses, once the game is compiled and before it is
    solved, what the analysis cannot answer for (a game of rounds too large to follow, say,
    or a table too large for the format it is written in: ``args.written``, or ``None``)."""
    optimizes: bool = True
    """Whether it answers for the game played to an aim, so that the command takes
    ``--strategy``, ``--maximize`` and ``--minimize``: ``match`` plays for money."""
    without: tuple[str, ...] = attrs.field(default=(), converter=_tuple, validator=_left_out)
    """The game's arguments the command never takes (``strategies`` values every strategy:
    ``("strategy", "residual")``): left out of its help, refused as unknown (see
    :func:`mdp.program.arguments.add_game_arguments`)."""
    json: str = "one JSON object"
    """What ``--json`` prints, in words, for the command's help."""
    progress: bool = False
    """Whether ``run`` of a solution takes ``progress=`` too: a callable given a line at each
    step of long work, which the command shows on a terminal (``run`` of a model always
    does)."""

    def answer(self, solved: Solved | CompiledModel | Rounds, game: Game | None,
               options: Mapping[str, Any], *, exact: bool = False, sense: str | None = None,
               progress: Callable[[str], None] | None = None) -> Any:
        """Run the analysis on ``solved``, with ``options`` parsed by its own parameters.

        ``solved`` is a solution; for an analysis that ``needs="model"``, a solution (its
        model is then solved as the solution was: exact or not, and for the same aim) or a
        compiled model, solved as ``exact`` and ``sense`` say.
        """
        parsed = resolve(self.name, self.options, options, of="analysis")
        if not self.rounds:
            solved.single(f"analysis {self.name}")
        is_solution = hasattr(solved, "model")
        if self.needs == "solution":
            if not is_solution:
                raise ParamError(f"analysis {self.name} takes a solution (mdp.solve(model)), "
                                 f"not {type(solved).__name__}")
            return self.run(solved, game, **parsed, **({"progress": progress} if self.progress else {}))
        if is_solution:
            from mdp.engine.model import CompiledModel
            from mdp.engine.rounds import Rounds

            assert not isinstance(solved, (CompiledModel, Rounds))  # it has a model
            exact, sense, solved = solved.exact, solved.sense, solved.model
        return self.run(solved, game, exact=exact, sense=sense, progress=progress, **parsed)

    def table_of(self, answer: Any) -> pl.DataFrame:
        """The table an answer holds (the answer itself, without ``table``): a Polars
        DataFrame (or mdp's table in pieces), checked, where it was written in the format's
        name when it was none."""


        return self.checked(answer if self.table is None else self.table(answer))

    def checked(self, table: Any, by: str = "") -> pl.DataFrame:
        """``table``, one the analysis gave (``by`` its ``vary``: ``" through vary"``),
        refused where it is no table, or holds what no format writes: the analysis's fault,
        never the format's."""
        import polars as pl

        from mdp.analysis.pieces import Pieces

        written = isinstance(table, (pl.DataFrame, Pieces))  # Pieces are written as one table
        owner = " and ".join(offering(plugins(), ["mdp_analyses"], self.name, BUILTIN_PLUGINS))
        if not written:
            raise ModelError(f"{owner or 'mdp'}'s analysis {self.name} gave {shown(table)}{by}, "
                             "not a table (a Polars DataFrame)")
        if isinstance(table, Pieces) and owner and owner != "mdp":  # its make is the plugin's code
            table.made_by(f"{owner}'s analysis {self.name}")
        unwritten = next(((name, kind) for name, kind in table.schema.items() if not _held(kind)), None)
        if unwritten is not None:  # every format writes what a table holds: no format's fault
            raise ModelError(f"{owner or 'mdp'}'s analysis {self.name} gave a table{by} whose "
                             f"column {unwritten[0]!r} holds {unwritten[1]}: a table holds numbers, "
                             "true or false, text and empty values, which every format writes")
        return table


_BUILTINS_ONLY: list[bool] = []  # inside builtins_only()


def plugins() -> Plugins:
    """The plugin manager of mdp's formats, analyses, exports and commands, with the built-ins
    and the installed plugins registered (the built-ins alone inside :func:`builtins_only`)."""
    return _plugins(not _BUILTINS_ONLY)


def _held(kind: Any) -> bool:
    """Whether a column of the Polars type ``kind`` is one a table may hold: what every
    format writes (CSV has no nested values, and no format writes Python objects)."""
    import polars as pl

    return bool(kind.is_numeric()) or kind in (pl.Boolean, pl.String, pl.Null) or \
        isinstance(kind, (pl.Categorical, pl.Enum))


@functools.cache
def _plugins(installed: bool) -> Plugins:
    manager = Plugins(PROJECT)
    manager.add_hookspecs(program_hooks)  # the program's hooks only: see check_hook_names
    for name in BUILTIN_PLUGINS:
        register(manager, import_module(name), name, "mdp")
    if installed:
        register_plugins(manager, PLUGINS_ENTRY_POINTS)
    check_hook_names(manager, "mdp")
    return manager


plugins.cache_clear = _plugins.cache_clear  # type: ignore[attr-defined]  # as if cached itself


@contextlib.contextmanager
def builtins_only() -> Iterator[None]:
    """Within, :func:`plugins` holds mdp's own plugins alone: ``mdp --help`` lists mdp's own
    commands where an installed plugin is broken (the way a user finds which to remove)."""
    _BUILTINS_ONLY.append(True)
    try:
        yield
    finally:
        _BUILTINS_ONLY.pop()


def add_builtins(names: Iterable[str]) -> None:
    """Make the modules ``names`` built-in plugins too (the program's commands), registered
    after the library's and before the installed plugins: the plugin manager is made anew
    if it had been made without them."""
    missing = [name for name in names if name not in BUILTIN_PLUGINS]
    if missing:
        BUILTIN_PLUGINS.extend(missing)
        _plugins.cache_clear()


def offered(hook: str, kind: type) -> dict[str, Any]:
    """What the plugins offer through ``hook``, by name, the built-ins first; a name offered
    twice is a fault of the plugins'."""
    what = kind.__name__.lower()
    return by_name(collect(plugins(), hook, kind, "a plugin of mdp"), lambda name, other: ModelError(
        f"two plugins offer the {what} {named_twice(name, other)} "
        f"({' and '.join(offering(plugins(), [hook], name, BUILTIN_PLUGINS))})"))


def offered_as(hook: str, kind: str, name: str) -> str:
    """The item ``name`` that a plugin offers through ``hook`` as an error names it:
    ``plugin FILE's format boom``; mdp's own as ``the csv format``."""
    by = offering(plugins(), [hook], name, BUILTIN_PLUGINS)
    return f"{by[0]}'s {kind} {name}" if by and by[0] != "mdp" else f"the {name} {kind}"


def analyses() -> dict[str, Analysis]:
    """Every analysis on offer, by name, the built-ins first; a ``summary`` that gives what
    JSON has no form for is refused, naming the analysis's plugin (:func:`_summary_checked`)."""
    return {name: analysis if analysis.summary is None else
            attrs.evolve(analysis, summary=functools.partial(_summary_checked, analysis))
            for name, analysis in offered("mdp_analyses", Analysis).items()}


def _summary_checked(analysis: Analysis, answer: Any, solved: Any) -> Any:
    """``analysis``'s summary of ``answer`` as JSON holds it (NumPy's numbers and arrays, keys
    too, as the Python numbers and lists they hold), refused (one :class:`mdp.ModelError`
    naming its plugin) where it holds what JSON has no form for: anything but numbers, text,
    true or false, None, lists (tuples) and mappings of keys JSON writes apart; a NumPy
    duration or time is no number. NaN, which strict JSON has not, is left to
    :func:`mdp.program.arguments.print_json`, which refuses it."""
    assert analysis.summary is not None  # (wrapped only where there is one)
    try:
        return _as_json(analysis.summary(answer, solved), [])
    except _Unwritten as wrong:
        owner = " and ".join(offering(plugins(), ["mdp_analyses"], analysis.name, BUILTIN_PLUGINS))
        raise ModelError(f"{owner or 'mdp'}'s analysis {analysis.name}: its summary {wrong}; a "
                         "summary holds numbers, text, true or false, None, lists and mappings, "
                         "as JSON does") from None


class _Unwritten(Exception):
    """What of a summary JSON has no form for, in words."""


def _as_json(value: Any, within: list[int]) -> Any:
    """``value`` as JSON holds it, or :class:`_Unwritten`; ``within``: the ids of the lists
    and mappings that hold it."""
    import numpy as np

    if isinstance(value, (np.generic, np.ndarray)) and value.dtype.kind not in "mM":
        value = value.tolist()  # NumPy's: a number, an array (of objects: checked in turn)
    if isinstance(value, float) and math.isnan(value):
        raise _Unwritten("holds NaN, which JSON has no form for")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if not isinstance(value, (list, tuple, dict)):
        said = shown(value)
        said += "" if said.startswith(("a ", "an ")) else f", a {type(value).__name__}"
        raise _Unwritten(f"holds {said}, which JSON has no form for")
    if id(value) in within or len(within) > 200:
        raise _Unwritten("holds itself" if id(value) in within else "nests past 200 lists and mappings")
    within.append(id(value))
    if not isinstance(value, dict):
        plain: Any = [_as_json(v, within) for v in value]
    else:
        plain = {}
        forms: dict[str, Any] = {}  # each key's text in JSON, and the key
        for given in value:
            key = given.item() if isinstance(given, np.generic) and given.dtype.kind not in "mM" else given
            if key is not None and not isinstance(key, (bool, int, float, str)) or \
                    isinstance(key, float) and not math.isfinite(key):
                what = "a float not finite" if isinstance(key, float) else f"a {type(given).__name__}"
                raise _Unwritten(f"has a key {shown(given)}, {what}; a key is text or a finite "
                                 "number")
            form = key if isinstance(key, str) else "null" if key is None else str(key).lower() \
                if isinstance(key, bool) else (float if isinstance(key, float) else int).__repr__(key)
            if form in forms:  # (as JSON writes a key)
                raise _Unwritten(f"has the keys {shown(forms[form])} and {shown(given)}, which JSON "
                                 "writes alike")
            forms[form], plain[key] = given, _as_json(value[given], within)
    within.pop()
    return plain


def analyse(solution: Solved | CompiledModel | Rounds, name: str, game: Game | None = None,
            **options: Any) -> pl.DataFrame:
    """Run the analysis ``name`` on a solution (``game`` gives it the game's words) and
    return its table.

    Options are parsed by the analysis's own parameters, so text works as on the command
    line: ``mdp.analyse(solution, "policy", game, optimal_only=True)``,
    ``mdp.analyse(solution, "simulate", game, games=1000, seed=1)``. An analysis that solves
    what it needs itself (``strategies``, ``match``) takes the compiled model as well.
    """
    arguments("analyse", solution=(solution, first(SOLVED_OR_MODEL, "analyse(solution, name, game)")),
              name=(name, NAME), game=(game, OPTIONAL_GAME))
    from mdp.analysis.pieces import Pieces  # Polars: there is a table

    known = analyses()
    if name not in known:
        raise ParamError(f"unknown analysis {name!r}{did_you_mean(name, known)} "
                         f"(known: {', '.join(known)})")
    analysis = known[name]
    table = analysis.table_of(analysis.answer(solution, game, options))
    return table.frame() if isinstance(table, Pieces) else table


class _Deferred:
    """A module imported when one of its names is first asked for."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module(self._name), name)


def program_arguments() -> Any:
    """:mod:`mdp.program.arguments`, imported when first used: the parts of an analysis that
    only the program calls (its arguments, its checks of them, what it shows) use it, and
    :func:`analyse` imports nothing of the program."""
    return _Deferred("mdp.program.arguments")
