"""How long games last under a way of playing: the chance of each number of moves, or of
turns where two players take them (:mod:`mdp.engine.lengths`), with the mean."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.checks import PLAY, arguments, choice, whole
from mdp.engine.lengths import lengths as pushed
from mdp.engine.outcomes import playing, visits
from mdp.engine.policy import Policy
from mdp.engine.solved import Solved
from mdp.errors import TooLarge

if TYPE_CHECKING:
    from mdp.engine.lengths import Count
    from mdp.engine.model import CompiledModel

UP_TO = whole(1, none=True)

MOST_EXACT_LENGTH_WORK = 4_000_000_000
"""The most work counting the lengths of a game whose states come back exactly may take:
each of ``up_to`` steps pushes a fraction along every outcome, and the fractions grow about
a digit a step, so the work is about the outcomes times ``up_to`` squared (Pig to 10, of
1,485 outcomes: up to 1,000 takes some seconds; this allows about 1,600)."""


def check_lengths(model: CompiledModel, *, exact: bool, up_to: int | None) -> None:
    """Refuse (:class:`mdp.TooLarge`), before any work, lengths counted exactly up to more
    than :data:`MOST_EXACT_LENGTH_WORK` allows, in a game whose states come back (one
    without is counted to its longest game, whatever ``up_to``)."""
    if not exact or up_to is None or model.cyclic is None:
        return
    outcomes = model.n_outcomes
    work = outcomes * up_to * up_to
    if work > MOST_EXACT_LENGTH_WORK:
        raise TooLarge(f"game {model.info.game}: counting lengths exactly up to {up_to:,} would "
                       f"push fractions that grow with each step along its {outcomes:,} outcomes "
                       f"{up_to:,} times, about {work:,} steps of work, past the "
                       f"{MOST_EXACT_LENGTH_WORK:,} it may take: count fewer lengths (--up-to), "
                       "or leave out --exact")


@attrs.frozen
class Lengths:
    """What :func:`lengths` found."""

    count: str
    """What was counted: ``"moves"`` or ``"turns"``."""
    table: pl.DataFrame = attrs.field(repr=False)
    """The chance of each length a game can last: ``moves`` (or ``turns``), ``probability``
    and, exact, ``exact`` (``"p/q"``); a length no game lasts is left out."""
    mean: float | Fraction
    """The mean length, from the expected visits of the states (a linear solve), not from
    the lengths counted."""
    beyond: float | Fraction
    """The chance that a game lasts longer than the last length counted (a game whose
    states may come back has no longest game): 0 where every length is counted."""
    counted: int
    """The last length counted (``up_to``, where it is given and the count went that far:
    in floats it stops where less than one game in a billion goes on): :attr:`beyond` is the
    chance of lasting longer, whether or not a game lasts this long."""

    def summary(self) -> dict[str, Any]:
        """As ``mdp lengths --json`` adds it to the solve's."""
        found: dict[str, Any] = {"count": self.count, "mean": float(self.mean),
                                 "counted": self.counted, "beyond": float(self.beyond)}
        if isinstance(self.mean, Fraction):
            found["mean_exact"] = f"{self.mean.numerator}/{self.mean.denominator}"
        return {**found, "lengths": self.table.to_dicts()}


def lengths(how: Solved | Policy, *, count: Count = "moves", up_to: int | None = None) -> Lengths:
    """The chance that a game played as ``how`` says (a :class:`mdp.Policy`, or a
    solution's play: optimal play, a strategy, or in a game of two players one strategy
    against another, ``mdp.evaluate(..., against=)``) ends after each number of moves, or
    of turns (``count="turns"``, a game two players take in turns), and the mean.

    A game without cycles is counted to its longest game, exactly where the play is exact.
    A game whose states may come back is counted until less than one game in a billion
    goes on, or up to ``up_to`` (then exactly too): :attr:`Lengths.beyond` is the chance of
    lasting longer.
    """
    arguments("lengths", how=(how, PLAY), count=(count, choice("moves", "turns")),
              up_to=(up_to, UP_TO))
    if not isinstance(how, Policy):
        how = how.single("the lengths of its games")
    first, second = playing(how)
    model = first.model
    check_lengths(model, exact=first.exact, up_to=up_to)
    chances, beyond, mean = pushed(model, first, second, visits(how), count=count,
                                   up_to=None if up_to is None else int(up_to))
    kept = [k for k, chance in enumerate(chances) if chance != 0]
    columns: dict[str, Any] = {
        count: pl.Series(kept, dtype=pl.Int64),
        "probability": pl.Series([float(chances[k]) for k in kept], dtype=pl.Float64)}
    if first.exact:
        columns["exact"] = pl.Series([f"{chances[k].numerator}/{chances[k].denominator}"
                                      for k in kept], dtype=pl.String)
    plain = (lambda v: Fraction(v)) if first.exact else (lambda v: float(np.float64(v)))
    return Lengths(count, pl.DataFrame(columns), plain(mean), plain(beyond), len(chances) - 1)
