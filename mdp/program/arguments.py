"""What commands of the ``mdp`` program share: their usual arguments and what is done with
them. mdp's own commands are built from these, and a plugin's :class:`mdp.Command` can be."""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import mdp
from mdp.errors import InRounds, ModelError, ParamError
from mdp.game.params import check_settable, parse_assignments
from mdp.limits import DEFAULT_MAX_STATES
from mdp.outputs.files import check_target as check_target
from mdp.outputs.files import reading, say_when_written
from mdp.outputs.files import write_atomically as write_atomically
from mdp.outputs.registry import format_for
from mdp.program import argtypes, guard
from mdp.program.progress import Progress as Progress
from mdp.program.stdout import drop, shield
from mdp.program.stdout import shielded as shielded
from mdp.program.stdout import stdout as stdout
from mdp.shown import counted

if TYPE_CHECKING:
    from collections.abc import Callable

    import polars as pl

    from mdp.analysis.pieces import Pieces
    from mdp.engine.solved import Solved
    from mdp.outputs.formats import Format

STDOUT_FORMAT = "csv"
"""The format of a table printed on standard output, unless ``--format`` names another."""
TERMINAL_FORMAT = "markdown"
"""... and when standard output is a terminal: a table for people, its columns aligned."""


def add_game_arguments(parser: argparse.ArgumentParser, *, solving: bool = True,
                       compiling: bool | None = None, without: Collection[str] = ()) -> None:
    """``GAME``, ``--set`` and ``--variant``; with ``compiling`` (as ``solving`` unless
    given), also ``--exact`` and the limits (:func:`add_limit_arguments`); with
    ``solving``, also ``--residual``, ``--strategy`` and ``--maximize``/``--minimize``.
    ``without``: of ``variant``, ``exact``, ``residual`` and ``strategy``, those the command
    never takes (``mdp variants`` solves every variant): left out of its help and completion,
    refused as unknown, and read as not given."""
    parser.add_argument("game", help="a game folder or file (games/shutbox), or an installed "
                        "game's name (shutbox)")
    parser.add_argument("--set", "-s", dest="params", action="append", default=[],
                        metavar="KEY=VALUE",
                        help="set one rule parameter (repeatable); mdp params GAME lists them")

    def add(flag: str, **how: Any) -> None:
        name = flag.removeprefix("--")
        if name in without:
            parser.set_defaults(**{name: False if how.get("action") == "store_true" else None})
        else:
            parser.add_argument(flag, **how)

    add("--variant", metavar="NAME", help="start from one of the game's named rule sets (see: "
        "mdp variants GAME)")
    if not (solving if compiling is None else compiling):
        return
    add("--exact", action="store_true", help="compute with exact rationals")
    add_limit_arguments(parser)
    if not solving:
        return
    add("--residual", type=argtypes.residual, metavar="R", help="where states come back: solve until "
        "the error left is within R, relative to the largest terminal value (default 1e-12; "
        "from 1e-15 to 1)")
    add("--strategy", type=argtypes.name, metavar="NAME", help="evaluate the game's strategy NAME instead of "
        "optimizing (see: mdp strategies GAME)")
    add_sense_arguments(parser)


KEPT = ("command", "plugins", "loaded")
"""What mdp keeps in a command's parsed arguments (the command, the rule plugins of ``-p``,
the game loaded): no argument of a command or an analysis's option may take these names."""


def check_own(parser: argparse.ArgumentParser, program: argparse.ArgumentParser, command: str) -> None:
    """Refuse a command's argument that takes a flag of the ``program``'s own (argparse lets
    it hide the program's), or whose value would take one of :data:`KEPT`'s names
    (``--command``: mdp read its value as the command, a traceback)."""
    ours = [flag for flag, action in parser._option_string_actions.items()
            if flag in program._option_string_actions and not isinstance(action, argparse._HelpAction)]
    if ours:
        raise ModelError(f"command {command}: its argument {ours[0]} clashes with the program's "
                         f"own {ours[0]}, given before or after the command; name it otherwise")
    kept = [(action.option_strings or [action.dest])[0] for action in parser._actions
            if action.dest in KEPT]
    if kept:
        raise ModelError(f"command {command}: its argument {kept[0]} takes the name of mdp's own "
                         f"record of the command ({', '.join(KEPT)}); name it otherwise")


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """``--max-states``, ``--max-memory`` and ``--scheduler``: the bounds on compiling a game,
    and where its work is done; every command that compiles a game takes them (here, once)."""
    parser.add_argument("--max-states", type=argtypes.positive_int, default=DEFAULT_MAX_STATES, metavar="N",
                        help=f"stop at more states than this (default {DEFAULT_MAX_STATES:,})")
    parser.add_argument("--max-memory", type=argtypes.size, metavar="SIZE",
                        help="stop before the model would need more memory than this, e.g. 4G "
                        "or 500M (default: three quarters of the memory mdp may use, the least "
                        "of the machine's, its cgroup's limit and ulimit -v)")
    parser.add_argument("--scheduler", metavar="ADDRESS", type=argtypes.scheduler,
                        help="work a game of rounds' batches on the Dask cluster whose scheduler "
                        "is at ADDRESS, such as tcp://127.0.0.1:8786 (pip install 'exact-mdp[dask]'; "
                        "default: this machine's threads)")


def add_sense_arguments(parser: argparse.ArgumentParser) -> None:
    """``--maximize`` and ``--minimize``, whatever the game's usual aim."""
    sense = parser.add_mutually_exclusive_group()
    sense.add_argument("--maximize", dest="sense", action="store_const", const="max",
                       help="maximize the value, whatever the game's usual aim")
    sense.add_argument("--minimize", dest="sense", action="store_const", const="min",
                       help="minimize the value (with a win probability: the worst play)")


def compiled(args: argparse.Namespace, game: mdp.Game,
             progress: Callable[[str], None] | None = None) -> mdp.CompiledModel | mdp.Rounds:
    """The game compiled within the bounds the arguments set."""
    model = mdp.compile(game, max_states=args.max_states, max_memory=args.max_memory or "default",
                        progress=progress)
    guard.left_alone(game)
    return model


def add_json_argument(parser: argparse.ArgumentParser, what: str = "one JSON object", *,
                      vary: bool = False) -> None:
    """``--json``: print ``what`` (``"one JSON array"`` for a command that prints a list);
    with ``vary``, the rows of the table of ``--vary`` instead when it is given."""
    more = " (with --vary: a list of the table's rows)" if vary else ""
    parser.add_argument("--json", action="store_true", help=f"print {what} on stdout{more}")


def add_json_list_argument(parser: argparse.ArgumentParser) -> None:
    """``--json`` for a command that prints a list: one JSON array."""
    add_json_argument(parser, "one JSON array")


def add_output_arguments(parser: argparse.ArgumentParser, *, report: bool = False,
                         table: str = "the table") -> None:
    """``--out FILE`` and ``--format NAME``, for a command that writes ``table``; with
    ``report``, a command that prints a report for people on standard output unless
    ``--format`` asks for the table there (:func:`mdp.program.analysis_command.command` decides so)."""
    printed = (f"the report on standard output (--format NAME prints {table} there instead)"
               if report else f"standard output, as {STDOUT_FORMAT.upper()} (a table for "
               "people on a terminal)")
    parser.add_argument("--out", "-o", metavar="FILE",
                        help=f"write {table} to FILE, in the format its extension names (see: "
                        f"mdp formats); default: {printed}")
    parser.add_argument("--format", "-f", type=argtypes.name, metavar="NAME",
                        help="the format to write, whatever the extension (see: mdp formats)")


def add_vary_argument(parser: argparse.ArgumentParser) -> None:
    """``--vary KEY=V1,V2,...`` (repeatable), with the output options of its table."""
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                        help="one row per combination of these values of a parameter (repeatable; "
                        "separate values holding commas with ;)")
    add_output_arguments(parser, table="the table of --vary")


def check_table_options(args: argparse.Namespace) -> Format | None:
    """The format of the table of ``--vary``, checked before any work (``None``: the table
    is printed as JSON rows); ``--out`` and ``--format`` need ``--vary``."""
    if not args.vary:
        if args.out is not None or args.format is not None:
            raise ParamError("--out and --format write the table of --vary; without --vary "
                           "there is no table")
        return None
    return None if args.json and args.out is None else output_format(args)


def vary_table(args: argparse.Namespace, make: Callable[..., pl.DataFrame],
               **settings: Any) -> pl.DataFrame:
    """The table over rule sets that ``--vary`` asks for: ``make(game, values, ...)``
    (:func:`mdp.solve_table`, :func:`mdp.match_table`) with the game, its variant, ``--set``,
    ``--exact``, ``--max-states`` and ``--max-memory`` of the arguments, progress on a
    terminal, and ``settings``. Each rule set is played optimally: ``--strategy`` is
    refused, not dropped."""
    from mdp.analysis.vary import parse_vary  # numpy and Polars, which make imports anyway

    if getattr(args, "strategy", None) not in (None, "optimal"):
        raise ParamError("--vary plays each rule set optimally; --strategy does not apply "
                       "(evaluate a strategy under one rule set at a time)")
    if getattr(args, "residual", None) is not None:
        raise ParamError("--vary solves each rule set to the default residual, 1e-12; "
                         "--residual is for one rule set at a time")
    values = parse_vary(args.vary)
    reading_given(args)
    with Progress() as progress:  # (an analysis's own --max-memory is the command's: shared)
        table = make(args.game, values, **{
            "variant": args.variant, "params": parse_assignments(args.params),
            "plugins": plugins(args), "exact": args.exact, "max_states": args.max_states,
            "max_memory": args.max_memory or "default", "progress": progress, **settings})
    guard.check(f"game {args.game}")
    return table


def write_vary_table(frame: pl.DataFrame, args: argparse.Namespace, fmt: Format | None) -> None:
    """Write the table of ``--vary``: its rows as JSON with ``--json``, and the table in the
    format ``fmt`` to ``--out`` (saying how many rows on stderr) or to standard output."""
    if args.json:
        print_json(frame.to_dicts())
    if fmt is not None:
        emit(frame, args, fmt)
        if args.out:
            say_when_written(f"{counted(frame.height, 'row')} written to {args.out}")


PLUGIN_OPTIONS = ("-p", "--plugin")
"""The option that gives a plugin without installing it: anywhere among the arguments."""


def plugins_given(argv: list[str]) -> tuple[list[str], list[str]]:
    """The arguments without ``-p FILE`` (``--plugin FILE``, ``-pFILE``, ``--plugin=FILE``),
    and the plugins they give, in order."""
    rest, specs = [], []
    items = iter(argv)
    for item in items:
        if item == "--":  # what follows is no option
            rest += [item, *items]
        elif item in PLUGIN_OPTIONS:
            spec = next(items, None)
            if spec is None:
                raise ParamError(f"{item} needs a plugin: a .py file, a package folder or a "
                               "module's name")
            specs.append(spec)
        elif item.startswith("--plugin="):
            specs.append(item.partition("=")[2])
        elif item.startswith("-p") and len(item) > 2:
            specs.append(item[2:])
        else:
            rest.append(item)
    return rest, specs


def load(args: argparse.Namespace, variant: str | None = None, *,
         one_model: str | None = None) -> mdp.Game:
    """The game the arguments name, with its variant, ``--set`` parameters and the rule
    plugins of ``-p``; for work that reads a game of ``one_model`` (``"mdp export"``), one
    played in rounds is refused here, before the compile (:class:`mdp.errors.InRounds`)."""
    settings = parse_assignments(args.params)
    check_settable(settings)
    reading_given(args)
    game = mdp.load_game(args.game, variant=variant or args.variant, plugins=plugins(args), **settings)
    args.loaded = game  # whose code ran, for the checks that blame it
    guard.left_alone(game)
    if one_model is not None and game.in_rounds:
        raise InRounds(game.name, one_model)
    return game


def reading_given(args: argparse.Namespace) -> None:
    """The game and rule plugins given by their paths are files the command reads: none of
    the files it writes may be one of them (:func:`mdp.outputs.files.reading`)."""
    if getattr(args, "game", None) is not None:
        reading(args.game, "the game")
    for spec in plugins(args):
        reading(spec, "the plugin")


def plugins(args: argparse.Namespace) -> list[str]:
    """The rule plugins that ``-p`` gives the game (none where the arguments were not read
    by the ``mdp`` program)."""
    return getattr(args, "plugins", None) or []


def solved(args: argparse.Namespace, game: mdp.Game | None = None,
           check: Callable[[Any], None] | None = None) -> tuple[mdp.Game, Solved]:
    """Load (unless ``game`` is given), compile and solve, with progress on a terminal;
    ``check(model)``, if given, between the compile and the solve."""
    game = game or load(args)
    strategy = getattr(args, "strategy", None)
    if args.residual is not None and args.exact:
        raise ParamError("--residual bounds the error of value iteration in floats; --exact "
                         "solves by policy iteration, with no error: give one or the other")
    if strategy == "optimal":  # mdp's own: the game's strategies still checked (none named so)
        from mdp.analysis.strategy import strategies

        strategies(game)
    if strategy and strategy != "optimal":
        from mdp.analysis.strategy import Strategy, find_strategy  # here: NumPy, once a game is solved

        found = find_strategy(game, strategy)  # a strategy the game lacks: refused before any work
        if args.residual is not None:  # it would be taken for the strategy's, and is not
            raise ParamError("--residual is for optimal play; a strategy is valued to the "
                             "residual of 1e-12")
        if args.sense and isinstance(found, Strategy):  # its weights play, toward no aim
            raise ParamError(f"--{'minimize' if args.sense == 'min' else 'maximize'} steers "
                             f"optimal play; the strategy {strategy} plays as its weights say: "
                             "give one or the other")
    with Progress() as progress:
        model = compiled(args, game, progress)
        if args.residual is not None and getattr(model, "one_pass", True):
            raise ParamError(f"--residual bounds the error of value iteration, for a game whose "
                             f"states come back; game {game.name}'s do not, and one pass solves "
                             "it with no error to bound")
        if check is not None:
            check(model)
        against = getattr(args, "against", None)  # the other player's, where one is named
        if (strategy and strategy != "optimal") or against:
            solution = mdp.evaluate(model, strategy or "optimal", game=game, exact=args.exact,
                                    sense=args.sense, progress=progress, against=against)
        else:
            solution = mdp.solve(model, exact=args.exact, sense=args.sense, progress=progress,
                                 **({} if args.residual is None else {"residual": args.residual}))
    guard.left_alone(game)
    return game, solution


def output_format(args: argparse.Namespace) -> Format:
    """The format of the table to write, checked before any work: the ``--out`` target can
    be written and its extension (or ``--format``) is known; a binary format is not printed
    on a terminal."""
    if args.out is not None:
        check_target(args.out, "--out")
        return format_for(args.out, args.format)
    fmt = format_for(name=args.format or (TERMINAL_FORMAT if stdout().isatty() else STDOUT_FORMAT))
    if fmt.binary and stdout().isatty():
        raise ParamError(f"the {fmt.name} format is binary and standard output is a terminal; "
                       "write it to a file with --out, or pipe it")
    shield()  # the table goes to standard output: what plugin code prints, to standard error
    return fmt


def emit(frame: pl.DataFrame | Pieces, args: argparse.Namespace, fmt: Format) -> None:
    """Write a table to ``--out`` (atomically) or to standard output; a table made a piece
    at a time into a file shows how far it has got on a terminal."""
    from mdp.analysis.pieces import Pieces  # Polars: there is a table to write

    if args.out is not None:
        with Progress() as progress:
            if isinstance(frame, Pieces):
                frame.progress = progress
            write_atomically(args.out, lambda file: fmt.dump(frame, file, args.out))
        return
    import shutil
    import tempfile

    # The whole table is made before a byte of it goes out: a fault halfway (a game's column
    # refused in a later piece) leaves standard output empty, not a header and some rows.
    with tempfile.SpooledTemporaryFile(max_size=1 << 26) as made:
        fmt.dump(frame, made, "standard output")  # type: ignore[arg-type]  # a binary file
        made.seek(0)
        out = stdout()
        out.flush()
        try:
            shutil.copyfileobj(made, out.buffer)
            out.buffer.flush()
        except BrokenPipeError:  # the reader went away: no more of the table, the rest goes on
            drop()


def print_json(data: Any, what: str | None = None) -> None:
    """One line of strict JSON on standard output (no NaN or Infinity): numpy's numbers and
    arrays as the numbers and lists they hold, an infinity as ``null`` (as any number past a
    float), other objects as their text, but for a set (no order) and bytes (no text). With
    ``what`` (a plugin's summary, say), data JSON cannot hold (NaN too) is one
    :class:`mdp.ModelError` that begins with ``what``."""
    import json  # only when asked for: every millisecond of start-up shows on small games

    try:
        text = json.dumps(_past_float(data), default=_json_value, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        if what is None:
            raise
        raise ModelError(f"{what} cannot be written as JSON: {error}") from None
    print(text, file=stdout())


def _past_float(data: Any) -> Any:
    """``data`` with each infinite float (a number past what a float holds, shown as a float:
    :func:`mdp.engine.numeric.shown_float`) as ``null``, as a value past a float is in JSON."""
    if isinstance(data, float) and math.isinf(data):
        return None
    if isinstance(data, dict):
        return {k: _past_float(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_past_float(v) for v in data]
    return data


def _json_value(value: Any) -> Any:
    if isinstance(value, (set, frozenset, bytes, bytearray)):
        raise TypeError(f"{value!r:.40} is a {type(value).__name__}, which JSON has no form for")
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy's: a number, an array
        return value.tolist()
    return str(value)
