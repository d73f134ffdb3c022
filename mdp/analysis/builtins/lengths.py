"""mdp's analysis ``lengths``: how long games last, registered as a built-in plugin like
the others of :mod:`mdp.analysis.builtins.analyses`, whose options it shares."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import mdp
from mdp.analysis.builtins import options
from mdp.analysis.builtins.against import AGAINST, against_check, against_model, matched
from mdp.analysis.builtins.analyses import _draw, _plot
from mdp.analysis.registry import Analysis
from mdp.game.params import Param
from mdp.game.parsers import parse_choice, parse_int
from mdp.hookspecs import hookimpl
from mdp.outputs.readable import chances_shown, value_line

if TYPE_CHECKING:
    from mdp.analysis.lengths import Lengths
    from mdp.engine.solved import Solved


def _up_to(value: Any) -> int | None:
    return None if value is None else parse_int(1, grouped=True)(value)


def _lengths(solution: Solved, game: mdp.Game | None, count: str, up_to: int | None,
             plot: str | None, against: str | None = None) -> Lengths:
    from mdp.analysis.lengths import lengths  # here: listing the commands needs no NumPy

    solution = matched(solution, game, against)
    found = lengths(solution, count=count, up_to=up_to)  # type: ignore[arg-type]
    if plot:
        rules = game.describe() if game is not None else solution.model.info.rules
        _draw(found.table.select(count, "probability"), plot,
              f"{rules}\n{value_line(solution)}\n{count}: mean {float(found.mean):.6g}", "probability")
    return found


def _check_game(game: mdp.Game, args: argparse.Namespace) -> None:
    """``--count turns`` of a game that gives no turns at all (no mdp_turns), and
    ``--against``, once the game is loaded and before the compile."""
    if args.count == "turns" and not game.implements("mdp_turns"):
        raise mdp.ParamError(f"--count turns: game {game.name} is played by one player, whose "
                             "every move is a turn of its own: count moves")
    against_check(game, args)


def _check_model(model: mdp.CompiledModel | mdp.Rounds, args: argparse.Namespace) -> None:
    """What the lengths cannot count, refused before the solve: turns of a game of one
    player, all of an endless game's lengths exactly, another player in a game of one."""
    against_model(model, args)
    model = model.single("analysis lengths")  # an analysis of one model
    if args.count == "turns" and model.turns is None:
        raise mdp.ParamError(f"--count turns: game {model.info.game} is played by one player, "
                             "whose every move is a turn of its own: count moves")
    if args.exact and model.cyclic is not None and args.up_to is None:
        raise mdp.ParamError(f"--exact: the states of game {model.info.game} may come back, so "
                             "that games of every length can happen: count them exactly up to "
                             "a length (--up-to N), or leave out --exact")
    from mdp.analysis.lengths import check_lengths  # here: listing the commands needs no NumPy

    check_lengths(model, exact=args.exact, up_to=args.up_to)


def _show(found: Lengths, solution: Solved, game: mdp.Game) -> None:
    print(game.describe())
    print(value_line(solution))
    exact = f" = {found.mean}" if found.table.width > 2 else ""
    print(f"{found.count}: mean {float(found.mean):.6g}{exact}")
    print(f"{found.count:>8}  probability   cumulative")
    for row, (chance, total) in zip(found.table.iter_rows(named=True), chances_shown(found.table)):
        print(f"{row[found.count]:>8}  {chance}  {total}")
    if found.beyond:
        unit = found.count if found.counted != 1 else found.count[:-1]  # 1 move, 2 moves
        exact = f" = {found.beyond}" if found.table.width > 2 else ""
        print(f"longer than {found.counted} {unit}: {float(found.beyond):.6g}{exact}")


LENGTHS = Analysis(
    "lengths", "the chance a game lasts each number of moves, or of turns", _lengths,
    [Param("count", "moves", parse_choice(["moves", "turns"]),
           "what to count: moves (every action taken), or turns (a game two players take in "
           "turns: the first turn is 1, each passing of the turn starts the next)"),
     Param("up_to", None, _up_to, "count lengths up to N at most, the rest as the chance of "
           "lasting longer (default: every length of a game without cycles); in floats, where "
           "states come back, until less than one game in a billion goes on", metavar="N"),
     _plot("the chance"), AGAINST],
    "Push the chance of every state forward a move at a time and print the chance that the "
    "game ends after each number of moves (or turns, --count turns), with the mean (optimal "
    "play, or --strategy, against --against), exactly with --exact.",
    table=lambda found: found.table, check=options.check_plot, check_game=_check_game,
    check_model=_check_model,
    summary=lambda found, solution: {**solution.summary(), **found.summary()}, show=_show)


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [LENGTHS]
