"""mdp's commands beyond the optimal value: ``distribution``, ``simulate``, ``strategies``
and ``advise``, registered as a built-in plugin (see :mod:`mdp.program.registry`). Each is one
call in Python; these commands only format the answer."""

from __future__ import annotations

import argparse
import sys

import mdp
from mdp.program import arguments
from mdp.errors import MdpError, ParamError
from mdp.program.registry import Command
from mdp.game.hookspecs import hookimpl
from mdp.game.params import parse_assignments


def _tie_break_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tie-break", action="append", default=[], metavar="[max:|min:]COLUMN",
                        help="among optimal actions, keep those best for this column of the "
                        "terminal states (maximized unless min:); repeatable; then the game's "
                        "first action is taken")


def _table_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    _tie_break_argument(parser)
    arguments.add_json_argument(parser)
    arguments.add_output_arguments(parser)


def _percent(value: float) -> str:
    return f"{100 * value:9.4f}%"


# mdp distribution


def _distribution_arguments(parser: argparse.ArgumentParser) -> None:
    _table_arguments(parser)
    parser.add_argument("--plot", metavar="FILE", help="draw the chance of each outcome and the "
                        "cumulative chance to FILE (.png or .svg; needs the extra [plot])")


def _distribution(args: argparse.Namespace) -> None:
    fmt = arguments.output_format(args) if args.out or args.format else None
    if args.plot:
        from mdp.outputs.files import check_target

        check_target(args.plot)
    game, solution = arguments.solved(args)
    frame = mdp.distribution(solution, game, tie_break=args.tie_break)
    if args.plot:
        from mdp.outputs.plot import plot_distribution

        plot_distribution(frame, args.plot, f"{game.describe()}\n{arguments.value_line(solution)}")
    if fmt is not None:
        arguments.emit(frame, args, fmt)
    if args.json:
        arguments.print_json({**solution.summary(), "outcomes": frame.to_dicts()})
    elif fmt is None or args.out:
        print(game.describe())
        print(arguments.value_line(solution))
        names = [c for c in frame.columns if c not in ("probability", "exact")]
        print("  ".join(f"{n:>8}" for n in names) + "  probability   cumulative")
        total = 0.0
        for row in frame.iter_rows(named=True):
            total += row["probability"]
            print("  ".join(f"{row[n]!s:>8}" for n in names)
                  + f"  {_percent(row['probability'])}  {_percent(min(total, 1.0))}")


# mdp simulate


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    _table_arguments(parser)
    parser.add_argument("--games", type=arguments._positive, required=True, metavar="N",
                        help="the number of games to play")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the random numbers: the "
                        "same seed, the same numbers")


def _simulate(args: argparse.Namespace) -> None:
    fmt = arguments.output_format(args) if args.out or args.format else None
    game, solution = arguments.solved(args)
    result = mdp.simulate(solution, game, games=args.games, seed=args.seed, tie_break=args.tie_break)
    if fmt is not None:
        arguments.emit(result.outcomes, args, fmt)
    if args.json:
        arguments.print_json(result.summary())
    elif fmt is None or args.out:
        print(game.describe())
        print(arguments.value_line(solution))
        print(f"{result.games:,} games: mean {result.mean:.6g} "
              f"(95% confidence interval {result.low:.6g} to {result.high:.6g})")
        names = [c for c in result.outcomes.columns if c not in ("games", "frequency")]
        print("  ".join(f"{n:>8}" for n in names) + "       games   frequency")
        for row in result.outcomes.iter_rows(named=True):
            print("  ".join(f"{row[n]!s:>8}" for n in names)
                  + f"  {row['games']:>10,}  {_percent(row['frequency'])}")


# mdp strategies


def _strategies_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    arguments.add_json_argument(parser)


def _strategies(args: argparse.Namespace) -> None:
    if args.strategy:
        raise ParamError("mdp strategies evaluates every strategy; --strategy does not apply")
    game = arguments.load(args)
    model = arguments.compiled(args, game)
    frame = mdp.strategy_values(model, game, exact=args.exact, sense=args.sense)
    if args.json:
        arguments.print_json(frame.to_dicts())
        return
    print(game.describe())
    width = max(len(name) for name in frame["strategy"])
    for row in frame.iter_rows(named=True):
        exact = f"  = {row['exact']}" if "exact" in row else ""
        print(f"{row['strategy']:<{width}}  {row['value']:.10f}{exact}  {row['help']}")


# mdp advise


def _advise_arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser)
    parser.add_argument("state", nargs="+", metavar="COLUMN=VALUE",
                        help='the state, by its columns as the policy table shows them, e.g. '
                        'open="1 2 3 5 8" roll=9')
    parser.add_argument("--after", action="append", metavar="RESULT",
                        help="advise the next player of a match, who plays for money after a "
                        "player whose result was RESULT (repeat for each earlier player)")
    arguments.add_json_argument(parser)


def _advise(args: argparse.Namespace) -> None:
    try:
        columns = parse_assignments(args.state)
    except ParamError:
        raise ParamError(f"state {' '.join(args.state)!r}: expected COLUMN=VALUE ...") from None
    if args.after:
        if args.strategy or args.sense:
            raise ParamError("--after advises a player of a match, who plays for money: "
                             "--strategy, --maximize and --minimize do not apply")
        game = arguments.load(args)
        model = arguments.compiled(args, game)
        money = mdp.later_player_values(game, model, args.after, exact=args.exact)
        solution = mdp.solve(model, terminal=money, exact=args.exact, sense="max")
    else:
        game, solution = arguments.solved(args)
    advice = mdp.advise(solution, game, **columns)
    if args.json:
        arguments.print_json(advice.summary())
        return
    print(game.describe())
    if args.after:
        outcome = mdp.match_rules(game).outcome
        print(f"player {len(args.after) + 1}, after "
              + ", ".join(f"player {k}'s {outcome} {r}" for k, r in enumerate(args.after, start=1))
              + f": expected winnings {float(solution.value):.6g}")
    print("state: " + ", ".join(f"{k} {v}" for k, v in advice.state.items() if v is not None))
    if not advice.actions.height:
        print("no actions: the game is over")
        return
    names = [c for c in advice.actions.columns
             if c not in ("value", "value_exact", "regret", "optimal", "probability")]
    print("  ".join(f"{n:>10}" for n in names) + "         value        regret")
    for row in advice.actions.iter_rows(named=True):
        mark = "  optimal" if row["optimal"] else ""
        print("  ".join(f"{row[n]!s:>10}" for n in names)
              + f"  {row['value']:.10f}  {row['regret']:.10f}{mark}")


@hookimpl
def mdp_commands() -> list[Command]:
    return [
        Command("distribution", "the chance of every outcome under a way of playing",
                _distribution, _distribution_arguments,
                "Push the chance of reaching each state forward through the game and print the "
                "chance of every outcome (optimal play, or --strategy), exactly with --exact."),
        Command("simulate", "play many games at random and count their outcomes", _simulate,
                _simulate_arguments, "Play N games by sampling the game's transitions, all "
                "games at once, and print the mean value with a 95% confidence interval and "
                "the outcome frequencies."),
        Command("strategies", "the game's named strategies, with their values", _strategies,
                _strategies_arguments, "Evaluate each strategy the game names, exactly with "
                "--exact, and print its value beside the optimum."),
        Command("advise", "every action of one state, best first", _advise, _advise_arguments,
                "Name a state by its columns and print every action there, best first, with "
                "its value, its regret and whether it is optimal."),
    ]



