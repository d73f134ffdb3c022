"""The one road from a solve to every analysis: what any solution answers, whatever kind
of model it solved (:class:`mdp.Solution` of one model, :class:`mdp.RoundsSolution` of a
game of rounds). Analyses and outputs read a solution through this protocol alone; what a
kind cannot answer, it refuses itself (:meth:`Solved.single`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import polars as pl

    from mdp.engine.solution import Located, Solution
    from mdp.game.load import Game


@runtime_checkable
class Solved(Protocol):
    """What a solution of any kind answers."""

    @property
    def model(self) -> Any:
        """What was solved: a :class:`mdp.CompiledModel` or a :class:`mdp.Rounds`."""

    @property
    def sense(self) -> Any:
        """``"max"`` or ``"min"``."""

    @property
    def seconds(self) -> float:
        """How long the solve took (without compiling)."""

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""

    @property
    def value(self) -> float | Fraction:
        """The value of the game from its start."""

    @property
    def objective(self) -> Any:
        """What the value is of (an :class:`mdp.Objective`): the game's, unless it was
        solved with terminal values of its own."""

    @property
    def terminal(self) -> Any:
        """The terminal values it was solved with where they are not the game's; else
        ``None``."""

    @property
    def strategy(self) -> str | None:
        """The name of the strategy played; ``None`` for optimal play."""

    @property
    def steered(self) -> bool:
        """Whether its play went the way its sense says: optimal play, or a strategy that
        plays toward aims; a strategy of weights goes neither way."""

    def summary(self) -> dict[str, Any]:
        """The solve in one JSON-ready dict, as ``mdp solve --json`` prints it."""

    def extent(self) -> str:
        """The size of what was solved, in words."""

    def fixed(self) -> Self:
        """Optimal play fixed as a strategy: the first optimal action of each state."""

    def single(self, what: str) -> Solution[Any]:
        """Itself where it is the solution of one model; else refuse ``what`` (work that
        reads one model) with :class:`mdp.errors.InRounds`."""

    def at(self, key: int | None = None) -> Solution[Any]:
        """The solution of the one model played at a position: a game of rounds' round
        played from round state ``key`` (the start if ``None``); a game of one model, itself."""

    def locate(self, game: Game, columns: dict[str, Any]) -> Located:
        """Where COLUMN=VALUE ``columns`` say the game is: the one model played there and
        the columns left to name a state of it."""

    def simulated(self, game: Game | None, games: int, seed: int | None,
                  tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray, pl.DataFrame]:
        """``games`` games played at random: the value of each outcome reached, how many
        games ended there, and the outcomes as a table (outcome columns, ``games``)."""

    def chances(self, game: Game | None = None, tie_break: Sequence[Any] = (),
                progress: Callable[[str], None] | None = None,
                max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
        """The chance of every outcome (:func:`mdp.distribution`)."""

    def spread(self, frame: pl.DataFrame) -> dict[str, Any]:
        """What :meth:`chances` adds for ``--json``: a total's mean, spread and percentiles
        where outcomes are points; else nothing."""

    def shown(self, by: Any) -> Any:
        """What an output that shows each kind its own way makes of it (the page of ``mdp
        report``): ``by.model(self)`` for a solution of one model, ``by.rounds(self)`` for a
        game of rounds. The kind chooses; the output never asks which it holds."""

    def policy_pieces(self, game: Game | None, within: Any,
                      table: Callable[[Solution[Any], dict[str, Any]], Any]) -> Any:
        """The policy table (:func:`mdp.policy_pieces`): ``table(solution, columns)`` makes
        the rows of one model's solution, each beside ``columns``."""
