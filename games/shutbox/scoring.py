"""Scoring rules: what a finished game is worth, computed for many final positions at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import attrs
import numpy as np

import mdp


@attrs.frozen
class ScoringRule:
    """One way to value the end of a game.

    ``values(box, masks)`` receives the :class:`~mdp_games.shutbox.box.Box` and an integer
    array of masks of the tiles left open, and returns one value per mask: an integer
    array, or a sequence of ``int`` or ``Fraction`` for values that are not integers.
    """

    name: str
    objective: str
    sense: Literal["max", "min"]
    values: Callable[[Any, np.ndarray], Any]
    help: str = ""
    probability: bool = False


@mdp.hookimpl
def shutbox_scoring_rules():
    return [
        ScoringRule("win", "chance of shutting the box", "max",
                    lambda box, masks: (masks == 0).astype(np.int64),
                    "1 when every tile is shut, else 0", probability=True),
        ScoringRule("score", "expected final score", "min",
                    lambda box, masks: box.open_sum(masks),
                    "the sum of the tiles left open (the pub score)"),
        ScoringRule("payout", "expected payout", "max", _payout,
                    "the payout table (parameter payout) applied to the final score"),
    ]


def _payout(box, masks: np.ndarray):
    table = box.payout
    paid = {score: amount for low, high, amount in table for score in range(low, high + 1)}
    amounts = [paid.get(score, 0) for score in range(sum(box.tiles) + 1)]
    scores = box.open_sum(masks)
    if all(getattr(a, "denominator", 1) == 1 and -2**63 <= a < 2**63 for a in amounts):
        return np.array([int(a) for a in amounts], dtype=np.int64)[scores]
    lookup = np.empty(len(amounts), dtype=object)  # Fractions, and ints past 64 bits, exact
    lookup[:] = amounts
    return lookup[scores]
