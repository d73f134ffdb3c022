"""How a game ends under a way of playing: the chance of every outcome. A solution of any
kind answers it (:meth:`mdp.engine.solved.Solved.chances`): a game of one model by the
forward pass over its model (:mod:`mdp.engine.outcomes`), a game of rounds by the chance of
every total of its points (:mod:`mdp.engine.rounds.totals`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from mdp.checks import CALLBACK, MAX_MEMORY, OPTIONAL_GAME, PLAY, TIE_BREAK, arguments
from mdp.engine.outcomes import chances, group, outcome_columns, playing, reach
from mdp.engine.policy import Policy
from mdp.engine.solved import Solved

if TYPE_CHECKING:
    from mdp.game.load import Game

__all__ = ["distribution", "group", "outcome_columns", "playing", "reach", "spread"]


def distribution(how: Solved | Policy, game: Game | None = None, *,
                 tie_break: Sequence[Any] = (), progress: Callable[[str], None] | None = None,
                 max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of every outcome that can happen, as a Polars DataFrame: the outcome
    columns (those the game names; else ``value``), ``probability`` and, for an exact
    solution, ``exact`` (``"p/q"``). The probabilities sum to 1, exactly in exact mode. An
    outcome that this play never reaches (an end only other play leads to) is left out.

    Play is ``how``: a :class:`mdp.Policy`, or a solution's (a strategy's policy, or optimal
    play with its ties broken by ``tie_break`` and then the game's order: :func:`mdp.choices`).

    A game of rounds (a :class:`mdp.RoundsSolution`) ends with the points its rounds earned:
    the outcome is ``points``, the total, followed round by round through every round state;
    ``progress`` hears how far it has got, and it takes no more memory than ``max_memory``.

    >>> mdp.distribution(mdp.solve(model, exact=True), game)   # doctest: +SKIP
    """
    arguments("distribution", how=(how, PLAY), game=(game, OPTIONAL_GAME), tie_break=(tie_break, TIE_BREAK),
              progress=(progress, CALLBACK), max_memory=(max_memory, MAX_MEMORY))
    if isinstance(how, Policy):
        return chances(how, game, tie_break)
    return how.chances(game, tie_break, progress, max_memory)


def spread(frame: pl.DataFrame, solution: Solved) -> dict[str, Any]:
    """What a distribution shows besides its chances: for a game of points (a game of
    rounds), their mean, standard deviation and percentiles; else nothing."""
    return solution.spread(frame)
