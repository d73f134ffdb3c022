"""The operations of a compiled model that solving, evaluating, pushing probabilities
forward and sampling are built on: a backup of successor values per action, a push of
state probabilities, a draw of an outcome. They read the model's arrays
(:mod:`mdp.engine.model`), so that its storage can change without touching their callers."""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine import fused, fused_rounds
from mdp.engine.groups import pieces, ranks
from mdp.engine.parallel import side_by_side

if TYPE_CHECKING:
    from mdp.engine.turns import PassedTurns

DENSE_MOST = 1 << 21
"""The most entries of a layer's dense matrix of chance (16 MB of floats)."""
DENSE_SPARSEST = 32
"""A dense matrix is used where at least one entry in this many is an outcome: a matrix
product does that many multiplications in the time of adding a few outcomes one by one."""
_DENSE_LOCK = threading.Lock()

OUTCOMES_AT_A_TIME = 1 << 20
"""Outcome values (outcomes times value columns) of chance actions backed up at a time: a
few megabytes of temporaries."""



class Operations:
    """The operations of :class:`~mdp.CompiledModel` (its base class)."""

    if TYPE_CHECKING:
        action_next: np.ndarray
        chance_start: np.ndarray
        outcome_next: np.ndarray
        outcome_prob: np.ndarray
        probabilities: tuple[Any, ...]
        turns: PassedTurns | None

        @property
        def n_actions(self) -> int: ...

        def layer_actions(self, layer: int) -> tuple[int, int]: ...

    def backup(self, layer: int, values: np.ndarray, arithmetic: Any,
               actions: tuple[int, int] | None = None) -> np.ndarray:
        """The value of every action of layer ``layer``: the expectation of its successors'
        ``values``, in ``arithmetic`` (floats or exact, :mod:`mdp.engine.arithmetic`).
        ``values`` may be a matrix, one row per state: then so is the result, one row per
        action.
        ``actions`` (first, one past the last) limits it to those actions of the layer."""
        a0, a1 = self.layer_actions(layer) if actions is None else actions
        targets = self.action_next[a0:a1]
        if not len(targets) or targets.min() >= 0:
            return self._certain(values, targets, arithmetic, layer, slice(a0, a1))
        chance = targets < 0
        all_chance = targets.max() < 0
        first, last = (-1 - targets[chance][[0, -1]]).tolist()
        dense = self._dense(layer) if values.ndim > 1 and values.dtype == np.float64 else None
        if dense is not None:  # many columns at once: one matrix product, of finite values
            matrix, c0, lo = dense
            below = values[lo:lo + matrix.shape[1]]
            dense = dense if np.isfinite(below).all() else None
        if dense is not None:
            sums = matrix[first - c0:last + 1 - c0] @ below
        else:
            sums = self._expectations(layer, values, arithmetic, first, last + 1)
        if all_chance:
            return sums
        result = np.empty((a1 - a0, *values.shape[1:]), dtype=values.dtype)
        result[chance] = sums
        result[~chance] = self._certain(values, targets[~chance], arithmetic, layer,
                                        np.flatnonzero(~chance) + a0)
        return result

    def backup_actions(self, layer: int, actions: np.ndarray, values: np.ndarray,
                       arithmetic: Any) -> np.ndarray:
        """As :meth:`backup`, for some actions of layer ``layer`` only (ids, in any order):
        a row each."""
        targets = self.action_next[actions]
        certain = targets >= 0
        if certain.all():
            return self._certain(values, targets, arithmetic, layer, actions)
        result = np.empty((len(actions), *values.shape[1:]), dtype=values.dtype)
        result[certain] = self._certain(values, targets[certain], arithmetic, layer,
                                        actions[certain])
        c = -1 - targets[~certain].astype(np.int64)
        counts = (self.chance_start[c + 1] - self.chance_start[c]).astype(np.int64)
        first = np.cumsum(counts) - counts
        outcomes = np.repeat(self.chance_start[c].astype(np.int64) - first, counts)
        outcomes += np.arange(len(outcomes))
        weighted = self._weighted(values, outcomes, arithmetic, layer)
        result[~certain] = np.add.reduceat(weighted, first)
        return result

    def _certain(self, values: np.ndarray, targets: np.ndarray, arithmetic: Any, layer: int,
                 actions: Any) -> np.ndarray:
        """The values of certain actions (``actions``, ids or a slice) leading to ``targets``,
        each seen by the mover (:mod:`mdp.engine.turns`)."""
        result = arithmetic.certain(values, targets, layer)
        if self.turns is not None:
            self.turns.turned(result, self.turns.certain[actions])
        return result

    def _weighted(self, values: np.ndarray, outcomes: Any, arithmetic: Any, layer: int) -> np.ndarray:
        """Each of ``outcomes`` (ids or a slice): its probability times its successor's
        value, as the mover sees it where it passes the turn."""
        successors, ids = self.outcome_next[outcomes], self.outcome_prob[outcomes]
        if self.turns is None:
            return arithmetic.weighted(values, successors, ids, layer)
        seen = self.turns.turned(values[successors], self.turns.outcome[outcomes])
        weights = arithmetic.probabilities[ids]
        return weights[:, None] * seen if seen.ndim > 1 else weights * seen

    def _dense(self, layer: int) -> tuple[np.ndarray, int, int] | None:
        """The chance actions of a layer as a dense matrix of float probabilities (one row
        per chance action, one column per state from the lowest successor to the highest),
        with the first chance action and the lowest successor: where the matrix is small
        and not too sparse, so that a matrix product by many columns of values beats adding
        the outcomes one by one. ``None`` where it is not.

        Only for finite values: an infinite one (an end not allowed) times a zero of the
        matrix (a state that is no outcome of the action) is nan, which adding the outcomes
        one by one never meets; its callers add them one by one there."""
        if self.turns is not None:  # each value as its mover sees it: one by one
            return None
        with _DENSE_LOCK:
            if layer not in self._dense_layers:
                self._dense_layers[layer] = self._make_dense(layer)
            return self._dense_layers[layer]

    @functools.cached_property
    def _dense_layers(self) -> dict[int, Any]:
        return {}

    def _make_dense(self, layer: int) -> tuple[np.ndarray, int, int] | None:
        a0, a1 = self.layer_actions(layer)
        targets = self.action_next[a0:a1]
        chance = -1 - targets[targets < 0].astype(np.int64)
        if not len(chance):
            return None
        c0, c1 = int(chance[0]), int(chance[-1]) + 1
        o0, o1 = int(self.chance_start[c0]), int(self.chance_start[c1])
        successors = self.outcome_next[o0:o1]
        lo, hi = int(successors.min()), int(successors.max()) + 1
        size = (c1 - c0) * (hi - lo)
        if size > DENSE_MOST or (o1 - o0) * DENSE_SPARSEST < size:
            return None
        matrix = np.zeros((c1 - c0, hi - lo))
        rows = np.repeat(np.arange(c1 - c0), np.diff(self.chance_start[c0:c1 + 1]))
        table = np.array([float(p) for p in self.probabilities])
        np.add.at(matrix, (rows, successors - lo), table[self.outcome_prob[o0:o1]])
        return matrix, c0, lo

    def _expectations(self, layer: int, values: np.ndarray, arithmetic: Any, first: int,
                      stop: int) -> np.ndarray:
        """The expected successor value of chance actions ``first`` to ``stop - 1``, about
        :data:`OUTCOMES_AT_A_TIME` outcomes at a time: the temporaries stay the same few
        megabytes from layer to layer, and are used again rather than made afresh."""
        bounds = self.chance_start[first:stop + 1]
        sums = np.empty((stop - first, *values.shape[1:]), dtype=values.dtype)

        def piece(actions: tuple[int, int]) -> None:
            c0, c1 = actions
            p0, p1 = int(bounds[c0]), int(bounds[c1])
            weighted = self._weighted(values, slice(p0, p1), arithmetic, layer)
            if p1 - p0 == c1 - c0:  # one outcome each
                sums[c0:c1] = weighted
            else:
                np.add.reduceat(weighted, bounds[c0:c1] - p0, out=sums[c0:c1])

        width = values.shape[1] if values.ndim > 1 else 1
        side_by_side(piece, pieces(bounds, max(1, OUTCOMES_AT_A_TIME // width)),
                     locked=values.dtype == object)
        return sums

    def push(self, layer: int, mass: np.ndarray, reach: np.ndarray, probabilities: np.ndarray,
             actions: tuple[int, int] | None = None) -> None:
        """Spread ``mass``, the probability of taking each action of layer ``layer``, over the
        actions' outcomes, adding it to ``reach`` (per state). ``probabilities`` is the table
        of :attr:`probabilities` as floats, or as fractions in an object array. ``mass`` and
        ``reach`` may be matrices, one column per distribution pushed at once. ``actions``
        (first, one past the last) limits it to those actions of the layer."""
        a0, a1 = self.layer_actions(layer) if actions is None else actions
        targets = self.action_next[a0:a1]
        certain = targets >= 0
        np.add.at(reach, targets[certain], mass[certain])
        if certain.all():
            return
        chance = ~certain
        first, last = (-1 - targets[chance][[0, -1]]).tolist()
        dense = self._dense(layer) if mass.ndim > 1 and mass.dtype == np.float64 else None
        if dense is not None and np.isfinite(mass[chance]).all():  # backup's product, turned
            matrix, c0, lo = dense
            reach[lo:lo + matrix.shape[1]] += matrix[first - c0:last + 1 - c0].T @ mass[chance]
            return
        o0, o1 = int(self.chance_start[first]), int(self.chance_start[last + 1])
        counts = np.diff(self.chance_start[first:last + 2])
        weights = probabilities[self.outcome_prob[o0:o1]]
        compiled = fused.kernel(mass.size, "spread") if fused.COMPILED and mass.ndim > 1 \
            and reach.dtype == mass.dtype == weights.dtype == np.float64 else None
        if compiled is not None:  # the same products added in the same order, compiled
            fused_rounds.spread(compiled, reach, mass, np.flatnonzero(chance), counts,
                                self.outcome_next[o0:o1], weights)
            return
        spread = np.repeat(mass[chance], counts, axis=0) * (weights[:, None] if mass.ndim > 1 else weights)
        np.add.at(reach, self.outcome_next[o0:o1], spread)

    def sample(self, actions: np.ndarray, rng: np.random.Generator,
               turns: np.ndarray | None = None) -> np.ndarray:
        """The next state of each of ``actions`` (action ids), drawn at random. ``turns``, if
        given (one boolean per action), is flipped where the transition drawn passes the
        turn (:mod:`mdp.engine.turns`)."""
        targets = self.action_next[actions].astype(np.int64)
        chance = np.flatnonzero(targets < 0)
        if turns is not None and self.turns is not None:
            turns ^= self.turns.certain[actions]  # a chance action's entry is False
        if len(chance):
            c = -1 - targets[chance]
            within, steps = self._within
            low, high = self.chance_start[c], self.chance_start[c + 1] - 1
            point = rng.random(len(c)) * within[high]
            # The first outcome whose running sum passes the point: a binary search within
            # each action's own outcomes, a few steps for all at once (no search of the whole).
            outcome = low.astype(np.int64)
            for step in steps:
                probe = outcome + step
                outcome += step * ((probe <= high) & (within[np.minimum(probe, high) - 1] <= point))
            targets[chance] = self.outcome_next[outcome]
            if turns is not None and self.turns is not None:
                turns[chance] ^= self.turns.outcome[outcome]
        return targets

    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every transition, for exports and checks: three parallel arrays, the action, the
        state it leads to, and the id of its probability in :attr:`probabilities` (-1 for an
        action's one certain outcome), in action order."""
        certain = self.action_next >= 0
        chance = np.flatnonzero(~certain)
        counts = np.ones(self.n_actions, dtype=np.int64)
        counts[chance] = np.diff(self.chance_start)
        action = np.repeat(np.arange(self.n_actions), counts)
        successor = np.repeat(self.action_next.astype(np.int64), counts)
        probability = np.full(len(action), -1, dtype=np.int64)
        outcomes = np.repeat(~certain, counts)
        successor[outcomes] = self.outcome_next
        probability[outcomes] = self.outcome_prob
        return action, successor, probability

    @functools.cached_property
    def _within(self) -> tuple[np.ndarray, list[int]]:
        """Each outcome's running sum of probability within its action (each action's sum on
        its own, not one running sum over the model, which would lose the small ones), and
        the steps of the binary search over the most outcomes an action has."""
        table = np.array([float(p) for p in self.probabilities] or [0.0])
        within = table[self.outcome_prob]
        counts = np.diff(self.chance_start)
        rank = ranks(counts)
        order = np.argsort(rank, kind="stable")  # outcomes by their place in their action
        ends = np.cumsum(np.bincount(rank)) if len(rank) else np.zeros(0, dtype=np.int64)
        for r in range(1, len(ends)):
            at = order[ends[r - 1]:ends[r]]
            within[at] += within[at - 1]
        most = int(counts.max()) if len(counts) else 1
        return within, [1 << k for k in reversed(range(max(most - 1, 1).bit_length()))]
