"""Playing many games at random and what they show: a solution of any kind plays them
(:meth:`mdp.engine.solved.Solved.simulated`), this counts them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.checks import OPTIONAL_GAME, PLAY, TIE_BREAK, arguments, whole
from mdp.engine.numeric import float_holds, power_of_two_above, shown_floats
from mdp.engine.outcomes import in_order, simulated
from mdp.engine.policy import Policy
from mdp.engine.solved import Solved
from mdp.errors import ParamError, TooLarge
from mdp.limits import MAX_GAMES
from mdp.shown import shown_float

if TYPE_CHECKING:
    from mdp.game.load import Game

GAMES, SEED = whole(1), whole(0, none=True)

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution: the interval is mean +- Z95 * SE."""

@attrs.frozen
class Simulation:
    """What :func:`simulate` found."""

    games: int
    seed: int | None
    mean: float
    """The mean terminal value over the games (the share of games won, for a chance to win)."""
    low: float | None
    high: float | None
    """The 95% confidence interval of the mean: for a chance (a game whose values are
    probabilities) where every game ends at 0 or 1, Wilson's score interval, which stays
    within 0 and 1 however few the games; else mean +- 1.96 standard errors (for a chance,
    within 0 and 1), and ``None`` for one game, whose spread is not measured."""
    outcomes: pl.DataFrame = attrs.field(repr=False)
    """Games and their share by outcome: the outcome columns, ``games`` and ``frequency``."""
    sd: float | None = None
    """The standard deviation of the value a game ended at (of the sample: ``None`` for one
    game)."""
    percentiles: dict[str, float | int] = attrs.field(factory=dict)
    """The value below which 5%, 25%, 50%, 75% and 95% of the games ended (the least value
    that at least that share of games did not pass): for a game of rounds, its points."""

    def shares(self, column: str) -> pl.DataFrame:
        """The share of games at each value of one outcome column, whatever the others:
        ``column`` and ``probability`` (its estimate), in the column's order."""
        return in_order(self.outcomes.group_by(column).agg(probability=pl.col("frequency").sum()), [column])

    def said(self) -> str:
        """The mean and its interval as a line says them."""
        if self.low is None or self.high is None:
            return f"mean {self.mean:.6g} (one game: no spread to measure, nor an interval)"
        return f"mean {self.mean:.6g} (95% confidence interval {self.low:.6g} to {self.high:.6g})"

    def summary(self) -> dict[str, Any]:
        """As ``mdp simulate --json`` prints it."""
        return {"games": self.games, "seed": self.seed, "mean": self.mean, "low": self.low,
                "high": self.high, "sd": self.sd, "percentiles": self.percentiles,
                "outcomes": self.outcomes.to_dicts()}


def simulate(how: Solved | Policy, game: Game | None = None, *, games: int,
             seed: int | None = None, tie_break: Sequence[Any] = ()) -> Simulation:
    """Play ``games`` games as ``how`` says (a :class:`mdp.Policy`, or a solution's play: its
    strategy, or optimal play with ties broken as :func:`mdp.choices` does) and report the
    mean value with its 95% confidence interval and how often each outcome came (by the
    game's outcome columns). A game of rounds (a :class:`mdp.RoundsSolution`) has its games
    counted by their points and the columns of the round state they end in. The same
    ``seed`` gives the same numbers."""
    arguments("simulate", how=(how, PLAY), game=(game, OPTIONAL_GAME), games=(games, GAMES),
              seed=(seed, SEED), tie_break=(tie_break, TIE_BREAK))
    games, seed = games.__index__(), None if seed is None else seed.__index__()  # numpy's too
    check_games(games, seed)  # past the bound: too large
    if isinstance(how, Policy):
        values, counts, outcomes = simulated(how, game, games, seed, tie_break)
        objective = how.model.info.objective
    else:
        values, counts, outcomes = how.simulated(game, games, seed, tie_break)
        objective = how.objective  # terminal values of its own: not the game's chance
    return counted(games, seed, values, counts, outcomes, chance=objective.probability)


def counted(games: int, seed: int | None, values: np.ndarray, counts: np.ndarray,
            outcomes: pl.DataFrame, chance: bool) -> Simulation:
    """What ``games`` games played show, that ended at ``values`` (``counts`` times each),
    by ``outcomes`` (the outcome columns and ``games``); ``chance``: the values are
    probabilities (the game's objective says so, whatever values the games met)."""
    # Each share divided as such (Polars multiplies by the reciprocal: 3 of 10 was
    # 0.30000000000000004), the float nearest games / N.
    frame = outcomes.with_columns(frequency=pl.Series(outcomes["games"].to_numpy() / games,
                                                      dtype=pl.Float64))
    return _found(games, seed, values, counts, frame, chance)


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
           outcomes: pl.DataFrame, chance: bool) -> Simulation:
    """What games that ended at ``values`` (``counts`` times each) show. Exact values (an
    object array: some no float tells apart, as 10**17 and 10**17 + 2) are measured from
    the first, exactly, so that they still spread; so are whole values (10**12 + 1 and
    10**12 + 5 spread by 2, to the last digits, as 1 and 5 do)."""
    if values.dtype.kind in "iu":
        values = values.astype(object)  # Python's ints: measured exactly
    first = values[0] if values.dtype == object else 0
    offsets = shown_floats([v - first for v in values.tolist()]) if values.dtype == object \
        else values.astype(np.float64)
    middle, sd = _moments(offsets, counts, games)
    mean = float(first + Fraction(middle)) if first else middle
    low, high = _interval(offsets, counts, middle, sd, games, chance=chance and not first)
    order = np.argsort(offsets, kind="stable")
    below = np.cumsum(counts[order])
    shares = (5, 25, 50, 75, 95)
    percentiles = dict(zip((f"{p}%" for p in shares), _shown(
        [values[order][np.searchsorted(below, p * games / 100)] for p in shares])))
    if first and low is not None and high is not None:
        low, high = float(first + Fraction(low)), float(first + Fraction(high))
    return Simulation(games, seed, mean, low, high, outcomes, sd, percentiles)


def _shown(values: list[Any]) -> list[float | int]:
    """Outcomes as percentiles say them: floats, but whole numbers (ints, whole fractions:
    a game of rounds' totals, as :func:`mdp.distribution` says them) as the ints they are
    where all are whole or one is past what a float holds (2**62 + 1, which a float makes
    2**62): each then exact, in one form."""
    exact = all(map(_whole, values)) or any(_whole(v) and not float_holds(v) for v in values)
    return [int(v) if exact and _whole(v) else shown_float(v) for v in values]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) or \
        isinstance(value, Fraction) and value.denominator == 1


def _moments(values: np.ndarray, counts: np.ndarray, games: int) -> tuple[float, float | None]:
    """The mean and the standard deviation of games that ended at ``values`` (``counts``
    times each; of the sample, ``None`` for one game), worked out over the largest value's
    power of two, so that neither a sum nor a square goes past a float where the values fit
    (values near 1e300)."""
    scale = power_of_two_above(values)
    scaled = values / scale
    middle = float(counts @ scaled) / games
    if games == 1:
        return middle * scale, None
    variance = float(counts @ (scaled - middle) ** 2) / (games - 1)
    return middle * scale, math.sqrt(variance) * scale


def _interval(values: np.ndarray, counts: np.ndarray, mean: float, sd: float | None,
              games: int, chance: bool) -> tuple[float | None, float | None]:
    """The 95% confidence interval of the mean of ``games`` games that ended at ``values``
    (``counts`` times each): see :attr:`Simulation.low`. ``chance``: the values are
    probabilities (not where they are distances from another value)."""
    if chance and np.isin(values, (0.0, 1.0)).all():  # a share of games: Wilson's score interval
        z2n = Z95 * Z95 / games
        centre = (mean + z2n / 2) / (1 + z2n)
        half = Z95 / (1 + z2n) * math.sqrt(mean * (1 - mean) / games + z2n / (4 * games))
        # Around the mean, whose rounding may put it a hair outside (all games at 0 or at 1).
        return max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half))
    if sd is None:  # one game: no spread measured
        return None, None
    half = sd / math.sqrt(games) * Z95  # (divided first: 1.96 sd may pass a float where it does not)
    if chance:  # a mean of probabilities lies within 0 and 1
        return max(0.0, mean - half), min(1.0, mean + half)
    return mean - half, mean + half
