"""The two passes over a model's layers, and the one place that loops over them: backward
(values, from the terminal states up: solving, evaluating a policy, breaking ties, every
action's value) and forward (probabilities, from the initial state down: how games end).

Each layer is worked in pieces of rows (a run of the layer's actions) and columns (a run of
the value columns of :func:`mdp.solve_many`), about :data:`PIECE` numbers each, side by side
on the threads of :mod:`mdp.engine.parallel`: the temporaries of a piece stay the same size
whatever the model and however many columns, and every thread has pieces to work on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from mdp.engine import fused, fused_rounds
from mdp.engine.groups import pieces
from mdp.engine.memory import release
from mdp.engine.model import CompiledModel
from mdp.engine.parallel import one_blas_thread, side_by_side, slices

PIECE = 1 << 18
"""Numbers (actions times columns) backed up at a time: the action values of a whole layer
of a large model would cost as much memory as the state values."""

PIECE_OF_COLUMNS = 1 << 21
"""The same where there are many columns: a piece of a few dozen columns and a few thousand
actions is gone through in a few dozen steps, each a call from Python; larger pieces make
fewer calls for the same work."""

FEWEST_COLUMNS = 64
"""Columns of a piece unless the model has fewer: a piece of a few columns repeats the
lookups of its successors for every few columns."""

Decide = Callable[[Callable[..., np.ndarray], np.ndarray, "Piece"], Any]
"""What a backward pass makes of a piece: ``decide(backup, starts, piece)`` gives the values
of the piece's states (one row per state), or ``None`` to keep them as they are.
``backup()`` is the value of each of the piece's actions (one row per action; ``starts``
are the states' first actions among them), ``backup(ids)`` that of some of them only
(numbered as ``starts`` are, from the piece's first action)."""


class Piece:
    """Where a piece lies: its layer, its states ``s0`` to ``s1 - 1``, its actions ``a0`` to
    ``a1 - 1`` (model-wide ids) and its columns ``c0`` to ``c1 - 1``."""

    __slots__ = ("layer", "s0", "s1", "a0", "a1", "c0", "c1")

    def __init__(self, layer: int, s0: int, s1: int, a0: int, a1: int, c0: int, c1: int) -> None:
        self.layer, self.s0, self.s1, self.a0, self.a1, self.c0, self.c1 = layer, s0, s1, a0, a1, c0, c1

    def states(self, ndim: int) -> slice | tuple[slice, slice]:
        """Where the piece's states are in an array of state values of ``ndim`` dimensions."""
        return slice(self.s0, self.s1) if ndim == 1 else (slice(self.s0, self.s1), slice(self.c0, self.c1))

    def actions(self, ndim: int) -> slice | tuple[slice, slice]:
        """Where the piece's actions are in an array of action values of ``ndim`` dimensions."""
        return slice(self.a0, self.a1) if ndim == 1 else (slice(self.a0, self.a1), slice(self.c0, self.c1))


def backward(model: CompiledModel, arithmetic: Any, decide: Decide | None, raw: np.ndarray, *,
             actions: np.ndarray | None = None,
             progress: Callable[[str], None] | None = None) -> np.ndarray:
    """Back the values ``raw`` (one row per state, the terminal ones filled in) up through
    every layer, in the arithmetic ``arithmetic`` (:mod:`mdp.engine.arithmetic`): each
    piece goes to ``decide``, which gives its states' values; with ``decide``
    ``None`` the values are known already and only ``actions`` is filled. ``actions``, if
    given, receives every action's value (one row per action). Returns ``raw``."""
    width = raw.shape[1] if raw.ndim > 1 else 1
    for layer in range(1, model.n_layers):
        lo, hi = int(model.layer_start[layer]), int(model.layer_start[layer + 1])
        if progress:
            progress(f"solving layer {layer} of {model.n_layers - 1}")
        starts = model.action_offsets(lo, hi)
        values = arithmetic.backed(layer, raw) if decide is not None else raw
        count = int(starts[-1] - starts[0])
        size = PIECE if width < FEWEST_COLUMNS else PIECE_OF_COLUMNS
        columns = _column_pieces(width, count, size)
        rows = pieces(starts, max(1, size // (columns[0][1] - columns[0][0])))

        def piece(at: tuple[tuple[int, int], tuple[int, int]]) -> None:
            (p0, p1), (c0, c1) = at
            a0, a1 = int(starts[p0]), int(starts[p1])
            where = Piece(layer, lo + p0, lo + p1, a0, a1, c0, c1)
            block = values if raw.ndim == 1 else values[:, c0:c1]

            def backup(ids: np.ndarray | None = None) -> np.ndarray:
                if ids is not None:  # some of the piece's actions only
                    return model.backup_actions(layer, ids + a0, block, arithmetic)
                q = model.backup(layer, block, arithmetic, actions=(a0, a1))
                if actions is not None:
                    actions[where.actions(actions.ndim)] = q
                return q

            if decide is None:
                backup()
                return
            top = decide(backup, starts[p0:p1] - a0, where)
            if top is not None:
                arithmetic.keep(raw, where, top)

        # Python integers hold the interpreter's lock: their pieces go one after another.
        work = [(r, c) for r in rows for c in columns]
        if raw.ndim == 1:
            side_by_side(piece, work, locked=values.dtype == object)
            release(count * 16)  # the layer's temporaries
        else:  # throws of many columns may be matrix products (CompiledModel.backup)
            with one_blas_thread():
                side_by_side(piece, work, locked=values.dtype == object)
    return raw


def forward(model: CompiledModel, play: Callable[[int, int, int], np.ndarray], reach: np.ndarray,
            table: np.ndarray) -> np.ndarray:
    """Push the chance of reaching each state down through every layer, every state before
    its successors: ``reach`` (one row per state, one column per distribution, the initial
    state's filled in) gains each state's share of the chance of its predecessors.
    ``play(layer, a0, a1)`` gives the chance of taking each of the layer's actions ``a0``
    to ``a1 - 1`` in its state (one row per action, and one column per distribution where
    they differ); ``table`` is :attr:`~mdp.CompiledModel.probabilities` as floats or
    fractions. Columns are pushed side by side; the rows of a layer one piece after another
    (their successors overlap). Returns ``reach``."""
    width = reach.shape[1] if reach.ndim > 1 else 1
    state = model.action_state()
    for layer, _, _ in top_down(model):
        a0, a1 = model.layer_actions(layer)
        if a1 == a0:
            continue
        chosen = play(layer, a0, a1)
        columns = _column_pieces(width, a1 - a0)
        rows = slices(a1, a0, max(1, PIECE // (columns[0][1] - columns[0][0])))

        def push(span: tuple[int, int]) -> None:
            c0, c1 = span
            for run in rows:
                b0, b1 = run.start, run.stop
                p = chosen[b0 - a0:b1 - a0]
                if reach.ndim > 1:
                    p = p[:, c0:c1] if p.ndim > 1 else p[:, None]
                    mass = reach[state[b0:b1], c0:c1] * p
                    model.push(layer, mass, reach[:, c0:c1], table, actions=(b0, b1))
                else:
                    model.push(layer, reach[state[b0:b1]] * p, reach, table, actions=(b0, b1))

        side_by_side(push, columns, locked=reach.dtype == object)
    return reach


def forward_chosen(model: CompiledModel, choice: np.ndarray, reach: np.ndarray,
                   table: np.ndarray) -> np.ndarray:
    """As :func:`forward` in floats, each column played its own way, one action a state: in
    column ``c`` state ``s`` takes its action number ``choice[s, c]`` among its own (a state
    with one action takes it). ``reach`` is a C-ordered float matrix, one row per state and
    one column per way of playing, the initial state's row filled in; ``table`` is
    :attr:`~mdp.CompiledModel.probabilities` as floats.

    A layer whose states have one action each pushes every column alike (for many columns,
    a matrix product: :meth:`~mdp.CompiledModel.push`). Elsewhere each state's chance in
    each column goes along the action chosen there: to its one successor, or spread over
    the outcomes of a chance action. Returns ``reach``."""
    width = reach.shape[1]
    flat = reach.view()
    flat.shape = (-1,)  # a view, or an error: a copy would take the chances away unseen
    columns = np.arange(width)
    compiled = fused.kernel(reach.size, "pushed") if fused.COMPILED else None
    for layer, lo, hi in top_down(model):
        a0, a1 = model.layer_actions(layer)
        if a1 - a0 == hi - lo:  # one action each (or none: nothing to push)
            if a1 > a0:
                model.push(layer, reach[lo:hi], reach, table)
            continue
        starts = model.action_offsets(lo, hi)[:-1]
        step = max(1, PIECE_OF_COLUMNS // width)
        following = model.action_next[a0:a1].astype(np.int64)
        certain_layer = compiled is not None and bool((following >= 0).all())
        for s0 in range(lo, hi, step):
            s1 = min(s0 + step, hi)
            if certain_layer:  # every action certain: pushed as below, compiled
                fused_rounds.pushed(compiled, reach, choice, starts.astype(np.int64), following,
                                    lo, s0, s1)
                continue
            taken = choice[s0:s1] + starts[s0 - lo:s1 - lo, None].astype(np.int64)
            nexts = model.action_next[taken].astype(np.int64)
            certain = nexts >= 0
            index = nexts * width + columns
            if certain.all():
                _add(flat, index.ravel(), reach[s0:s1].ravel())
            else:
                _add(flat, index[certain], reach[s0:s1][certain])
                # Chance actions chosen: the mass of each in each column, pushed as one. An
                # action is its one state's, chosen at most once a column: no sum needed.
                chance = ~certain
                actions = taken[chance]
                b0, b1 = int(actions.min()), int(actions.max()) + 1
                spread = np.zeros((b1 - b0, width))
                spread[actions - b0, np.broadcast_to(columns, taken.shape)[chance]] = \
                    reach[s0:s1][chance]
                model.push(layer, spread, reach, table, actions=(b0, b1))
    return reach


def _add(flat: np.ndarray, index: np.ndarray, mass: np.ndarray) -> None:
    """Add ``mass`` at the places ``index`` of ``flat``, a place given more than once
    receiving the sum: a count weighted by the mass, over the span of places given (far
    quicker than ``np.add.at``)."""
    if not len(index):
        return
    lo = int(index.min())
    span = int(index.max()) + 1 - lo
    flat[lo:lo + span] += np.bincount(index - lo, weights=mass, minlength=span)


def top_down(model: CompiledModel) -> Iterator[tuple[int, int, int]]:
    """Every layer but the terminal states', the initial state's first: its number, its
    first state and one past its last (:func:`forward`, and tables of every state's
    actions, :func:`mdp.policy_pieces`)."""
    for layer in range(model.n_layers - 1, 0, -1):
        yield layer, int(model.layer_start[layer]), int(model.layer_start[layer + 1])


def bottom_up(model: CompiledModel) -> Iterator[tuple[int, int, int]]:
    """Every layer but the terminal states', the lowest first: its number, its first state
    and one past its last (the solve of a model with cycles, :mod:`mdp.engine.cycles`)."""
    for layer in range(1, model.n_layers):
        yield layer, int(model.layer_start[layer]), int(model.layer_start[layer + 1])


def best(sense: str) -> Decide:
    """Optimal play: each state's best action value (``sense`` ``"max"`` or ``"min"``)."""
    ufunc = np.maximum if sense == "max" else np.minimum

    def decide(backup: Callable[..., np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        if where.c1 - where.c0 == 1:  # one column: numpy's reduceat is quick along it
            return ufunc.reduceat(backup(), starts)
        return per_state(ufunc, backup, starts, where.a1 - where.a0)

    return decide


MOST_RANKS = 64
"""Actions of a state up to which :func:`per_state` goes through them by rank."""


def per_state(ufunc: np.ufunc, backup: Callable[..., np.ndarray], starts: np.ndarray,
              count: int) -> np.ndarray:
    """``ufunc`` (a maximum, say) over each state's actions, for many columns: ``backup(ids)``
    gives the values of some of the ``count`` actions (a row each), ``starts`` the states'
    first. The states with the most actions first, every state's first action, then the
    second of those that have one, and so on, each a pass over whole rows: numpy's
    ``reduceat`` along rows is several times slower."""
    counts = np.diff(starts, append=count)
    most = int(counts.max()) if len(counts) else 0
    if most == 1:
        return backup()
    if most > MOST_RANKS:
        return ufunc.reduceat(backup(), starts, axis=0)
    order = np.argsort(-counts, kind="stable")
    first = starts[order]
    having = np.searchsorted(-counts[order], -np.arange(most), side="left")  # counts > rank
    top = backup(first)
    for rank in range(1, most):
        n = int(having[rank])
        ufunc(top[:n], backup(first[:n] + rank), out=top[:n])
    result = np.empty_like(top)
    result[order] = top
    return result


def _column_pieces(width: int, count: int, piece: int = PIECE) -> list[tuple[int, int]]:
    """The value columns cut into runs for pieces of a layer of ``count`` actions: all of
    them where a piece of ``piece`` numbers holds them, else runs of about ``piece / count``
    columns (at least :data:`FEWEST_COLUMNS`)."""
    size = width if width * max(count, 1) <= piece else max(FEWEST_COLUMNS, piece // max(count, 1))
    size = max(1, min(size, width))
    return [(c, min(c + size, width)) for c in range(0, width, size)]
