"""The compiled model: a game's states and transitions as arrays, and the few operations that
solving, evaluating, pushing probabilities forward and sampling are built on."""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.checks import COUNTS, INT64, OPTIONAL_INT64, arguments
from mdp.engine.parallel import side_by_side
from mdp.errors import ParamError
from mdp.game.columns import made, to_frame
from mdp.game.load import Objective

if TYPE_CHECKING:
    import polars as pl

PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 the float probabilities of one action may sum (rational ones must be 1)."""


@attrs.frozen
class ModelInfo:
    """What a model was compiled from, in words: for summaries, tables and reports."""

    game: str
    variant: str | None
    params: Mapping[str, Any]
    """The parameters as ``--set`` takes them back."""
    rules: str
    objective: Objective


@attrs.frozen(eq=False)
class CompiledModel:
    """Every reachable state of a game, numbered so that successors come first. It holds no
    game: compile once (:func:`mdp.compile`), then solve it as often as needed, with the
    game's terminal values or others (:func:`mdp.solve`).

    States are grouped in *layers*: layer 0 holds the terminal states (ids ``0`` to
    ``n_terminal - 1``), and every transition leads from a state to one in a lower layer.

    Transitions are compressed rows. State ``s`` has ``action_counts[s]`` actions, numbered
    from ``action_start[s]`` (made on first use: the solve works from the counts, a layer at
    a time, and a full array of offsets would cost a fifth of a large model). An action with
    one certain outcome (a choice) costs one successor id: ``action_next[a] >= 0`` is that
    successor. Any other action is a *chance* action ``c = -1 - action_next[a]``, whose
    outcomes are ``chance_start[c]`` to ``chance_start[c + 1] - 1``; outcome ``o`` leads to
    ``outcome_next[o]`` with probability ``probabilities[outcome_prob[o]]``. Code outside
    the engine goes through the model's operations (:meth:`backup`, :meth:`push`,
    :meth:`sample`, :meth:`actions_of`, ...), so that this storage can change.

    The model keeps no action labels: :func:`mdp.action_labels` asks the game for them.
    """

    states: Sequence[Any] = attrs.field(repr=False)
    """Each state as the game wrote it: integer keys (a batch game), or any hashable values."""
    layer_start: np.ndarray = attrs.field(repr=False)
    action_counts: np.ndarray = attrs.field(repr=False)
    layer_action_start: np.ndarray = attrs.field(repr=False)
    """The first action of each layer, with the number of actions at the end."""
    action_next: np.ndarray = attrs.field(repr=False)
    chance_start: np.ndarray = attrs.field(repr=False)
    outcome_next: np.ndarray = attrs.field(repr=False)
    outcome_prob: np.ndarray = attrs.field(repr=False)
    probabilities: tuple = attrs.field(repr=False)
    """The distinct probabilities, as the game gave them (``int``, ``Fraction`` or ``float``)."""
    initial: int
    terminal_values: Sequence[Any] = attrs.field(repr=False)
    """The game's value of each terminal state, in state order: numbers, checked."""
    terminal_columns: Mapping[str, Any] = attrs.field(repr=False)
    """The game's readable columns of the terminal states (see :attr:`terminals`), some
    maybe still to be made (:class:`mdp.LazyColumn`)."""
    info: ModelInfo
    inexact: str | None = None
    """Where the game gave a float probability, if it did: exact solving is then refused."""
    inexact_values: str | None = None
    """Where the game gave a float terminal value, if it did."""
    label_prints: np.ndarray | None = attrs.field(default=None, repr=False)
    """Per state, a fingerprint of its action labels in their order
    (:func:`mdp.engine.discover.label_print`), where the game gave them as the model was
    compiled (a game of per-state hooks): :func:`mdp.action_labels` checks that the game
    gives them in that order again."""
    seconds: float = attrs.field(default=0.0, repr=False)
    """How long discovery and compiling took."""

    @property
    def n_states(self) -> int:
        """Number of states."""
        return len(self.action_counts)

    @property
    def n_actions(self) -> int:
        """Number of actions, over all states."""
        return len(self.action_next)

    @property
    def n_outcomes(self) -> int:
        """Number of outcomes, over all actions (a certain one counts once)."""
        return len(self.outcome_next) + self.n_actions - (len(self.chance_start) - 1)

    @property
    def n_terminal(self) -> int:
        """Number of terminal states (layer 0)."""
        return int(self.layer_start[1])

    @property
    def n_layers(self) -> int:
        """Number of layers."""
        return len(self.layer_start) - 1

    @functools.cached_property
    def terminals(self) -> pl.DataFrame:
        """The terminal states as a Polars DataFrame, one row per state in the order that
        ``mdp.solve(model, terminal=...)`` expects: the game's readable columns, then
        ``value``, the game's own terminal value (and ``value_exact``, ``"p/q"``, where the
        values are fractions).

        >>> win = model.terminals.select(pl.col("open") == "")   # doctest: +SKIP
        """
        values = self.terminal_values
        # Integer columns are kept narrow (compile), lazy ones unmade: made for the table.
        columns = {name: made(column) for name, column in self.terminal_columns.items()}
        columns = {name: column.astype(np.int64) if isinstance(column, np.ndarray)
                   and column.dtype.kind in "iu" else column for name, column in columns.items()}
        if isinstance(values, np.ndarray):
            columns["value"] = values
        else:
            columns["value"] = [float(v) for v in values]
            if any(isinstance(v, Fraction) and v.denominator != 1 for v in values):
                columns["value_exact"] = [str(Fraction(v)) for v in values]
        return to_frame(columns)

    def single(self, what: str) -> CompiledModel:
        """Itself: ``what`` reads a game of one model (:meth:`mdp.Rounds.single` refuses)."""
        return self

    def of_rounds(self, what: str) -> Any:
        """Refuse ``what``, work that reads a game of rounds (:meth:`mdp.Rounds.of_rounds`)."""
        raise ParamError(f"game {self.info.game} is of one model, and {what} is for a game "
                         "played in rounds")

    def extent(self) -> str:
        """Its size in words."""
        return f"{self.n_states:,} states"

    def check_chances(self, **_: Any) -> None:
        """Nothing to refuse: the chance of every outcome of one model is one forward pass
        (:meth:`mdp.Rounds.check_chances` may refuse)."""

    def state_id(self, state: Any) -> int:
        """The id of a state given as the game writes it; ``KeyError`` if unreachable."""
        return self._ids[state]

    @functools.cached_property
    def _ids(self) -> Mapping[Any, int]:
        if isinstance(self.states, np.ndarray):
            return _ArrayIndex(self.states)
        return {s: i for i, s in enumerate(self.states)}

    def layer_of(self) -> np.ndarray:
        """The layer of every state, as an array."""
        return self._layers

    def layer_of_id(self, state_id: int) -> int:
        """The layer of one state (without the array of every state's layer)."""
        return int(np.searchsorted(self.layer_start, state_id, side="right")) - 1

    @functools.cached_property
    def _layers(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_layers, dtype=np.int32), np.diff(self.layer_start))

    def action_state(self) -> np.ndarray:
        """The state each action belongs to, as an array (of the model's index type)."""
        return np.repeat(np.arange(self.n_states, dtype=self.action_next.dtype), self.action_counts)

    def layer_actions(self, layer: int) -> tuple[int, int]:
        """The first action of layer ``layer`` and one past its last."""
        return int(self.layer_action_start[layer]), int(self.layer_action_start[layer + 1])

    @functools.cached_property
    def action_start(self) -> np.ndarray:
        """The first action of every state, with the number of actions at the end."""
        return offsets(self.action_counts, self.n_actions)

    def actions_of(self, state_id: int) -> tuple[int, int]:
        """The first action of a state and one past its last."""
        first = int(self.action_offsets(state_id, state_id + 1)[0]) if self.n_actions else 0
        return first, first + int(self.action_counts[state_id])

    def action_count(self, ids: np.ndarray | None = None) -> np.ndarray:
        """How many actions each state has (those of ``ids``, or every state's)."""
        return self.action_counts if ids is None else self.action_counts[ids]

    def layers_of(self, ids: np.ndarray) -> np.ndarray:
        """The layer of each of the states ``ids`` (without the array of every state's)."""
        return np.searchsorted(self.layer_start, ids, side="right") - 1

    def actions_of_states(self, ids: np.ndarray) -> np.ndarray:
        """The actions of the states ``ids``, state after state, each state's in their order."""
        counts = self.action_counts[ids]
        starts = self._first_actions(ids)
        actions = np.arange(int(np.sum(counts, dtype=np.int64)), dtype=starts.dtype)
        first = np.cumsum(counts, dtype=starts.dtype)
        first -= counts
        actions += np.repeat(starts - first, counts)
        return actions

    def _first_actions(self, ids: np.ndarray) -> np.ndarray:
        """The first action of each of the states ``ids``: from their layer's offsets where
        they are of one layer (a table a piece at a time), without the array of every
        state's first action."""
        if len(ids):
            layer = self.layer_of_id(int(ids.min()))
            lo, hi = int(self.layer_start[layer]), int(self.layer_start[layer + 1])
            if int(ids.max()) < hi:
                return self._layer_offsets(layer, lo, hi)[ids - lo]
        return self.action_start[ids]

    def _layer_offsets(self, layer: int, lo: int, hi: int) -> np.ndarray:
        """The first action of every state of a layer, kept for the layer last asked for (a
        table is made a piece at a time, several pieces a layer)."""
        last = self._kept_offsets.get("last")  # one read, one write: threads may ask too
        if last is None or last[0] != layer:
            last = layer, self.action_offsets(lo, hi)
            self._kept_offsets["last"] = last
        return last[1]

    @functools.cached_property
    def _kept_offsets(self) -> dict[str, Any]:
        return {}

    def successors(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The outcomes of ``actions``, action after action, each action's in the order the
        game gave them: how many each action has, and the id of the state each leads to."""
        nexts = self.action_next[actions].astype(np.int64)
        counts = np.ones(len(actions), dtype=np.int64)
        chance = np.flatnonzero(nexts < 0)
        if not len(chance):
            return counts, nexts
        c = -1 - nexts[chance]
        first = self.chance_start[c]
        n = counts[chance] = self.chance_start[c + 1] - first
        if (np.diff(c) == 1).all():  # one run (the actions of whole layers): so are their outcomes
            outcomes = self.outcome_next[first[0]:first[0] + int(n.sum())]
        else:
            outcomes = self.outcome_next[ragged_arange(n) + np.repeat(first, n)]
        ids = np.repeat(nexts, counts)  # each choice's successor in its place
        ids[np.repeat(offsets(counts)[:-1][chance], n) + ragged_arange(n)] = outcomes
        return counts, ids

    def action_rank(self) -> np.ndarray:
        """Each action's place among its state's actions (0 for the first), in action order."""
        return ragged_arange(self.action_counts)

    def per_state(self, ufunc: np.ufunc, values: np.ndarray) -> np.ndarray:
        """``ufunc`` over each state's actions of ``values`` (one row per action): one row per
        state that has actions, the states from :attr:`n_terminal` on."""
        return ufunc.reduceat(values, self.action_start[self.n_terminal:-1], axis=0)

    def each_action(self, values: np.ndarray) -> np.ndarray:
        """Values of the states from :attr:`n_terminal` on (one row each), one row per action."""
        return np.repeat(values, self.action_counts[self.n_terminal:], axis=0)

    def action_offsets(self, first: int, last: int) -> np.ndarray:
        """``action_start[first:last + 1]`` for states ``first`` to ``last`` of one layer,
        without making the array for every state."""
        layer = self.layer_of_id(first)
        before = int(self.layer_action_start[layer])
        before += int(np.sum(self.action_counts[self.layer_start[layer]:first], dtype=np.int64))
        return offsets(self.action_counts[first:last], self.n_actions, before)

    # The operations.

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
            return arithmetic.certain(values, targets, layer)
        chance = targets < 0
        all_chance = targets.max() < 0
        first, last = (-1 - targets[chance][[0, -1]]).tolist()
        dense = self._dense(layer) if values.ndim > 1 and values.dtype == np.float64 else None
        if dense is not None:  # many columns at once: one matrix product
            matrix, c0, lo = dense
            sums = matrix[first - c0:last + 1 - c0] @ values[lo:lo + matrix.shape[1]]
        else:
            sums = self._expectations(layer, values, arithmetic, first, last + 1)
        if all_chance:
            return sums
        result = np.empty((a1 - a0, *values.shape[1:]), dtype=values.dtype)
        result[chance] = sums
        result[~chance] = arithmetic.certain(values, targets[~chance], layer)
        return result

    def backup_actions(self, layer: int, actions: np.ndarray, values: np.ndarray,
                       arithmetic: Any) -> np.ndarray:
        """As :meth:`backup`, for some actions of layer ``layer`` only (ids, in any order):
        a row each."""
        targets = self.action_next[actions]
        certain = targets >= 0
        if certain.all():
            return arithmetic.certain(values, targets, layer)
        result = np.empty((len(actions), *values.shape[1:]), dtype=values.dtype)
        result[certain] = arithmetic.certain(values, targets[certain], layer)
        c = -1 - targets[~certain].astype(np.int64)
        counts = (self.chance_start[c + 1] - self.chance_start[c]).astype(np.int64)
        first = np.cumsum(counts) - counts
        outcomes = np.repeat(self.chance_start[c].astype(np.int64) - first, counts)
        outcomes += np.arange(len(outcomes))
        weighted = arithmetic.weighted(values, self.outcome_next[outcomes],
                                    self.outcome_prob[outcomes], layer)
        result[~certain] = np.add.reduceat(weighted, first)
        return result

    def _dense(self, layer: int) -> tuple[np.ndarray, int, int] | None:
        """The chance actions of a layer as a dense matrix of float probabilities (one row
        per chance action, one column per state from the lowest successor to the highest),
        with the first chance action and the lowest successor: where the matrix is small
        and not too sparse, so that a matrix product by many columns of values beats adding
        the outcomes one by one. ``None`` where it is not."""
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
            weighted = arithmetic.weighted(values, self.outcome_next[p0:p1], self.outcome_prob[p0:p1], layer)
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
        if dense is not None:  # many columns at once: the transpose of backup's matrix product
            matrix, c0, lo = dense
            reach[lo:lo + matrix.shape[1]] += matrix[first - c0:last + 1 - c0].T @ mass[chance]
            return
        o0, o1 = int(self.chance_start[first]), int(self.chance_start[last + 1])
        counts = np.diff(self.chance_start[first:last + 2])
        weights = probabilities[self.outcome_prob[o0:o1]]
        spread = np.repeat(mass[chance], counts, axis=0) * (weights[:, None] if mass.ndim > 1 else weights)
        np.add.at(reach, self.outcome_next[o0:o1], spread)

    def sample(self, actions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The next state of each of ``actions`` (action ids), drawn at random."""
        targets = self.action_next[actions].astype(np.int64)
        chance = np.flatnonzero(targets < 0)
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
        rank = ragged_arange(counts)
        order = np.argsort(rank, kind="stable")  # outcomes by their place in their action
        ends = np.cumsum(np.bincount(rank)) if len(rank) else np.zeros(0, dtype=np.int64)
        for r in range(1, len(ends)):
            at = order[ends[r - 1]:ends[r]]
            within[at] += within[at - 1]
        most = int(counts.max()) if len(counts) else 1
        return within, [1 << k for k in reversed(range(max(most - 1, 1).bit_length()))]


class _ArrayIndex(Mapping):
    """State key -> id for a model whose states are integer keys, without a dict of millions."""

    def __init__(self, keys: np.ndarray) -> None:
        self.order = np.argsort(keys, kind="stable")
        self.sorted = keys[self.order]

    def __getitem__(self, key: Any) -> int:
        try:
            at = int(np.searchsorted(self.sorted, key))
        except (TypeError, ValueError, OverflowError):  # not a key, or past the keys' type
            raise KeyError(key) from None
        if at == len(self.sorted) or self.sorted[at] != key:
            raise KeyError(key)
        return int(self.order[at])

    def __iter__(self):
        return iter(self.sorted.tolist())

    def __len__(self) -> int:
        return len(self.sorted)


DENSE_MOST = 1 << 21
"""The most entries of a layer's dense matrix of chance (16 MB of floats)."""
DENSE_SPARSEST = 32
"""A dense matrix is used where at least one entry in this many is an outcome: a matrix
product does that many multiplications in the time of adding a few outcomes one by one."""
_DENSE_LOCK = threading.Lock()

OUTCOMES_AT_A_TIME = 1 << 20
"""Outcome values (outcomes times value columns) of chance actions backed up at a time: a
few megabytes of temporaries."""


def pieces(bounds: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Groups of items cut into runs of about ``size`` items, for work a run at a time in
    temporaries of one size: ``(first, one past the last)`` group of each run. ``bounds``
    are the groups' first items, with one past the last item at the end; a group larger
    than ``size`` is a run of its own."""
    n = len(bounds) - 1
    if bounds[-1] - bounds[0] <= size:
        return [(0, n)]
    # The probes in the bounds' own type: else numpy copies the bounds to a common type first.
    probes = np.arange(bounds[0], bounds[-1], size, dtype=bounds.dtype)
    cuts = np.searchsorted(bounds[:-1], probes, side="right") - 1
    cuts = sorted(set(cuts.tolist()) | {0, n})
    return list(zip(cuts[:-1], cuts[1:]))


def ragged_arange(counts: np.ndarray) -> np.ndarray:
    """``[0, 1, .., counts[0] - 1, 0, 1, .., counts[1] - 1, ...]``: each item's position in
    its group, for groups of the given sizes (handy when building an :class:`mdp.Expansion`)."""
    arguments("ragged_arange", counts=(counts, COUNTS))
    ends = np.cumsum(counts, dtype=np.int64)
    return np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts, counts)


def offsets(counts, total: int | None = None, first: int = 0) -> np.ndarray:
    """Start offsets of consecutive groups of the given sizes, from ``first``, with the end
    of the last at the end; in 32 bits where ``total``, the largest, fits."""
    arguments("offsets", counts=(counts, COUNTS), total=(total, OPTIONAL_INT64), first=(first, INT64))
    small = total is not None and total < 2**31
    result = np.empty(len(counts) + 1, dtype=np.int32 if small else np.int64)
    result[0] = first
    np.cumsum(counts, out=result[1:], dtype=result.dtype)
    result[1:] += first
    return result
