"""An analysis as a command of the ``mdp`` program (:func:`command`): the game solved, or
compiled, as the analysis needs it, the analysis run, its table written and its answer
shown; the analysis's own checks reading a copy of the arguments (:func:`_read_only`)."""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from typing import TYPE_CHECKING

import mdp
from mdp.analysis.registry import Analysis
from mdp.game.params import resolve
from mdp.outputs.files import say_when_written
from mdp.program import arguments, guard
from mdp.program.options import add_options
from mdp.program.registry import Command, offered_by
from mdp.shown import counted

if TYPE_CHECKING:
    from mdp.engine.solved import Solved


def whose(args: argparse.Namespace) -> str:
    """Whose code ran last in the command: the plugin's that offers it, else its game's
    (a game's change as it is loaded and solved is blamed on it there)."""
    by = offered_by(args.command.name)
    game = getattr(args, "loaded", None) or getattr(args, "game", None)
    return f"plugin {by[0]}'s {by[1]} {args.command.name}" if by else \
        f"game {getattr(game, 'name', game)}" if game else f"command {args.command.name}"


def _read_only(args: argparse.Namespace) -> argparse.Namespace:
    """The arguments as an analysis's checks read them: a copy, whose changes (``--out`` set
    elsewhere) are not acted on."""
    return argparse.Namespace(**{name: list(value) if isinstance(value, list) else value
                                 for name, value in vars(args).items()})


def command(analysis: Analysis) -> Command:
    """An analysis as a command: the game solved (or compiled, for an analysis that solves
    what it needs itself), the analysis run through :meth:`Analysis.answer`, its table
    written and its answer shown, as :class:`Analysis` says."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        arguments.add_game_arguments(parser, solving=analysis.optimizes, compiling=True,
                                     without=analysis.without)
        if analysis.vary is not None:
            arguments.add_vary_argument(parser)
        else:
            arguments.add_output_arguments(parser, report=analysis.show is not None)
        if analysis.show is None:
            parser.add_argument("--json", action="store_true", help="print a JSON summary on "
                                "stdout (with --out; without it, the table is not printed)")
        else:
            arguments.add_json_argument(parser, analysis.json, vary=analysis.vary is not None)
        add_options(parser, analysis.options, f"analysis {analysis.name}")  # after the command's own

    def run(args: argparse.Namespace) -> None:
        options = {o.name: getattr(args, o.name) for o in analysis.options
                   if getattr(args, o.name, None) is not None}  # the texts given
        values = resolve(analysis.name, analysis.options, options, of="analysis")  # before any work
        vars(args).update({o.name: values[o.name] for o in analysis.options  # what the texts
                           if not o.repeat and hasattr(args, o.name)})  # mean, for the checks
        if analysis.check is not None:
            analysis.check(_read_only(args))
        out, as_json = getattr(args, "out", None), getattr(args, "json", False)
        if analysis.vary is not None:  # --out and --format write the table of --vary alone
            fmt, on_stdout = arguments.check_table_options(args), False
            if args.vary:
                table = analysis.checked(arguments.vary_table(  # what the texts mean
                    args, analysis.vary, **{name: values[name] for name in options}),
                    " through vary")
                arguments.write_vary_table(table, args, fmt)
                return
        else:
            # The table goes to standard output when --format asks for it, or, for an
            # analysis that cannot show itself, unless --json asks for the summary instead.
            asked = getattr(args, "format", None) is not None if analysis.show else not as_json
            on_stdout = hasattr(args, "format") and out is None and asked
            fmt = arguments.output_format(args) if out is not None or on_stdout else None
        args.written = fmt  # the format of the table written, if any: for the checks
        game = arguments.load(args, one_model=None if analysis.rounds else f"mdp {analysis.name}")
        args.loaded = game  # what the checks of its model read the game's words from
        if analysis.check_game is not None:
            analysis.check_game(game, _read_only(args))

        def check(model: mdp.CompiledModel | mdp.Rounds) -> None:  # compiled, before the solve
            if not analysis.rounds:
                model.single(f"mdp {analysis.name}")
            if analysis.check_model is not None:
                analysis.check_model(model, _read_only(args))

        solved: Solved | mdp.CompiledModel | mdp.Rounds
        solution: Solved | None = None
        if analysis.needs == "model":
            with arguments.Progress() as progress:
                solved = arguments.compiled(args, game, progress)
                check(solved)
                answer = analysis.answer(solved, game, options, exact=args.exact,
                                         sense=getattr(args, "sense", None), progress=progress)
        else:
            _, solution = arguments.solved(args, game, check)
            solved = solution
            with arguments.Progress() if analysis.progress else nullcontext() as progress:
                answer = analysis.answer(solved, game, options, progress=progress)
        guard.check(whose(args))
        table = analysis.table_of(answer)
        if fmt is not None:
            arguments.emit(table, args, fmt)
        if as_json:
            if analysis.summary is not None:
                arguments.print_json(analysis.summary(answer, solved),
                                     f"analysis {analysis.name}: its summary")
            else:
                summary = {} if solution is None else solution.summary()
                arguments.print_json({**summary, "rows": table.height, "columns": table.columns,
                                      "out": out})
        if out:  # the table goes to its file alone, as every command with --out says it (on
            say_when_written(f"{counted(table.height, 'row')} written to {out}")  # stderr)
        elif not as_json and not on_stdout and analysis.show is not None:
            analysis.show(answer, solved, game)

    return Command(analysis.name, analysis.help, run, add_arguments, analysis.description)
