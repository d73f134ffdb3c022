"""What the ends of a round are worth in floats by the points still needed, for the sweep of
every total (:func:`~mdp.engine.rounds.reach.solve_reach`): the next round's vectors laid out
once in a table (:class:`Laid`), each with the payoff's first value before it and its last
after it, and read for the ends of any round states of the round before (:class:`Ends`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
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
    stop``)."""

    def __init__(self, later: Laid, allowed: np.ndarray, after: np.ndarray,
                 points: np.ndarray) -> None:
        self.table = later.table
        start = np.where(allowed, points + later.below[after], 0)
        self.at = np.where(allowed, later.at[after], len(self.table) - 1)
        self.end = self.at + np.where(allowed, later.width[after] + 1, 0)
        self.shift = self.at - start

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
            self.table.take(place, None, found[a:b], "clip")
        return found
