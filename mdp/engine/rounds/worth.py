"""What the ends of a round are worth in floats by the points still needed, for the sweep of
every total (:func:`~mdp.engine.rounds.reach.solve_reach`): the next round's vectors laid out
once in a table (:class:`Laid`), each with the payoff's first value before it and its last
after it, and read for the ends of any round states of the round before (:class:`Ends`),
and the round model solved for them (:meth:`Ends.best`)."""

from __future__ import annotations

from functools import cached_property, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine import fused
from mdp.engine.columns import best_distinct, best_filled
from mdp.engine.distinct import distinct, mixing

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds.payoff import Payoff


class Laid:
    """The vectors of one round's states (the points still needed right before each one's,
    ``below``, and where it begins in ``chances``, ``offsets``), toward ``payoff``, in one
    table: the vector of the round state at position ``i`` from ``at[i] + 1`` on, the
    payoff's first value at ``at[i]`` and its last right after the vector; at the end, -inf,
    the worth of an end not allowed (no play takes it)."""

    def __init__(self, below: np.ndarray, offsets: np.ndarray, chances: np.ndarray,
                 payoff: Payoff) -> None:
        width = np.diff(offsets)
        at = offsets[:-1] + 2 * np.arange(len(width))
        self.table = np.empty(len(chances) + 2 * len(width) + 1)
        self.table[at] = float(payoff.values[0])
        self.table[at + width + 1] = float(payoff.values[-1])
        self.table[np.arange(len(chances)) + np.repeat(at - offsets[:-1], width) + 1] = chances
        self.table[-1] = -np.inf
        self.at, self.width, self.below = at, width, below


class Ends:
    """The worth of the ends of some round states (a row each; which are allowed, the
    position of the round state each leads to in ``later``, its points) by the points still
    needed, read from ``later``'s table at ``clip(need - start, 0, stop) + at``: at
    ``need + shift`` held between ``at`` and ``end`` (``shift = at - start``, ``end = at +
    stop``). Each row's ends are held in the order ``live``: those it allows first (``count``
    of them), in their order, then the rest, which all read the table's last place (-inf):
    the compiled reads never read them."""

    def __init__(self, later: Laid, allowed: np.ndarray, after: np.ndarray,
                 points: np.ndarray) -> None:
        self.table, self.allowed = later.table, allowed
        self.live = np.argsort(~allowed, axis=1, kind="stable").astype(np.int32)
        self.count = allowed.sum(axis=1)
        start = np.where(allowed, points + later.below[after], 0)
        at = np.where(allowed, later.at[after], len(self.table) - 1)
        self.end = np.take_along_axis(at + np.where(allowed, later.width[after] + 1, 0), self.live, 1)
        self.shift = np.take_along_axis(at - start, self.live, 1)
        self.at = np.take_along_axis(at, self.live, 1)
        self.weights = mixing(allowed.shape[1])

    @cached_property
    def group(self) -> np.ndarray:
        """Which of the distinct sets of ends allowed each row allows (:func:`same_ends`)."""
        return same_ends(self.allowed)

    @cached_property
    def dead(self) -> np.ndarray:
        """What the ends a row does not allow add to a column's key: the table's last place's
        bits times their weights (for the compiled reads alone: numpy's path reads them)."""
        return np.where(self.allowed, np.uint64(0), self.weights).sum(axis=1, dtype=np.uint64) \
            * self.table.view(np.uint64)[-1]

    def worth(self, s: np.ndarray, need: np.ndarray) -> np.ndarray:
        """The worth of every end of round states ``s`` (rows of the arrays given), ``need``
        points still needed at each: a row per column. A run of columns of one round state
        is read at once, its ends' places one row apart: best where each state's columns
        are side by side."""
        found = np.empty((len(s), self.at.shape[1]))
        runs = np.concatenate([[0], np.flatnonzero(s[1:] != s[:-1]) + 1, [len(s)]])
        for a, b in zip(runs[:-1].tolist(), runs[1:].tolist()):
            row = s[a]
            place = need[a:b, None] + self.shift[row]
            np.maximum(place, self.at[row], out=place)
            np.minimum(place, self.end[row], out=place)
            found[a:b, self.live[row]] = self.table.take(place, None, None, "clip")
        return found

    def best(self, model: CompiledModel, s: np.ndarray, need: np.ndarray) -> np.ndarray:
        """:func:`~mdp.engine.columns.best_distinct` of :meth:`worth`: the best worth of
        ``model`` for each column. Where the compiled reads are loaded
        (:func:`mdp.engine.fused.reads`), the ends' worths are never laid out: the key of
        each column, the check of those alike and each block's columns are read from the
        table straight (the same bits, so the same values, bit for bit)."""
        reads = fused.reads()
        if reads is None:
            return best_distinct(model, self.worth(s, need))
        s, need = np.ascontiguousarray(s, dtype=np.int64), np.ascontiguousarray(need, dtype=np.int64)
        bits = self.table.view(np.uint64)
        places = (need, s, self.shift, self.at, self.end, self.live, self.count)
        key = np.empty(len(s), dtype=np.uint64)
        reads.keys(bits, *places, self.weights, self.dead, key)
        found = distinct(key, lambda like: bool(reads.alike(bits, *places, self.group, like)))
        if found is None:  # two columns that differ share a key: sorted by their bits
            return best_distinct(model, self.worth(s, need))
        # In the order of the columns, those of a round state side by side: a block's reads
        # of one end are then neighbours in the table.
        first, inverse = found
        taken = np.zeros(len(s), dtype=bool)
        taken[first] = True
        rank = np.cumsum(taken) - 1  # (each distinct column's place among them, in order)
        first, inverse = np.flatnonzero(taken), rank[first][inverse]
        return best_filled(model, len(first), partial(_filled, reads.fill, self.table, places,
                                                      first))[inverse]


def same_ends(allowed: np.ndarray) -> np.ndarray:
    """For each row of ``allowed`` (which ends a round state allows), which of the distinct
    rows it is, numbered in their order as ``np.unique(allowed, axis=0)`` numbers them: the
    rows packed eight to a byte first (their bytes sort as the bools do; about 85 times
    faster than the bools, measured on 20,000 rows of 116 ends)."""
    if not allowed.shape[1]:
        return np.zeros(len(allowed), dtype=np.int64)
    packed = np.ascontiguousarray(np.packbits(allowed, axis=1))
    return np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(),
                     return_inverse=True)[1].ravel()


def _filled(fill: Any, table: np.ndarray, places: tuple[np.ndarray, ...], first: np.ndarray,
            c0: int, c1: int, out: np.ndarray) -> None:
    """Columns ``c0`` to ``c1`` of ``first`` read into ``out``, a row per end."""
    fill(table, *places, first[c0:c1], out)
