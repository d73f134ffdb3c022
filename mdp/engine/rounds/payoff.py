"""What a game of rounds over is worth by the points still needed then (:class:`Payoff`):
the chance of at least a total (:data:`AT_LEAST`), or a match's winnings (:func:`beating`),
the step functions that :mod:`~mdp.engine.rounds.reach` sweeps back through the rounds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import numpy as np


@attrs.frozen
class Payoff:
    """What a game over is worth by the points still needed then, ``n`` (a target less the
    points earned), a step function: ``values[0]`` for ``n`` up to ``first``, ``values[i]``
    at ``first + i``, and the last value from there on. Values are ints or fractions (kept
    exact in exact solving) or floats."""

    first: int
    values: tuple[Any, ...]
    what: str = "the chance of at least a total"
    """What it answers, for messages."""

    @property
    def last(self) -> int:
        """From this many points still needed on, the payoff is its last value."""
        return self.first + len(self.values) - 1

    def of(self, need: np.ndarray, exact: bool) -> np.ndarray:
        """The payoff of each of ``need``, points still needed at the end."""
        table = np.array([Fraction(v) if exact else float(v) for v in self.values],
                         dtype=object if exact else np.float64)
        return table[np.clip(need - self.first, 0, len(self.values) - 1)]


AT_LEAST = Payoff(0, (1, 0))
"""The chance of at least the target: 1 with none still needed (or fewer), else 0."""


def beating(sense: str) -> Payoff:
    """The winnings of a player who knows the total to beat, the target: 1 for a total past
    it, 0 for the same, -1 for one short of it; past is higher, or lower where ``sense`` is
    ``"min"``."""
    return Payoff(-1, (1, 0, -1) if sense == "max" else (-1, 0, 1), "a match (who scores more)")
