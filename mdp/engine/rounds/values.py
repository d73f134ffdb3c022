"""The values of one round's states by key, and the worths of the ends of the round before
it that they make (each end its points and the value of the round state it leads to)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.arithmetic import Exact
from mdp.engine.keys import KeyIndex
from mdp.engine.rounds.choose import exact_columns
from mdp.engine.rounds.kinds import DENSE
from mdp.engine.sweep import backward
from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds.kinds import RoundsModel
    from mdp.engine.rounds.rule import RoundEnds


class RoundValues:
    """The values of one round's states by key: a table indexed by the key itself where the
    keys are small enough (:data:`~mdp.engine.rounds.kinds.DENSE`), else a binary search.
    The rule's ``next`` is checked where it enters (only ``-1`` below 0)."""

    def __init__(self, keys: np.ndarray, values: np.ndarray) -> None:
        self.index, self.values = KeyIndex(keys, in_order=True), values
        self.table = None
        if len(keys) and int(keys[-1]) < DENSE:
            # One more entry at the end, for the key -1: an end not allowed.
            self.table = np.full(int(keys[-1]) + 2, np.nan)
            self.table[keys] = np.asarray(values, dtype=np.float64)

    def values_of(self, keys: np.ndarray, worst: float, game: str, check: bool = False) -> np.ndarray:
        """The float values of the round states ``keys`` (which must be of this round), and
        ``worst`` for ``-1``. A key not of this round is NaN, found only with ``check``."""
        if self.table is not None and not check:
            self.table[-1] = worst
            try:
                return self.table[keys]
            except IndexError:  # past the largest key: not of this round
                check = True
        allowed = keys >= 0
        at, found = self.index.find(keys)
        missing = allowed & ~found
        if missing.any():
            raise ModelError(f"game {game}: mdp_round_rule gave round state "
                             f"{int(keys[missing].flat[0])} when asked again, but not when the "
                             "round states were found")
        return np.where(allowed, np.asarray(self.values, dtype=np.float64)[at], worst)

    def exact_values_of(self, keys: np.ndarray) -> np.ndarray:
        """The exact values of the round states ``keys`` (``-1``: 0, to be replaced)."""
        return np.where(keys >= 0, self.values[self.index.find(keys)[0]], 0)


def check_exact(model: RoundsModel) -> None:
    """Refuse to solve exactly a game of rounds whose round gave a float."""
    if model.round.inexact or model.round.inexact_values:
        raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, but the "
                         f"game gave a float: {model.round.inexact or model.round.inexact_values}")


def exact_start(inner: CompiledModel, worths: np.ndarray, decide: Any) -> np.ndarray:
    """The exact values at the start of the round of some columns of terminal worths
    (checked, one column each), played as ``decide`` says."""
    arithmetic = Exact(inner, worths)
    raw = backward(inner, arithmetic, decide, arithmetic.start())
    scale = arithmetic.scales(inner.layer_of_id(inner.initial))
    return np.array([Fraction(v, scale) for v in raw[inner.initial]], dtype=object)


def exact_terminals(model: RoundsModel, ends: RoundEnds, later: RoundValues, sense: str) -> np.ndarray:
    """:func:`terminals` in exact numbers, checked (an end not allowed: see
    :func:`~mdp.engine.rounds.choose.exact_columns`)."""
    allowed = ends.next >= 0
    total = ends.points.astype(object) + later.exact_values_of(np.where(allowed, ends.next, -1))
    return exact_columns(model.round, total, allowed, sense)


def terminals(model: RoundsModel, ends: RoundEnds, later: RoundValues, sense: str) -> np.ndarray:
    """The round's terminal values from some round states, one column each, in floats: each
    end worth its points and the value of the round state that follows; an end not allowed,
    one that no play chooses: -inf (+inf, minimizing)."""
    worth = later.values_of(ends.next, -np.inf if sense == "max" else np.inf, model.info.game)
    points = ends.points if ends.points.dtype != object else ends.points.astype(np.float64)
    return np.ascontiguousarray((points + worth).T, dtype=np.float64)
