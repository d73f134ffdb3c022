"""The ``match`` analysis: players take turns at a game, for money (a built-in plugin, see
:mod:`mdp.analysis.registry`), with ``--vary`` for a table over rule sets, fairest first."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mdp
from mdp.analysis.builtins import options
from mdp.analysis.registry import Analysis
from mdp.game.params import Param
from mdp.game.parsers import parse_int
from mdp.hookspecs import hookimpl
from mdp.outputs.readable import DIGITS
from mdp.shown import percent, stake_percent

if TYPE_CHECKING:
    import polars as pl

    from mdp.analysis.match import Match
    from mdp.engine.model import CompiledModel
    from mdp.engine.policy import Sense
    from mdp.game.load import Game


def _match(model: CompiledModel, game: Game, *, exact: bool, sense: Sense | None,
           progress: Callable[[str], None] | None, players: int, max_memory: int | None) -> Match:
    # A match is played for money: the sense of a solve does not apply.
    return mdp.match(model, game, players=players, exact=exact, progress=progress,
                     max_memory=max_memory or "default")


def _table(result: Match) -> pl.DataFrame:
    """A match as a table: ``player``, ``value`` (expected winnings) and, in exact mode,
    ``exact`` (``"p/q"``)."""
    import polars as pl  # here: listing the commands imports no Polars

    players = result.summary()["players"]
    exact = {"exact": pl.String} if result.exact else {}
    wins = {} if result.wins is None else \
        {"wins": pl.Float64, **({"wins_exact": pl.String} if result.exact else {})}
    return pl.DataFrame(players, schema={"player": pl.Int64, "value": pl.Float64, **exact, **wins})


def _match_table(spec: Any, vary: Mapping[str, Sequence[Any]], **settings: Any) -> pl.DataFrame:
    return mdp.match_table(spec, vary, **settings)


def _check(args: argparse.Namespace) -> None:
    from mdp.analysis.match import check_players  # here: listing the commands needs no NumPy

    check_players(args.players)


def _winnings(value: Any) -> str:
    """A player's winnings with their sign, to 15 digits; an exact value that no float holds
    by its size (``+1e-800``, never the float's ``+0``)."""
    from mdp.engine.numeric import about, float_or_none

    if float_or_none(value) is None:
        return f"{'-' if value < 0 else '+'}{about(abs(value))}"
    return f"{float(value):+.{DIGITS}g}"


def _show(result: Match, model: CompiledModel, game: Game) -> None:
    from mdp.analysis.match_rules import match_params  # here: listing the commands needs no NumPy

    summary = result.summary()
    print(summary["rules"])
    read = match_params(game)  # the rules only a match reads, checked (none: in rounds)
    if read:
        shown = game.shown_params()
        print("match rules: " + ", ".join(f"{name}={shown[name]}" for name in read))
    for player, value in zip(summary["players"], result.values):
        exact = f"  = {player['exact']}" if result.exact else ""
        print(f"player {player['player']}: {_winnings(value)} "
              f"({stake_percent(value)} of the stake){exact}")
    if result.wins is not None:  # a game of rounds: the higher total wins
        print(f"both play for money, player 2 knowing player 1's total; the "
              f"{'lower' if model.info.objective.sense == 'min' else 'higher'} total wins")
        exacts = [p.get("wins_exact") for p in summary["players"]] + [summary.get("ties_exact")]
        for name, chance, exact in zip(("player 1 wins", "player 2 wins", "a tie"), result.wins,
                                       exacts):
            print(f"{name}: {percent(chance)}" + (f"  = {exact}" if exact else ""))
    print(f"played in {summary['seconds']:.3f} s")


MATCH = Analysis(
    "match", "each player's expected winnings when players take turns at a game", _match,
    [Param("players", 2, parse_int(2, grouped=True), "the number of players", metavar="N"),
     Param("max_memory", None, options.size, "a game of rounds: the most bytes that the "
           "vectors over the totals may take (default: as a model compiled, --max-memory)",
           shared=True)],
    "Players take turns at the game, each knowing the earlier players' results and playing "
    "optimally for money under the game's match rules; print each player's expected "
    "winnings. With --vary, a table over rule sets, fairest first.",
    needs="model", optimizes=False, table=_table, check=_check, rounds=True,
    check_game=lambda game, args: _played_in_matches(game, args),
    summary=lambda result, model: result.summary(), show=_show, vary=_match_table)


def _played_in_matches(game: Game, args: argparse.Namespace) -> None:
    """A game with match rules, or a game of rounds (the higher total wins) of two players."""
    if game.in_rounds:
        if args.players != 2:
            from mdp.errors import ParamError

            raise ParamError(f"a match of a game of rounds is of 2 players, not {args.players}: "
                             "the second plays knowing the first's total")
        return
    mdp.match_rules(game)


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [MATCH]
