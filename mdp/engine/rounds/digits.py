"""Where floats lose a chance of at least a total (:func:`check_digits`): below what a float
holds with its digits, or to 0 past it, the total is called out of reach, and the sweep in
floats (:func:`~mdp.engine.rounds.reach.solve_reach`) is refused, sending to exact numbers."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

import numpy as np

from mdp.engine.columns import best_columns
from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.engine.rounds.model import Rounds


def every_end_reached(model: Rounds) -> bool:
    """Whether some play comes to each end of ``model``'s round with a chance more than 0
    (not where only an outcome of chance 0 leads to one): then, from every round state, a
    chance of at least a total that the points can reach is more than 0, by a play that
    takes the ends that earn it."""
    inner = model.round
    return bool((best_columns(inner, np.eye(inner.n_terminal)) > 0).all())


def may_come_to_zero(model: Rounds) -> bool:
    """Whether floats may make a chance of ``model`` 0 where it is not: where the least
    chance of an outcome of its round, to the power of the rounds times the round's layers
    of chance, is below the least a float holds with its digits (about 2.2e-308). Elsewhere
    every product of chances along a play is a float, and a 0 is an answer: a total no play
    reaches, as where a round state does not allow an end that chance leads to (a risk it
    may not take)."""
    inner = model.round
    least = min((p for p in inner.probabilities if p > 0), default=None)
    if least is None:
        return False
    chance = np.flatnonzero(np.asarray(inner.action_next) < 0)
    steps = len(np.unique(inner.layer_of()[inner.action_state()[chance]])) * model.n_rounds
    smallest = float(least)
    return smallest == 0.0 or steps * math.log(smallest) < math.log(sys.float_info.min)


def check_digits(model: Rounds, r: int, chances: np.ndarray, offsets: np.ndarray,
                 zeros: bool) -> None:
    """Refuse a chance of round ``r`` that came below what a float holds with its digits
    (not 0 but under about 2.2e-308): floats lost them, and went on to 0 a round or two
    earlier, where the total was called out of reach and a play that keeps it alive tied with
    one that gives it up (a gamble won 60 times at 1 in a million, 1e-360). With ``zeros``
    (:func:`every_end_reached` and :func:`may_come_to_zero`, of the chance of at least a
    total), one that came to 0 itself too: within a vector the total can be reached, and a 0
    is a product past a float's least (2e-200 twice). Exact numbers hold any chance."""
    lost = (chances != 0) & (np.abs(chances) < np.finfo(np.float64).tiny)
    if zeros:
        lost |= chances == 0
    tiny = np.flatnonzero(lost)
    if len(tiny):
        key = int(model.keys[r][np.searchsorted(offsets, tiny[0], side="right") - 1])
        raise ModelError(f"game {model.info.game}: a chance from round state {key} came to "
                         f"{chances[tiny[0]]:.3g}, below what a float holds with its digits "
                         "(about 2.2e-308), and smaller ones to 0; solve exactly (--exact)")
