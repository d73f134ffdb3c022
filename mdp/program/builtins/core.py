"""mdp's commands about a game as a whole (``solve``, ``variants``, ``params``, ``games``,
``formats``), registered through the same hooks as any plugin's (see
:mod:`mdp.program.registry`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import mdp
from mdp.analysis.builtins.targets import add_at_least, solve_at_least
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, TooLarge, fault
from mdp.game.load import GAMES_ENTRY_POINTS
from mdp.game.params import check_default
from mdp.game.plugins import clash, entry_points, load
from mdp.hookspecs import hookimpl
from mdp.outputs.readable import value_line
from mdp.program import arguments
from mdp.program.registry import Command
from mdp.shown import one_line

# Commands.


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    arguments.add_json_argument(parser)
    arguments.add_vary_argument(parser)
    add_at_least(parser)


def _variants_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser, without=("variant",))  # it solves every one
    arguments.add_json_list_argument(parser)


def _solve(args: argparse.Namespace) -> None:
    fmt = arguments.check_table_options(args)
    if args.total is not None:  # --at-least T
        solve_at_least(args)
        return
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
    print(value_line(solution))
    if solution.exact:
        print(f"exact: {summary['exact']}")
    if "rounds" in summary:
        from mdp.engine.rounds.model import extent  # here: --help imports no NumPy

        print(f"{extent(summary['round_states'], summary['rounds'], summary['states'])}, "
              f"solved in {summary['seconds']:.3f} s")
    else:
        print(f"{summary['states']:,} states, solved in {summary['seconds']:.3f} s")


def _variants(args: argparse.Namespace) -> None:
    # Here: listing the commands needs no NumPy.
    from mdp.analysis.strategy import find_strategy
    from mdp.engine.checks import a_game
    from mdp.engine.compile import check_size
    from mdp.game.variants import find_variant

    game = arguments.load(args)
    a_game(game)
    variants = game.variants()
    if not variants:  # named as every other message names it: by the game's own name
        raise ParamError(f"game {game.name} has no named variants")
    # Every variant loaded, and its size checked, before the first is solved; a --set that
    # one variant's rules refuse is named with that variant.
    games = [_variant(args, variant.name) for variant in variants]
    for variant, game in zip(variants, games):
        try:
            check_size(game, max_states=args.max_states, max_memory=args.max_memory or "default")
            if args.strategy not in (None, "optimal"):
                find_strategy(game, args.strategy)
        except (TooLarge, ParamError) as error:  # which of them, as a refusal of its rules names it
            raise type(error)(f"{_named(variant)}: {error}") from None
    rows: list[dict[str, Any]] = []
    for variant, game in zip(variants, games):
        try:
            game, solution = arguments.solved(args, game)
        except ModelError as error:  # the rules of one variant make a wrong model: which
            raise ModelError(f"{_named(variant)}: {error}") from None
        summary = solution.summary()
        played, _, _ = value_line(solution).partition(": ")
        if not rows and not args.json and played != solution.objective.name:
            print(f"{played}, under each variant:")  # a strategy, or the other sense
        # With --set on top, the variant's own words no longer say what was solved.
        # The rules of the load that set the parameters: one answer of mdp_variants per row.
        summary["rules"] = game.describe() if args.params else \
            find_variant(game.name, game.variants(), variant.name).rules
        rows.append(summary)
        if not args.json:
            value = value_line(solution).partition(": ")[2]
            exact = f"  = {summary['exact']}" if solution.exact else ""
            print(f"{variant.name:<16} {value}{exact}\n{'':<16} {summary['rules']}", flush=True)
    if args.json:
        arguments.print_json(rows)


def _named(variant: mdp.Variant) -> str:
    """A variant as a refusal of its rules names it: ``variant huge (rolls=100000000)``."""
    rules = ", ".join(f"{k}={v}" for k, v in variant.params.items())
    return f"variant {variant.name}{f' ({rules})' if rules else ''}"


def _variant(args: argparse.Namespace, name: str) -> mdp.Game:
    """Variant ``name`` of the command's game with its --set on top; a refusal names it."""
    try:
        return arguments.load(args, name)
    except ParamError as error:
        if not args.params or str(error).startswith(f"variant {name} "):  # named already
            raise
        raise ParamError(f"variant {name}: {error}") from None


def _params_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game folder or file, or an installed game's name")
    arguments.add_json_list_argument(parser)


def _params(args: argparse.Namespace) -> None:
    from mdp.engine.checks import a_game  # here: listing the commands needs no NumPy

    game = mdp.load_game(args.game, plugins=arguments.plugins(args))
    a_game(game)
    rows: list[dict[str, Any]] = [{"name": p.name, "default": None if p.default is None else
             p.shown(check_default(f"game {game.name}", p)), "help": p.help} for p in game.declared]
    if args.json:
        arguments.print_json(rows)
        return
    if not rows:  # (said, where an empty screen would leave the user wondering)
        print(f"game {game.name} has no parameters")
        return
    width = max((len(row["name"]) for row in rows), default=0)
    for row in rows:
        default = "(unset)" if row["default"] is None else row["default"]
        print(f"{row['name']:<{width}}  {row['help']} [default: {default}]")


def _games(args: argparse.Namespace) -> None:
    offered = entry_points(GAMES_ENTRY_POINTS)
    rows = []
    for name in mdp.available_games():
        clashed = clash(GAMES_ENTRY_POINTS, name, "it")
        try:  # the first line of the game module's docstring: importing is the only way
            description = f"({clashed})" if clashed else _docstring(load(offered[name]))
        except PLUGIN_FAULTS as error:  # one broken game must not hide the rest
            description = f"(cannot be loaded: {fault(error)})"
        rows.append({"name": name, "description": description})
    if args.json:
        arguments.print_json(rows)
        return
    width = max((len(row["name"]) for row in rows), default=0)
    for row in rows:
        print(f"{row['name']:<{width}}  {one_line(row['description'])}".rstrip())


def _docstring(module: Any) -> str:
    """The first line of a game module's docstring; read from its source where Python was
    told to drop docstrings (``python -OO``, ``PYTHONOPTIMIZE=2``). Printed with its control
    characters as escapes (:func:`mdp.shown.one_line`), as every text a game gives is."""
    text = getattr(module, "__doc__", None)
    if text is None and sys.flags.optimize >= 2 and getattr(module, "__file__", None):
        import ast
        import tokenize

        try:  # in the encoding its source declares, as Python reads it
            with tokenize.open(module.__file__) as source:
                text = ast.get_docstring(ast.parse(source.read()))
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            text = None
    return (text or "").strip().partition("\n")[0]


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
