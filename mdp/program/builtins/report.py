"""``mdp report``: one self-contained HTML page about a solved game, with a strategy explorer
(a built-in plugin, see :mod:`mdp.program.registry`; the page itself is :func:`mdp.report`)."""

from __future__ import annotations

import argparse

import mdp
from mdp.errors import say
from mdp.hookspecs import hookimpl
from mdp.limits import REPORT_MAX_ROWS
from mdp.program import argtypes, arguments
from mdp.program.registry import Command


def _arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser, solving=False)
    parser.add_argument("--out", "-o", metavar="FILE", default="report.html",
                        help="the page to write [default: report.html]")
    parser.add_argument("--max-rows", type=argtypes.positive_int, default=REPORT_MAX_ROWS,
                        metavar="N", help="leave the explorer out when the policy has more rows "
                        f"than this (default {REPORT_MAX_ROWS:,})")
    parser.add_argument("--no-strategies", dest="strategies", action="store_false",
                        help="leave the named strategies out: each is valued by a solve of its "
                        "own, most of the time a large game's page takes")
    arguments.add_limit_arguments(parser)
    arguments.add_sense_arguments(parser)


def _report(args: argparse.Namespace) -> None:
    arguments.check_target(args.out, "--out")  # before any work
    game = arguments.load(args)  # (which refuses a target the command reads, first)
    if not args.out.lower().endswith((".html", ".htm")):  # as a table's or a plot's extension is
        raise mdp.ParamError(f"{args.out}: the page is written as .html or .htm")
    with arguments.Progress() as progress:
        model = arguments.compiled(args, game, progress)
        solution = mdp.solve(model, sense=args.sense, progress=progress)
        page = mdp.report(solution, game, max_rows=args.max_rows, strategies=args.strategies,
                           progress=progress).encode("utf-8")
    arguments.write_atomically(args.out, lambda file: file.write(page))
    from mdp.engine.budget import size  # here: --help imports no Polars
    from mdp.outputs.explorer import explorer_rows, without_explorer

    why = without_explorer(solution, game, args.max_rows)
    what = f"WITHOUT the explorer: {why}" if why else f"with an explorer of {explorer_rows(solution):,} rows"
    say(mdp.MdpError(f"{args.out}: {size(len(page))}, {model.extent()}, {what}"))  # as every line: escaped


@hookimpl
def mdp_commands() -> list[Command]:
    return [Command("report", "write one self-contained HTML page with a strategy explorer",
                    _report, _arguments, "Solve a game and write one HTML page that needs no "
                    "network: the rules, the value under optimal play (exact, for a game of one "
                    "model), the outcome distribution (of simulated games, for a game of "
                    "rounds), the named strategies, and an explorer that gives the best "
                    "move of any position, as mdp advise does.")]
