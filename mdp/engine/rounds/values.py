"""The values of one round's states by key, and the worths of the ends of the round before
it that they make (each end its points and the value of the round state it leads to)."""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.arithmetic import Exact
from mdp.engine.keys import KeyIndex
from mdp.engine.numeric import FLOAT_MOST, below_floats, quoted
from mdp.engine.rounds.choose import exact_columns
from mdp.engine.rounds.rule import DENSE
from mdp.engine.sweep import backward
from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds.kinds import RoundsModel
    from mdp.engine.rounds.rule import RoundEnds


class RoundValues:
    """The values of one round's states by key: a table indexed by the key itself where the
    keys are small enough (:data:`~mdp.engine.rounds.rule.DENSE`), else a binary search.
    The rule's ``next`` is checked where it enters (only ``-1`` below 0). Exact values are
    made floats only when asked for in floats, and refused there past what a float holds."""

    def __init__(self, keys: np.ndarray, values: np.ndarray) -> None:
        self.index, self.values, self.keys = KeyIndex(keys, in_order=True), values, keys
        self.table: np.ndarray | None = None
        self._floats: np.ndarray | None = None
        self._lock = threading.Lock()  # the batches of a round ask side by side

    def __getstate__(self) -> dict[str, Any]:
        """Sent to another process (a cluster's worker) without its lock and float table,
        which it makes again there if asked."""
        return {"index": self.index, "values": self.values, "keys": self.keys}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, table=None, _floats=None, _lock=threading.Lock())

    def floats(self, game: str) -> np.ndarray:
        """The values in floats (made once, and shown to other threads only when whole)."""
        with self._lock:
            if self._floats is None:
                self._floats = self._made(game)
        return self._floats

    def _made(self, game: str) -> np.ndarray:
        """The values in floats, and their table by key (:meth:`floats` holds the lock)."""
        try:
            floats = np.asarray(self.values, dtype=np.float64)
        except OverflowError:
            at = next(i for i, v in enumerate(self.values.tolist()) if abs(v) > FLOAT_MOST)
            raise ModelError(f"game {game}: the value of round state {int(self.keys[at])} is "
                             f"{quoted(self.values[at])}, past what a float holds (about "
                             "1.8e308), and the play of a round is chosen in floats") from None
        if len(self.keys) and int(self.keys[-1]) < DENSE:
            # One more entry at the end, for the key -1: an end not allowed.
            table = np.full(int(self.keys[-1]) + 2, np.nan)
            table[self.keys] = floats
            self.table = table
        return floats

    def values_of(self, keys: np.ndarray, worst: float, game: str, check: bool = False) -> np.ndarray:
        """The float values of the round states ``keys`` (which must be of this round), and
        ``worst`` for ``-1``. A key not of this round is NaN, found only with ``check``."""
        values = self.floats(game)
        if self.table is not None and not check:
            try:
                return np.where(keys >= 0, self.table[keys], worst)
            except IndexError:  # past the largest key: not of this round
                pass
        at = self.found(keys, game)
        return np.where(keys >= 0, values[at], worst)

    def found(self, keys: np.ndarray, game: str) -> np.ndarray:
        """The places of the round states ``keys`` (``-1`` allowed) among this round's,
        every one checked to be of this round."""
        allowed = keys >= 0
        at, found = self.index.find(keys)
        missing = allowed & ~found
        if missing.any():
            raise ModelError(f"game {game}: mdp_round_rule gave round state "
                             f"{int(keys[missing].flat[0])} when asked again, but not when the "
                             "round states were found")
        return at

    def exact_values_of(self, keys: np.ndarray) -> np.ndarray:
        """The exact values of the round states ``keys`` (``-1``: 0, to be replaced)."""
        return np.where(keys >= 0, self.values[self.index.find(keys)[0]], 0)


def check_exact(model: RoundsModel) -> None:
    """Refuse to solve exactly a game of rounds whose round, or round rule at an end
    allowed, gave a float: the one check of every exact solve, before the work."""
    inexact = model.round.inexact or model.round.inexact_values or model.inexact
    if inexact:
        raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, but "
                         f"{inexact}")


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


def terminals(model: RoundsModel, ends: RoundEnds, later: RoundValues, sense: str,
              exact: bool = False) -> np.ndarray:
    """The round's terminal values from some round states, one column each, in floats: each
    end worth its points and the value of the round state that follows; an end not allowed,
    one that no play chooses: -inf (+inf, minimizing). A sum past what a float holds is
    refused. ``exact``: only which ends are allowed (0 where one is), for the check of a
    solve in exact numbers, which no float then holds."""
    worst = -np.inf if sense == "max" else np.inf
    if exact:
        later.found(ends.next, model.info.game)
        return np.ascontiguousarray(np.where(ends.next >= 0, 0.0, worst).T)
    worth = later.values_of(ends.next, worst, model.info.game)
    if ends.points.dtype == object:  # exact points: one below what a float holds is not 0
        tiny = next(((r, e) for r, e in zip(*np.nonzero(ends.next >= 0))
                     if below_floats(ends.points[r, e])), None)
        if tiny is not None:
            raise ModelError(f"game {model.info.game}: mdp_round_rule gave points "
                             f"{quoted(ends.points[tiny])}, not 0, but below what a float "
                             "holds (about 2.2e-308), which would take them as 0: solve it "
                             "exactly (--exact)")
    points = ends.points if ends.points.dtype != object else ends.points.astype(np.float64)
    with np.errstate(over="ignore"):
        total = points + worth
    past = (ends.next >= 0) & np.isinf(total) & np.isfinite(worth)
    if past.any():
        row, end = (int(i[0]) for i in np.nonzero(past))
        raise ModelError(f"game {model.info.game}: an end earning {quoted(points[row, end])} "
                         f"points leads to round state {int(ends.next[row, end])}, worth "
                         f"{quoted(worth[row, end])}: together past what a float holds (about "
                         "1.8e308); solve it exactly (--exact), or give smaller points")
    return np.ascontiguousarray(total.T, dtype=np.float64)
