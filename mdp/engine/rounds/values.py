"""The values of one round's states by key, for the ends of the round before it."""

from __future__ import annotations

import numpy as np

from mdp.engine.keys import KeyIndex
from mdp.engine.rounds.model import DENSE
from mdp.errors import ModelError


class RoundValues:
    """The values of one round's states by key: a table indexed by the key itself where the
    keys are small enough (:data:`~mdp.engine.rounds.model.DENSE`), else a binary search.
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
