"""mdp's own output formats, the ``policy`` analysis and the commands about a game as a whole
(``solve``, ``variants``, ``params``, ``games``, ``formats``), registered through the same
hooks as any plugin's (see :mod:`mdp.program.registry`)."""

from __future__ import annotations

import argparse

import mdp
from mdp.errors import PLUGIN_FAULTS, MdpError, ParamError, fault
from mdp.game.load import GAMES_ENTRY_POINTS
from mdp.game.params import Param, parse_assignments, parse_flag
from mdp.game.plugins import entry_points, load
from mdp.hookspecs import hookimpl
from mdp.outputs.readable import readable_table
from mdp.program import arguments
from mdp.program.registry import Analysis, Command

# Formats. Their writers are Polars' methods, called on the frame: listing the formats (and
# the commands) imports no Polars.


MARKDOWN_ROWS = 100_000
"""Rows a Markdown table may have: it is for people to read, and its writer holds it whole
(a larger table: CSV or Parquet)."""


def _markdown(frame, file) -> None:
    import polars as pl  # here: only a Markdown table needs Polars' settings

    if frame.height > MARKDOWN_ROWS:
        raise mdp.TooLarge(f"a Markdown table of {frame.height:,} rows is too large to read (at "
                           f"most {MARKDOWN_ROWS:,}); write CSV or Parquet (--out FILE.csv)")
    frame = readable_table(frame)  # for people: 4.25, not 4.249999999999999; no word null
    with pl.Config(tbl_formatting="MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=1000):
        file.write(f"{frame}\n".encode())


def _markdown_pieces(pieces, file) -> None:
    _markdown(pieces.frame(MARKDOWN_ROWS, "for a Markdown table, which is for people to read; "
                                          "write CSV or Parquet (--out FILE.csv)"), file)


def _csv_pieces(pieces, file) -> None:
    first = True
    for piece in pieces:
        piece.write_csv(file, include_header=first)
        first = False
    if first:  # no rows: the header alone
        pieces.empty().write_csv(file)


def _ndjson_pieces(pieces, file) -> None:
    for piece in pieces:
        piece.write_ndjson(file)


def _json_pieces(pieces, file) -> None:
    """One JSON array, as Polars writes a whole table: its pieces' rows joined."""
    file.write(b"[")
    first = True
    for piece in pieces:
        rows = piece.write_json()[1:-1]
        if rows:
            file.write((rows if first else "," + rows).encode())
            first = False
    file.write(b"]")


PARQUET = {"compression": "zstd", "compression_level": 1}
"""Parquet's compression: zstd at its quickest level, a tenth larger than Polars' default
level and a third quicker to write (a policy of millions of rows)."""


def _parquet(frame, file) -> None:
    frame.write_parquet(file, **PARQUET)


def _parquet_pieces(pieces, file) -> None:
    """Through Polars' streaming engine: each piece written as it is made."""
    from polars.io.plugins import register_io_source

    register_io_source(lambda *_: iter(pieces), schema=pieces.schema).sink_parquet(file, **PARQUET)


@hookimpl
def mdp_formats() -> list[mdp.Format]:
    return [
        mdp.Format("csv", (".csv",), lambda frame, file: frame.write_csv(file),
                   "comma-separated values, a header row first", stream=_csv_pieces),
        mdp.Format("parquet", (".parquet",), _parquet,
                   "Apache Parquet: compact, typed, fast to read back", binary=True,
                   stream=_parquet_pieces),
        mdp.Format("json", (".json",), lambda frame, file: frame.write_json(file),
                   "one JSON array of row objects", stream=_json_pieces),
        mdp.Format("ndjson", (".ndjson", ".jsonl"), lambda frame, file: frame.write_ndjson(file),
                   "one JSON object per line", stream=_ndjson_pieces),
        mdp.Format("markdown", (".md",), _markdown, "a Markdown table, for people and documents",
                   stream=_markdown_pieces),
    ]


# Analyses.


def _policy(solution, game, optimal_only: bool, within=None):
    return mdp.policy_pieces(solution, game, optimal_only, within)


def _within(value):
    """Where in a game of rounds: ``"all"``, round columns as a dict, or COLUMN=VALUE texts
    in one line (``'filled="ones twos" upper=5'``)."""
    if value is None or value == "all" or isinstance(value, dict):
        return value
    import shlex

    try:
        return parse_assignments(shlex.split(str(value)))
    except (ParamError, ValueError):
        raise ParamError(f"within {value!r}: expected all, or the round columns of round "
                         "states as COLUMN=VALUE ...") from None


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [Analysis(
        "policy", "the optimal policy, as a table", _policy,
        [Param("optimal_only", False, parse_flag, "keep only optimal actions"),
         Param("within", None, _within, "a game of rounds: the policy within the round at "
               "every round state (all), or at those whose round columns have these values "
               "('COLUMN=VALUE ...', as mdp advise names them); without it, the value of "
               "every round state")],
        "Solve a game and write every decision with the value of each action, whether it is "
        "optimal, and its regret; for a game of rounds, the value of every round state, or "
        "with --within the policy within the round.", rounds=True)]


# Commands.


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    arguments.add_json_argument(parser)
    arguments.add_vary_argument(parser)


def _variants_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    arguments.add_json_list_argument(parser)


def _solve(args: argparse.Namespace) -> None:
    fmt = arguments.check_table_options(args)
    if args.vary:
        frame = arguments.vary_table(args, mdp.solve_table, sense=args.sense)
        arguments.write_vary_table(frame, args, fmt)
        return
    _, solution = arguments.solved(args)
    summary = solution.summary()
    if args.json:
        arguments.print_json(summary)
        return
    print(summary["rules"])
    print(arguments.value_line(solution))
    if solution.exact:
        print(f"exact: {summary['exact']}")
    if "rounds" in summary:
        print(f"{summary['round_states']:,} round states over {summary['rounds']} rounds, a "
              f"round of {summary['states']:,} states, solved in {summary['seconds']:.3f} s")
    else:
        print(f"{summary['states']:,} states, solved in {summary['seconds']:.3f} s")


def _variants(args: argparse.Namespace) -> None:
    if args.variant:
        raise MdpError("mdp variants solves every variant; --variant does not apply")
    game = arguments.load(args)
    variants = game.variants()
    if not variants:  # named as every other message names it: by the game's own name
        raise MdpError(f"game {game.name} has no named variants")
    rows = []
    for variant in variants:
        game, solution = arguments.solved(args, arguments.load(args, variant.name))
        summary = solution.summary()
        # With --set on top, the variant's own words no longer say what was solved.
        summary["rules"] = game.describe() if args.params else variant.rules
        rows.append(summary)
        if not args.json:
            value = arguments.value_line(solution).partition(": ")[2]
            exact = f"  = {summary['exact']}" if solution.exact else ""
            print(f"{variant.name:<16} {value}{exact}\n{'':<16} {summary['rules']}", flush=True)
    if args.json:
        arguments.print_json(rows)


def _params_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game folder or file, or an installed game's name")
    arguments.add_json_list_argument(parser)


def _params(args: argparse.Namespace) -> None:
    game = mdp.load_game(args.game, plugins=arguments.plugins(args))
    rows = [{"name": p.name, "default": p.shown(p.default), "help": p.help} for p in game.declared]
    if args.json:
        arguments.print_json(rows)
        return
    width = max((len(row["name"]) for row in rows), default=0)
    for row in rows:
        default = "(unset)" if row["default"] is None else row["default"]
        print(f"{row['name']:<{width}}  {row['help']} [default: {default}]")


def _games(args: argparse.Namespace) -> None:
    offered = entry_points(GAMES_ENTRY_POINTS)
    rows = []
    for name in mdp.available_games():
        try:  # the first line of the game module's docstring: importing is the only way
            description = (load(offered[name]).__doc__ or "").strip().partition("\n")[0]
        except PLUGIN_FAULTS as error:  # one broken game must not hide the rest
            description = f"(cannot be loaded: {fault(error)})"
        rows.append({"name": name, "description": description})
    if args.json:
        arguments.print_json(rows)
        return
    width = max((len(row["name"]) for row in rows), default=0)
    for row in rows:
        print(f"{row['name']:<{width}}  {row['description']}".rstrip())


def _formats(args: argparse.Namespace) -> None:
    rows = [{"name": f.name, "extensions": list(f.extensions), "help": f.help}
            for f in mdp.formats().values()]
    if args.json:
        arguments.print_json(rows)
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        print(f"{row['name']:<{width}}  {' '.join(row['extensions']):<16} {row['help']}")


@hookimpl
def mdp_commands() -> list[Command]:
    return [
        Command("solve", "the value of a game under optimal play", _solve, _solve_arguments,
                "Solve a game and print the value of its initial state under optimal play."),
        Command("variants", "every named rule set of a game, with its value", _variants,
                _variants_arguments, "Solve each named variant of a game (with any --set applied "
                "on top) and print its rules and value."),
        Command("params", "the rule parameters of a game, with their defaults", _params,
                _params_arguments, "List the parameters a game takes with --set: name, "
                "default and meaning."),
        Command("games", "list installed games, with a line on each", _games,
                arguments.add_json_list_argument, "List the games installed by name, each with "
                "the first line of its description."),
        Command("formats", "the output formats for tables", _formats, arguments.add_json_list_argument,
                "List the formats that --out and --format write: name, file extensions and "
                "what it is."),
    ]
