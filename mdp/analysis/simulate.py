"""Playing many games at random: all games advance together, one move of every game still
going at a time, by sampling the compiled model's transitions (:meth:`~mdp.CompiledModel.sample`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.analysis.distribution import group, outcome_columns, playing
from mdp.checks import OPTIONAL_GAME, PLAY, TIE_BREAK, arguments
from mdp.engine.parallel import side_by_side
from mdp.engine.policy import Policy
from mdp.engine.rounds import RoundsSolution
from mdp.engine.solution import Solution
from mdp.errors import ParamError, TooLarge
from mdp.game.columns import round_columns, to_frame
from mdp.limits import MAX_GAMES

if TYPE_CHECKING:
    from mdp.game.load import Game

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution: the interval is mean +- Z95 * SE."""

CHUNK = 1 << 20
"""Games played together: memory stays small and the arrays stay in cache. Fixed, so that the
same seed gives the same numbers."""


@attrs.frozen
class Simulation:
    """What :func:`simulate` found."""

    games: int
    seed: int | None
    mean: float
    """The mean terminal value over the games (the share of games won, for a chance to win)."""
    low: float
    high: float
    """The 95% confidence interval of the mean: Wilson's score interval where every game ends
    at 0 or 1 (a chance: the interval stays within 0 and 1, however few the games), else
    mean +- 1.96 standard errors, within the least and greatest value a game ended at."""
    outcomes: pl.DataFrame = attrs.field(repr=False)
    """Games and their share by outcome: the outcome columns, ``games`` and ``frequency``."""
    sd: float = 0.0
    """The standard deviation of the value a game ended at."""
    percentiles: dict[str, float] = attrs.field(factory=dict)
    """The value below which 5%, 25%, 50%, 75% and 95% of the games ended (the least value
    that at least that share of games did not pass): for a game of rounds, its points."""

    def shares(self, column: str) -> pl.DataFrame:
        """The share of games at each value of one outcome column, whatever the others:
        ``column`` and ``probability`` (its estimate), in the column's order."""
        return self.outcomes.group_by(column).agg(probability=pl.col("frequency").sum()).sort(column)

    def summary(self) -> dict[str, Any]:
        """As ``mdp simulate --json`` prints it."""
        return {"games": self.games, "seed": self.seed, "mean": self.mean, "low": self.low,
                "high": self.high, "sd": self.sd, "percentiles": self.percentiles,
                "outcomes": self.outcomes.to_dicts()}


def simulate(how: Solution | Policy | RoundsSolution, game: Game | None = None, *, games: int,
             seed: int | None = None, tie_break: Sequence[Any] = ()) -> Simulation:
    """Play ``games`` games as ``how`` says (a :class:`mdp.Policy`, or a solution's play: its
    strategy, or optimal play with ties broken as :func:`mdp.choices` does) and report the
    mean value with its 95% confidence interval and how often each outcome came (by the
    game's outcome columns). A game of rounds (a :class:`mdp.RoundsSolution`) is played
    optimally, and its games counted by their points and the columns of the round state
    they end in. The same ``seed`` gives the same numbers."""
    arguments("simulate", how=(how, PLAY), game=(game, OPTIONAL_GAME), tie_break=(tie_break, TIE_BREAK))
    check_games(games, seed)
    if isinstance(how, RoundsSolution):
        if tie_break:
            raise ParamError("a tie-break applies to a game of one model, not to a game of rounds")
        return _simulate_rounds(how, game, games, seed)
    policy = playing(how, tie_break)
    model = policy.model
    sizes = [min(CHUNK, games - begin) for begin in range(0, games, CHUNK)]
    # A random stream per chunk, from the seed: the numbers do not depend on which thread
    # plays which chunk, and numpy lets go of the interpreter lock while a chunk is played.
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(sizes))]

    def chunk(size: int, rng: np.random.Generator) -> np.ndarray:
        ends = np.zeros(model.n_terminal, dtype=np.int64)
        state = np.full(size, model.initial, dtype=np.int64)
        while len(state) and model.initial >= model.n_terminal:
            state = model.sample(policy.draw(state, rng), rng)
            over = state < model.n_terminal
            ends += np.bincount(state[over], minlength=model.n_terminal)
            state = state[~over]
        if len(state):  # the initial state is terminal: every game is over before it starts
            ends[model.initial] += len(state)
        return ends

    # The tables of sampling and drawing, made once, not on every thread.
    model.sample(policy.draw(np.zeros(0, dtype=np.int64), streams[0]), streams[0])
    played: list[np.ndarray] = [np.zeros(0)] * len(sizes)

    def play(k: int) -> None:
        played[k] = chunk(sizes[k], streams[k])

    side_by_side(play, range(len(sizes)))
    ends = sum(played)
    values = np.asarray(model.terminal_values, dtype=np.float64)
    outcomes, counts = group(model, outcome_columns(model, game), ends)
    frame = outcomes.with_columns(games=pl.Series(counts), frequency=pl.Series(counts / games))
    return _found(games, seed, values[ends > 0], ends[ends > 0], frame)


def check_games(games: Any, seed: Any = None) -> None:
    """Refuse, before any work, a number of games that is not a whole number from 1 to
    :data:`~mdp.limits.MAX_GAMES` (past it: :class:`mdp.TooLarge`) and a seed that is not a
    whole number of 0 or more."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ParamError(f"games={games!r}: expected a whole number of 1 or more")
    if games > MAX_GAMES:
        raise TooLarge(f"games={games:,}: more than {MAX_GAMES:,} games (hours of play; a "
                       "million already gives the mean to a few parts in ten thousand)")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ParamError(f"seed={seed!r}: expected a whole number of 0 or more")


def _found(games: int, seed: int | None, values: np.ndarray, counts: np.ndarray,
           outcomes: pl.DataFrame) -> Simulation:
    """What games that ended at ``values`` (``counts`` times each) show."""
    mean = float(counts @ values) / games
    low, high = _interval(values, counts, mean, games)
    sd = math.sqrt(float(counts @ (values - mean) ** 2) / (games - 1)) if games > 1 else 0.0
    order = np.argsort(values, kind="stable")
    below = np.cumsum(counts[order])
    percentiles = {f"{p}%": float(values[order][np.searchsorted(below, p * games / 100)])
                   for p in (5, 25, 50, 75, 95)}
    return Simulation(games, seed, mean, low, high, outcomes, sd, percentiles)


def _simulate_rounds(solution: RoundsSolution, game: Game | None, games: int,
                     seed: int | None) -> Simulation:
    """Games of a game of rounds, by their points and the round state they end in."""
    rng = np.random.default_rng(seed)
    parts = []
    for begin in range(0, games, CHUNK):  # a chunk's games at a time: memory stays bounded
        points, final = solution.play(min(CHUNK, games - begin), rng)
        parts.append(pl.DataFrame({"points": points, "_key": final})
                     .group_by(["points", "_key"]).len("games"))
    played = pl.concat(parts).group_by(["points", "_key"]).agg(pl.col("games").sum())
    keys = np.unique(played["_key"].to_numpy())
    columns = (to_frame(round_columns(game, keys)) if game is not None
               else pl.DataFrame({"round_state": keys}))
    varied = [c for c in columns.columns if columns[c].n_unique() > 1]
    columns = pl.DataFrame({"_key": keys}).with_columns(columns.select(varied))
    outcomes = played.join(columns, on="_key", how="left").drop("_key")
    if (outcomes["points"] == outcomes["points"].round()).all():
        outcomes = outcomes.with_columns(pl.col("points").cast(pl.Int64))
    names = [c for c in outcomes.columns if c != "games"]
    outcomes = outcomes.select(*names, "games").sort(names)
    outcomes = outcomes.with_columns(frequency=pl.col("games") / games)
    values = outcomes["points"].cast(pl.Float64).to_numpy()
    return _found(games, seed, values, outcomes["games"].to_numpy(), outcomes)


def _interval(values: np.ndarray, counts: np.ndarray, mean: float, games: int) -> tuple[float, float]:
    """The 95% confidence interval of the mean of ``games`` games that ended at ``values``
    (``counts`` times each): see :attr:`Simulation.low`."""
    if np.isin(values, (0.0, 1.0)).all():  # a share of games: Wilson's score interval
        z2n = Z95 * Z95 / games
        centre = (mean + z2n / 2) / (1 + z2n)
        half = Z95 / (1 + z2n) * math.sqrt(mean * (1 - mean) / games + z2n / (4 * games))
        return max(0.0, centre - half), min(1.0, centre + half)
    variance = float(counts @ (values - mean) ** 2) / (games - 1) if games > 1 else 0.0
    half = Z95 * math.sqrt(variance / games)
    return max(float(values.min()), mean - half), min(float(values.max()), mean + half)

