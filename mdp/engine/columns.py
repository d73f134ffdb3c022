"""Optimal play for many columns of terminal values at once, in floats: the kernel of the
solve of a game of rounds (a batch of round states, a column each) and of its chances of
every total (a column per round state and total).

The columns go through the layers a block at a time (:data:`BLOCK` columns), the block's
values of every state in one buffer that stays in the processor's cache from the terminal
states up to the initial one, and only the initial state's values are kept. Each layer is
worked the same way for every block (a :class:`Plan`, made once per model): a state's best
action is found rank by rank, its first action in every state, then the second of those that
have one, and so on, each a gather of whole rows of the buffer and a maximum in place; the
expectations of chance actions are one sparse matrix (scipy's CSR, only the outcomes that
are there) times the block, where a dense product would multiply every zero too.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import attrs
import numpy as np
import scipy.sparse

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel

BLOCK = 256
"""Columns worked through all the layers together: the buffer of a round of about a
thousand states is then a few megabytes, within the processor's cache."""

_LOCK = threading.Lock()


@attrs.frozen(eq=False)
class Layer:
    """One layer of a :class:`Plan`: its states ``lo`` to ``hi - 1``; the expectations of
    its chance actions (``chance``, a row per chance action, a column per state from
    ``below``) and where they go among the layer's actions (``chance_at``, or None where
    every action is one); each certain action's successor (``certain``, -1 at chance ones);
    the states sorted by their count of actions, the most first (``order``); for each rank,
    how many of them have more actions than it (``having``) and the row of the action
    values of that rank of each (``rank_rows``)."""

    lo: int
    hi: int
    chance: scipy.sparse.csr_array | None
    below: int
    chance_at: np.ndarray | None
    certain: np.ndarray
    order: np.ndarray
    inverse: np.ndarray
    rank_rows: tuple[np.ndarray, ...]
    direct: bool
    """Every state has one chance action, in the order of the states: the product is the
    layer's values."""


def plan(model: CompiledModel) -> tuple[Layer, ...]:
    """How each layer of ``model`` is worked (made once per model and kept with it)."""
    with _LOCK:
        found = model.__dict__.get("_column_plan")
        if found is None:
            found = tuple(_layer(model, layer) for layer in range(1, model.n_layers))
            model.__dict__["_column_plan"] = found
        return found


def _layer(model: CompiledModel, layer: int) -> Layer:
    lo, hi = int(model.layer_start[layer]), int(model.layer_start[layer + 1])
    starts = model.action_offsets(lo, hi).astype(np.int64)
    a0, a1 = int(starts[0]), int(starts[-1])
    targets = model.action_next[a0:a1].astype(np.int64)
    chance_rows = np.flatnonzero(targets < 0)
    matrix, below, chance_at = None, 0, None
    if len(chance_rows):
        c = -1 - targets[chance_rows]
        counts = (model.chance_start[c + 1] - model.chance_start[c]).astype(np.int64)
        outcomes = np.repeat(model.chance_start[c].astype(np.int64) - (np.cumsum(counts) - counts),
                             counts) + np.arange(int(counts.sum()))
        successors = model.outcome_next[outcomes].astype(np.int64)
        below = int(successors.min())
        table = np.array([float(p) for p in model.probabilities], dtype=np.float64)
        matrix = scipy.sparse.csr_array(
            (table[model.outcome_prob[outcomes]], successors - below,
             np.concatenate([[0], np.cumsum(counts)])),
            shape=(len(chance_rows), int(successors.max()) + 1 - below))
        matrix.sum_duplicates()
        chance_at = chance_rows
    counts = np.diff(starts)
    order = np.argsort(-counts, kind="stable")
    most = int(counts.max()) if len(counts) else 0
    having = np.searchsorted(-counts[order], -np.arange(most), side="left")
    first = starts[order] - a0
    rank_rows = tuple(first[:int(having[rank])] + rank for rank in range(most))
    if matrix is None:  # the rows of the successors themselves
        rank_rows = tuple(targets[rows] for rows in rank_rows)
    direct = len(chance_rows) == len(targets) == hi - lo
    return Layer(lo, hi, matrix, below, chance_at, targets, order,
                 np.argsort(order).astype(np.int64), rank_rows, direct)


def best_columns(model: CompiledModel, terminal: np.ndarray, sense: str = "max") -> np.ndarray:
    """The value of the initial state of ``model`` under optimal play (``sense`` ``"max"``
    or ``"min"``) for each column of ``terminal`` (float64, a row per terminal state): as
    :func:`mdp.engine.sweep.backward` with :func:`~mdp.engine.sweep.best` gives it, for
    many columns at once, the initial state's row only."""
    if model.turns is not None:  # each value as its mover sees it: the general pass
        from mdp.engine.arithmetic import Floats
        from mdp.engine.sweep import backward, best

        floats = Floats(model, terminal)
        return backward(model, floats, best(sense), floats.start())[model.initial]
    layers = plan(model)
    ufunc = np.maximum if sense == "max" else np.minimum
    width = terminal.shape[1]
    result = np.empty(width, dtype=np.float64)
    block = min(BLOCK, max(width, 1))
    buffer = np.empty((model.n_states, block), dtype=np.float64)
    rows = max((layer.hi - layer.lo for layer in layers), default=0)
    actions = max((len(layer.certain) for layer in layers if layer.chance is not None), default=0)
    # Made once, used again by every layer and block: fresh arrays of this size would each
    # be new pages from the system, zeroed on first touch.
    scratch = (np.empty((rows, block)), np.empty((rows, block)), np.empty((actions, block)))
    n_terminal = model.n_terminal
    for c0 in range(0, width, block):
        c1 = min(c0 + block, width)
        values = buffer[:, :c1 - c0]
        values[:n_terminal] = terminal[:, c0:c1]
        for layer in layers:
            _work(layer, values, ufunc, [part[:, :c1 - c0] for part in scratch])
        result[c0:c1] = values[model.initial]
    return result


def _work(layer: Layer, values: np.ndarray, ufunc: np.ufunc, scratch: list[np.ndarray]) -> None:
    """The values of the states of ``layer``, from those of the states below it."""
    out = values[layer.lo:layer.hi]
    top, taken, actions = scratch
    if layer.chance is not None:
        sums = layer.chance @ values[layer.below:layer.below + layer.chance.shape[1]]
        if layer.direct:
            out[...] = sums
            return
        actions = actions[:len(layer.certain)]
        actions[layer.chance_at] = sums
        certain = layer.certain >= 0
        actions[certain] = values[layer.certain[certain]]
        source = actions
    else:
        source = values
    ranks = layer.rank_rows
    top = top[:len(ranks[0])]
    np.take(source, ranks[0], axis=0, out=top, mode="clip")
    for more in ranks[1:]:
        n = len(more)
        np.take(source, more, axis=0, out=taken[:n], mode="clip")
        ufunc(top[:n], taken[:n], out=top[:n])
    np.take(top, layer.inverse, axis=0, out=out, mode="clip")
