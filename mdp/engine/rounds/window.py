"""The points still needed that each round state can be asked for, from the start toward one
total (:func:`needs_window`): a round state reached having earned between ``least`` and
``most`` points is only ever asked for ``total - most`` to ``total - least`` more, so the
sweep toward one total (:func:`~mdp.engine.rounds.reach.solve_reach` with ``total``) solves
only those of its vector. Each end of a round state leads to one whose range holds its own
less the end's points, so the ranges hold every need the rounds after read."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mdp.engine.rounds.kinds import RoundsModel, batches
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.rounds.totals import positions

NONE = 1 << 62
"""The least points before a round state that no play reaches (its window is empty); the
most, less it."""


def needs_window(model: RoundsModel, total: int,
                 points: Callable[[RoundEnds, np.ndarray], np.ndarray]
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per round, each round state's least and most points still needed toward ``total``
    from the start (1 and 0 where no play reaches it): a forward pass over
    the rounds, the least and most points earned before each round state over the ends
    that lead to it. ``points`` gives the ends' whole points (int64, 0 where not allowed)."""
    spans = model.points()  # beyond the points' reach every total is the same: held within
    total = min(max(int(total), sum(math.floor(a) for a, _ in spans) - 1),
                sum(math.ceil(m) for _, m in spans) + 1)
    least = [np.array([0], dtype=np.int64)]
    most = [np.array([0], dtype=np.int64)]
    for r in range(model.n_rounds):
        keys, later = model.keys[r], model.keys[r + 1]
        place = positions(later)
        low = np.full(len(later), NONE, dtype=np.int64)
        high = np.full(len(later), -NONE, dtype=np.int64)
        start = 0
        for part in batches(keys, model.round.n_terminal):
            rows = slice(start, start + len(part))
            start += len(part)
            reached = np.flatnonzero(least[r][rows] <= most[r][rows])
            if not len(reached):
                continue
            ends = model.rule(part[reached])
            allowed = ends.next >= 0
            earned = points(ends, part[reached])
            row, end = np.nonzero(allowed)
            after = place(ends.next[row, end])
            np.minimum.at(low, after, least[r][rows][reached][row] + earned[row, end])
            np.maximum.at(high, after, most[r][rows][reached][row] + earned[row, end])
        least.append(low)
        most.append(high)
    return [(np.where(a <= m, total - m, 1), np.where(a <= m, total - a, 0))
            for a, m in zip(least, most)]
