"""The ``mdp`` command: a thin layer over the Python API."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import mdp
from mdp.errors import MdpError
from mdp.explore import DEFAULT_MAX_STATES
from mdp.params import parse_assignments


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.command(args)
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
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    game = argparse.ArgumentParser(add_help=False)
    game.add_argument("game", help="a game folder or file (games/shutbox), or an installed game's name (shutbox)")
    game.add_argument(
        "--set", "-s", dest="params", action="append", default=[], metavar="KEY=VALUE",
        help="set one rule parameter, e.g. --set rounds=3 (repeatable)",
    )
    game.add_argument("--variant", metavar="NAME",
                      help="start from one of the game's named rule sets (see: mdp variants GAME)")
    game.add_argument("--exact", action="store_true", help="compute with exact rationals")
    game.add_argument("--max-states", type=_positive, default=DEFAULT_MAX_STATES, metavar="N",
                      help=f"refuse games with more states than this (default {DEFAULT_MAX_STATES:,})")
    sense = game.add_mutually_exclusive_group()
    sense.add_argument("--maximize", dest="sense", action="store_const", const="max",
                       help="maximize the value, whatever the game's usual aim")
    sense.add_argument("--minimize", dest="sense", action="store_const", const="min",
                       help="minimize the value (with a win probability: the worst play)")
    game.add_argument("--json", action="store_true", help="print one JSON object on stdout")

    solve = commands.add_parser(
        "solve", parents=[game], help="the value of a game under optimal play",
        description="Solve a game and print the value of its initial state under optimal play.",
    )
    solve.set_defaults(command=_solve)

    policy = commands.add_parser(
        "policy", parents=[game], help="the optimal policy, as a table",
        description="Solve a game and write every decision with the value of each action, "
        "whether it is optimal, and its regret.",
    )
    policy.add_argument(
        "--out", "-o", metavar="FILE",
        help="write to FILE; the format follows its extension: .parquet, .csv, .json, .ndjson "
        "(default: CSV on stdout)",
    )
    policy.add_argument("--optimal-only", action="store_true", help="keep only optimal actions")
    policy.set_defaults(command=_policy)

    variants = commands.add_parser(
        "variants", parents=[game], help="every named rule set of a game, with its value",
        description="Solve each named variant of a game (with any --set applied on top) and "
        "print its rules and value.",
    )
    variants.set_defaults(command=_variants)

    params = commands.add_parser(
        "params", help="the rule parameters of a game, with their defaults",
        description="List the parameters a game takes with --set: name, default and meaning.",
    )
    params.add_argument("game", help="a game folder or file, or an installed game's name")
    params.add_argument("--json", action="store_true", help="print one JSON list on stdout")
    params.set_defaults(command=_params)

    games = commands.add_parser("games", help="list installed games",
                                description="List the games installed by name.")
    games.set_defaults(command=_games)
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not {text!r}")
    return value


def _solved(args: argparse.Namespace, variant: str | None = None):
    start = time.perf_counter()
    game = mdp.load_game(args.game, variant=variant or args.variant, **parse_assignments(args.params))
    with _Progress() as progress:
        solution = mdp.solve(game, exact=args.exact, sense=args.sense,
                             max_states=args.max_states, progress=progress)
    return game, solution, time.perf_counter() - start


class _Progress:
    """Shows on one line of a terminal's stderr how far a long solve has got."""

    DELAY = 0.5  # seconds before the first line: a quick solve shows nothing

    def __enter__(self):
        self.start, self.shown = time.perf_counter(), False
        return self if sys.stderr.isatty() else None

    def __call__(self, text: str) -> None:
        seconds = time.perf_counter() - self.start
        if seconds >= self.DELAY:
            sys.stderr.write(f"\r\033[K{text}  [{seconds:.1f} s]")
            sys.stderr.flush()
            self.shown = True

    def __exit__(self, *exc) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _summary(game: mdp.Game, solution: mdp.Solution, seconds: float) -> dict[str, Any]:
    value = solution.value
    summary = {
        "game": game.name,
        "variant": game.variant,
        "params": game.shown_params(),
        "rules": game.describe(),
        "objective": game.objective.name,
        "sense": solution.sense,
        "value": float(value),
    }
    if solution.exact:
        summary["exact"] = f"{value.numerator}/{value.denominator}"
    summary["states"] = solution.model.n_states
    summary["seconds"] = round(seconds, 6)
    return summary


def _solve(args: argparse.Namespace) -> int:
    game, solution, seconds = _solved(args)
    summary = _summary(game, solution, seconds)
    if args.json:
        _print_json(summary)
        return 0
    print(summary["rules"])
    print(_value_line(game, solution))
    if solution.exact:
        print(f"exact: {summary['exact']}")
    print(f"{summary['states']:,} states, solved in {seconds:.3f} s")
    return 0


def _value_line(game: mdp.Game, solution: mdp.Solution) -> str:
    objective, value = game.objective, float(solution.value)
    name = objective.name
    if solution.sense != objective.sense:
        name += f" ({'minimized' if solution.sense == 'min' else 'maximized'})"
    text = f"{value:.15g}"
    if objective.probability:
        text = f"{value:.4%} ({text})"
    return f"{name}: {text}"


def _policy(args: argparse.Namespace) -> int:
    game, solution, seconds = _solved(args)
    table = solution.policy
    if args.optimal_only:
        table = table.filter(table["optimal"])
    if args.out:
        mdp.write_table(table, args.out)
    elif not args.json:
        table.write_csv(sys.stdout)
    if args.json:
        _print_json({**_summary(game, solution, seconds), "rows": table.height,
                     "columns": table.columns, "out": args.out})
    elif args.out:
        print(f"{table.height:,} rows written to {args.out}", file=sys.stderr)
    return 0


def _variants(args: argparse.Namespace) -> int:
    if args.variant:
        raise MdpError("mdp variants solves every variant; --variant does not apply")
    variants = mdp.load_game(args.game).variants()
    if not variants:
        raise MdpError(f"game {args.game} has no named variants")
    rows = []
    for variant in variants:
        name = variant.name
        game, solution, seconds = _solved(args, variant=name)
        summary = _summary(game, solution, seconds)
        summary["rules"] = variant.rules
        rows.append(summary)
        if not args.json:
            value = _value_line(game, solution).partition(": ")[2]
            exact = f"  = {summary['exact']}" if solution.exact else ""
            print(f"{name:<16} {value}{exact}\n{'':<16} {summary['rules']}", flush=True)
    if args.json:
        _print_json(rows)
    return 0


def _params(args: argparse.Namespace) -> int:
    game = mdp.load_game(args.game)
    rows = [{"name": p.name, "default": p.shown(p.default), "help": p.help} for p in game.declared]
    if args.json:
        _print_json(rows)
        return 0
    width = max(len(row["name"]) for row in rows) if rows else 0
    for row in rows:
        default = "(unset)" if row["default"] is None else row["default"]
        print(f"{row['name']:<{width}}  {row['help']} [default: {default}]")
    return 0


def _games(args: argparse.Namespace) -> int:
    for name in mdp.available_games():
        print(name)
    return 0


def _print_json(data: Any) -> None:
    import json  # only when asked for: every millisecond of start-up shows on small games

    print(json.dumps(data, default=str))


class _Version(argparse.Action):
    """Looks the version up only when asked: package metadata is slow to import."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            parser.exit(message=f"mdp {version('mdp')}\n")
        except PackageNotFoundError:
            parser.exit(message="mdp (not installed)\n")


if __name__ == "__main__":
    sys.exit(main())
