"""The compiled kernels (numba, the optional extra ``fast``; loaded by
:func:`mdp.engine.fused.kernel`) of the chance of every total of a game of rounds: the moves
of each round state's chances of every total to the round states of the next round
(:func:`moved`, in the order :func:`order_of_moves` gives), the chances of a round's
states pushed forward along actions chosen that each come to one state
(:func:`pushed`), and those of chance actions spread over their outcomes (:func:`spread`).

Each makes the sums the numpy code it stands for makes, in the same order, so that the
chances are the same bit for bit: a sum of moves into one round state from one block at one
shift, then added (:meth:`mdp.engine.rounds.vectors.Totals.moved`'s sparse products), and a
piece of states' chances summed into each successor in the order of the states and columns,
then added (``np.bincount``'s sum in :func:`mdp.engine.sweep.forward_chosen`), and each
outcome's product added to its successor's in turn (``np.add.at``). Nothing
assumes fast arithmetic (no reordering, no fused multiply and add).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def order_of_moves(found: Any, d: np.ndarray, key: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """With the compiled kernel ``found`` of :func:`_order_of_moves`: the order that sorts
    moves by ``d`` (whole numbers below ``n``), then by ``key``, equal ones in their order (a
    stable sort), and where the moves of each ``d`` begin in it (``n + 1`` places)."""
    order = np.empty(len(d), dtype=np.int64)
    start = np.zeros(n + 1, dtype=np.int64)
    found(d, key, order, start)
    return order, start


def _order_of_moves(d: Any, key: Any, order: Any, start: Any) -> None:  # pragma: no cover
    """The kernel of :func:`order_of_moves`: counted by ``d``, then each ``d``'s few sorted by
    ``key`` in place (a stable sort: by insertion, or merging where they are many)."""
    for i in range(len(d)):
        start[d[i] + 1] += 1
    for t in range(1, len(start)):
        start[t] += start[t - 1]
    filled = start[:-1].copy()
    for i in range(len(d)):
        order[filled[d[i]]] = i
        filled[d[i]] += 1
    for t in range(len(start) - 1):
        a, b = start[t], start[t + 1]
        if b - a > 64:
            these = order[a:b].copy()
            order[a:b] = these[np.argsort(key[these], kind="mergesort")]
            continue
        for x in range(a + 1, b):
            m, y = order[x], x - 1
            while y >= a and key[order[y]] > key[m]:
                order[y + 1] = order[y]
                y -= 1
            order[y + 1] = m


def moved(found: Any, source: np.ndarray, source_at: np.ndarray, source_width: np.ndarray,
          target: np.ndarray, target_at: np.ndarray, s: np.ndarray, d: np.ndarray,
          shift: np.ndarray, chance: np.ndarray, key: np.ndarray, order: np.ndarray) -> None:
    """With the compiled kernel ``found`` of :func:`_moved`: vector ``s[i]`` (``source``
    from ``source_at[s[i]]``, ``source_width[s[i]]`` long) times ``chance[i]`` added to
    vector ``d[i]`` of ``target`` (from ``target_at[d[i]]``) at ``shift[i]``, for each
    ``i`` of ``order`` (sorted by ``d``, then ``key``), each run of moves of one ``d`` and
    one ``key`` summed first, as :meth:`mdp.engine.rounds.vectors.Totals.moved` adds them."""
    width = int(source_width[s].max(initial=1)) if len(s) else 1
    found(source, source_at, source_width, target, target_at, s, d, shift, chance, key, order,
          np.empty(width))


def _moved(source: Any, source_at: Any, source_width: Any, target: Any, target_at: Any, s: Any,
           d: Any, shift: Any, chance: Any, key: Any, order: Any,
           sums: Any) -> None:  # pragma: no cover
    """The kernel of :func:`moved`: the moves of each run (one after another in ``order``)
    summed first, from 0 in their order, then that sum added to the vector, as a sparse
    matrix of the run's chances times the rows moved (scipy's kernel) and the product added.
    Past a vector's own width its row holds zeros, which add nothing: left out."""
    i = 0
    while i < len(order):
        first = order[i]
        into, k, j, used = d[first], key[first], i, 0
        while j < len(order) and d[order[j]] == into and key[order[j]] == k:
            m = order[j]
            at, n, p = source_at[s[m]], source_width[s[m]], chance[m]
            if n > used:
                sums[used:n] = 0.0
                used = n
            # Views, indexed from 0: the loops then vectorize (a sum of indices does not).
            row, part = source[at:at + n], sums[:n]
            for c in range(n):
                part[c] += p * row[c]
            j += 1
        at = target_at[into] + shift[first]
        out = target[at:at + used]
        for c in range(used):
            out[c] += sums[c]
        i = j


def pushed(found: Any, reach: np.ndarray, choice: np.ndarray, starts: np.ndarray,
           action_next: np.ndarray, lo: int, s0: int, s1: int) -> None:
    """With the compiled kernel ``found`` of :func:`_pushed`: the chances of states ``s0``
    to ``s1 - 1`` (rows of ``reach``, of a layer from state ``lo`` whose actions, beginning
    at ``starts``, each come to one state: ``action_next``, the layer's actions' own) pushed
    along the action each column chooses (``choice``) to its successor, as
    :func:`mdp.engine.sweep.forward_chosen` adds them."""
    found(reach, choice, starts, action_next, int(action_next.min()), int(action_next.max()),
          lo, s0, s1)


def _pushed(reach: Any, choice: Any, starts: Any, action_next: Any, first: int, last: int,
            lo: int, s0: int, s1: int) -> None:  # pragma: no cover
    """The kernel of :func:`pushed`: each successor's share summed from 0 in the order of
    the states and columns, then added to ``reach`` (as ``np.bincount`` with weights, then
    ``+=``, over the span of the places reached: here the rows of every successor of the
    layer, ``first`` to ``last``, whose places no move reaches gain a 0, as there)."""
    width = reach.shape[1]
    sums = np.zeros((last + 1 - first, width))
    a0 = starts[0]
    for s in range(s0, s1):
        base, taken, mass = starts[s - lo] - a0, choice[s], reach[s]
        for c in range(width):
            sums[action_next[base + taken[c]] - first, c] += mass[c]
    for k in range(last + 1 - first):
        row, part = reach[first + k], sums[k]
        for c in range(width):
            row[c] += part[c]


def spread(found: Any, reach: np.ndarray, mass: np.ndarray, rows: np.ndarray, counts: np.ndarray,
           targets: np.ndarray, weights: np.ndarray) -> None:
    """With the compiled kernel ``found`` of :func:`_spread`: the chances ``mass[rows[k]]``
    of chance actions (a row each, a column per way of playing) spread over their outcomes,
    ``counts[k]`` each in turn, into the rows ``targets`` of ``reach`` with the chances
    ``weights``, as :meth:`mdp.engine.operations.Operations.push` adds them."""
    found(reach, mass, rows.astype(np.int64), counts.astype(np.int64),
          targets.astype(np.int64), weights)


def _spread(reach: Any, mass: Any, rows: Any, counts: Any, targets: Any,
            weights: Any) -> None:  # pragma: no cover
    """The kernel of :func:`spread`: each outcome's product added to its row in the order of
    the outcomes (as ``np.add.at`` adds ``np.repeat(mass[rows], counts) * weights``)."""
    o = 0
    for k in range(len(rows)):
        source = mass[rows[k]]
        for _ in range(counts[k]):
            row, weight = reach[targets[o]], weights[o]
            for c in range(reach.shape[1]):
                row[c] += source[c] * weight
            o += 1


def tried_spread(found: Any) -> None:
    none = np.zeros(0, np.int64)
    spread(found, np.zeros((1, 1)), np.zeros((1, 1)), none, none, none, np.zeros(0))


def tried_order(found: Any) -> None:
    order_of_moves(found, np.zeros(1, np.int64), np.zeros(1, np.int64), 1)


def tried_moved(found: Any) -> None:
    none = np.zeros(0, np.int64)
    moved(found, np.zeros(1), none, none, np.zeros(1), none, none, none, none, np.zeros(0), none, none)


def tried_pushed(found: Any) -> None:
    pushed(found, np.zeros((1, 1)), np.zeros((1, 1), np.int16), np.zeros(1, np.int64),
           np.zeros(1, np.int64), 0, 0, 0)
