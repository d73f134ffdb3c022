"""The ``mdp match`` command, and ``--vary`` tables: mdp's built-ins for matches and sweeps
over rule sets (registered like :mod:`mdp.program.builtins.core`)."""

from __future__ import annotations

import argparse
import sys

from mdp.program import arguments
from mdp.errors import MdpError
from mdp.program.registry import Command
from mdp.game.hookspecs import hookimpl
from mdp.game.params import parse_assignments

def add_vary_argument(parser: argparse.ArgumentParser) -> None:
    """``--vary KEY=V1,V2,...`` (repeatable), with the output options of a table."""
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                        help="one row per combination of these parameter values, e.g. --vary "
                        "rounds=2,3 (repeatable; separate values holding commas with ;)")
    arguments.add_output_arguments(parser)


def check_table_options(args: argparse.Namespace):
    """The table's format, checked before any work; ``--out``/``--format`` need ``--vary``."""
    if not args.vary:
        if args.out is not None or args.format is not None:
            raise MdpError("--out and --format write the table of --vary; without --vary "
                           "there is no table")
        return None
    return None if args.json and args.out is None else arguments.output_format(args)


def write_table(frame, args: argparse.Namespace, fmt) -> None:
    if args.json:
        arguments.print_json(frame.to_dicts())
    if fmt is not None:
        arguments.emit(frame, args, fmt)
        if args.out:
            print(f"{frame.height:,} rows written to {args.out}", file=sys.stderr)


def _match_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser, solving=False)
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="the number of players (default 2)")
    parser.add_argument("--exact", action="store_true", help="compute with exact rationals")
    arguments.add_limit_arguments(parser)
    add_vary_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout "
                        "(with --vary: a list of the table's rows)")


def _match(args: argparse.Namespace) -> None:
    import mdp
    from mdp.analysis.vary import match_table, parse_vary

    if args.players < 2:
        raise MdpError(f"--players {args.players}: a match needs 2 players or more")
    fmt = check_table_options(args)
    if args.vary:
        vary = parse_vary(args.vary)
        with arguments.Progress() as progress:
            frame = match_table(args.game, vary, players=args.players, variant=args.variant,
                                params=parse_assignments(args.params), exact=args.exact,
                                max_states=args.max_states, progress=progress)
        write_table(frame, args, fmt)
        return
    game = arguments.load(args)
    with arguments.Progress() as progress:
        result = mdp.match(game, players=args.players, exact=args.exact,
                           model=arguments.compiled(args, game, progress), progress=progress)
    summary = result.summary()
    if args.json:
        arguments.print_json(summary)
        return
    print(summary["rules"])
    for player, value in zip(summary["players"], result.values):
        exact = f"  = {player['exact']}" if args.exact else ""
        print(f"player {player['player']}: {float(value):+.15g} "
              f"({float(value) * 100:+.4f}% of the stake){exact}")
    print(f"played in {summary['seconds']:.3f} s")


@hookimpl
def mdp_commands() -> list[Command]:
    return [Command(
        "match", "each player's expected winnings when players take turns at a game",
        _match, _match_arguments,
        "Players take turns at the game, each knowing the earlier players' results and "
        "playing optimally for money under the game's match rules; print each player's "
        "expected winnings. With --vary, a table over rule sets, fairest first.")]
