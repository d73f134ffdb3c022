"""The ``mdp`` program: a thin layer over the Python API.

Its commands are the :class:`mdp.Command` s and :class:`mdp.Analysis` es that plugins offer,
mdp's own among them (:mod:`mdp.builtins`).
"""

from __future__ import annotations

import argparse
import os
import sys

from mdp import arguments
from mdp.errors import MdpError
from mdp.extensions import Analysis, Command, analyse, analyses, commands


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        return args.command.run(args) or 0
    except MdpError as error:
        print(f"mdp: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mdp: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        if not isinstance(error, BrokenPipeError) and "Broken pipe" not in str(error):
            raise
        # The reader went away (mdp policy ... | head): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mdp",
        description="Solve finite-horizon Markov decision processes exactly: "
        "the best play and its value, for games of chance and choice.",
        epilog="Examples: mdp solve games/shutbox --exact; mdp policy shutbox --out policy.parquet",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    offered = {**commands(), **{name: _command(a) for name, a in analyses().items()}}
    for command in offered.values():
        sub = subparsers.add_parser(command.name, help=command.help,
                                    description=command.description or command.help)
        if command.arguments:
            command.arguments(sub)
        sub.set_defaults(command=command)
    return parser


def _command(analysis: Analysis) -> Command:
    """An analysis as a command: solve the game, run the analysis, write the table."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        arguments.add_game_arguments(parser)
        arguments.add_output_arguments(parser)
        for option in analysis.options:
            flag = "--" + option.name.replace("_", "-")
            if option.default is False:
                parser.add_argument(flag, dest=f"option_{option.name}", action="store_true",
                                    help=option.help)
            else:
                parser.add_argument(flag, dest=f"option_{option.name}", metavar="VALUE",
                                    help=f"{option.help} [default: {option.shown(option.default)}]")
        parser.add_argument("--json", action="store_true", help="print a JSON summary on stdout "
                            "(with --out; without it, the table is not printed)")

    def run(args: argparse.Namespace) -> None:
        fmt = arguments.output_format(args) if args.out or not args.json else None
        options = {o.name: getattr(args, f"option_{o.name}") for o in analysis.options
                   if getattr(args, f"option_{o.name}") is not None}
        game, solution = arguments.solved(args)
        table = analyse(analysis.name, solution, game, **options)
        if fmt is not None:
            arguments.emit(table, args, fmt)
        if args.json:
            arguments.print_json({**solution.summary(), "rows": table.height,
                                  "columns": table.columns, "out": args.out})
        elif args.out:
            print(f"{table.height:,} rows written to {args.out}", file=sys.stderr)

    return Command(analysis.name, analysis.help, run, add_arguments, analysis.description)


class _Version(argparse.Action):
    """Looks the version up only when asked: package metadata is slow to import."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            parser.exit(message=f"mdp {version('exact-mdp')}\n")
        except PackageNotFoundError:
            parser.exit(message="mdp (not installed)\n")


if __name__ == "__main__":
    sys.exit(main())
