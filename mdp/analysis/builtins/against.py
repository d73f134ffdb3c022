"""``--against``: the other player's play in a game two players take in turns, an option of
``mdp distribution``, ``mdp simulate``, ``mdp advise`` and ``mdp lengths``, declared once
here with what checks it and what plays it (:func:`mdp.evaluate` with ``against=``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import mdp
from mdp.analysis.builtins import options
from mdp.errors import ParamError
from mdp.game.params import Param

if TYPE_CHECKING:
    from mdp.engine.solved import Solved


AGAINST = Param("against", None, options.text, "a game two players take in turns: the other player "
                "plays the game's strategy NAME (or optimal), the first --strategy's (optimal "
                "where none is named)", metavar="NAME")


def matched(solution: Solved, game: mdp.Game | None, against: str | None) -> Solved:
    """The first player's play (``solution``'s) against the other's, ``against``, in a game
    two players take in turns; ``solution`` itself where no other play is named."""
    if against is None:
        return solution
    one = solution.single("a play against another")
    if one.opponent is not None and one.opponent.name == against:
        return solution  # the command has played it so already, to say its value
    return mdp.evaluate(one.model, one.policy or "optimal", game=game, exact=one.exact,
                        terminal=one.terminal, sense=one.sense, against=against)


def against_check(game: mdp.Game, args: argparse.Namespace) -> None:
    """A second player, named by --against, in a game of two (one that says whose turn it
    is: ``mdp_turns``), and their strategy one the game has: before the compile."""
    if args.against is not None and not game.implements("mdp_turns"):
        raise ParamError(_one_player(game.name))
    if args.against not in (None, "optimal"):
        from mdp.analysis.strategy import find_strategy  # here: NumPy, once a game is loaded

        find_strategy(game, args.against)


def against_model(model: mdp.CompiledModel | mdp.Rounds, args: argparse.Namespace) -> None:
    """--against names a second player: refused, before the solve, in a game of one."""
    if args.against is not None and getattr(model, "turns", None) is None:
        raise ParamError(_one_player(model.info.game))


def _one_player(game: str) -> str:
    return (f"--against names the other player's play in a game two players take in turns; "
            f"game {game} is played by one player")
