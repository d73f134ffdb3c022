"""The kernel of :mod:`mdp.engine.columns` compiled (numba, the optional extra ``fast``): a
block's whole pass through the layers in one call, each state's row made at once, where the
numpy kernel makes a layer's rows pass by pass (a gather of whole rows, then a maximum in
place, rank after rank), each pass a call over the block's rows.

The arithmetic is the same, in the same order, so that the values are the same bit for bit:
each state's best is its first action's row, then the best of that and the next (the best of
two as numpy's scalar loop takes it: the first where it is not worse, or where it is NaN),
action after action in the order of the ranks; a chance action's row is 0 plus each outcome's
probability times its row, in the order of the outcomes in the sparse matrix (as scipy's
kernel adds them); the shared pairs of :mod:`mdp.engine.merges` are made first, level by
level, as the numpy kernel makes them. Nothing here assumes fast arithmetic (no reordering,
no fused multiply and add). Asked for each state's choice too (:func:`run_chosen`, with
the kernel of :mod:`mdp.engine.fused_chosen`), it writes the first action within the tie
of the best, as the numpy kernel's ``_first_tied`` does. numba is imported, and each kernel
compiled (or read from numba's cache), the first time it is asked for (:func:`kernel`; those
of the totals of a game of rounds are :mod:`mdp.engine.fused_rounds`'): a game that works
none starts no faster or slower for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from mdp.engine import fused_chosen, fused_prints, fused_reads, fused_rounds
from mdp.limits import address_space

WORTH_LOADING = 10**8
"""Rows times columns (about a third of a second of the numpy kernel) that a process works
before it loads the compiled kernel: loading it (numba, and the kernel from numba's cache)
costs about that much, so a small solve stays as fast as it was, and no run is slower than
twice what the better of the two choices, known beforehand, would take."""

COMPILED = True
"""Whether the compiled kernels (this module's, :mod:`mdp.engine.fused_rounds`' and
:mod:`mdp.engine.fused_reads`') work where numba is installed, with each state's choice
where it is asked for: the same values and choices, bit for bit, as the numpy kernels."""

_LOCK = threading.Lock()
_KERNEL: list[Any] = []
"""The compiled kernel once made, or ``None`` where numba is not installed or cannot make it."""
_WORKED = [0]


@attrs.frozen(eq=False)
class Program:
    """A plan of layers (:func:`mdp.engine.columns.plan`) as flat arrays for the kernel:
    a row of ``table`` per layer (its first and last state plus one, where its states' members
    start in ``starts``, its new rows' pairs in ``pairs`` and how many, the first of them, and
    where its chance actions' rows start in ``indptr``); each state's members (``members``:
    a row of the buffer, or ``-1 - k`` for the layer's ``k``-th chance action, in the order
    the numpy kernel takes them); the chance actions' outcomes, CSR (``indptr``, ``indices``:
    rows of the buffer, ``data``: probabilities)."""

    table: np.ndarray
    starts: np.ndarray
    members: np.ndarray
    pairs: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray


def kernel(work: int, which: str = "run") -> Any:
    """The compiled kernel ``which`` (``"run"``: :func:`run`'s; ``"chosen"``:
    :func:`run_chosen`'s and :func:`~mdp.engine.followed.best_followed`'s; ``"moved"``,
    ``"order"``, ``"pushed"`` and ``"spread"``: those of :mod:`mdp.engine.fused_rounds`;
    ``"prints"``: :mod:`mdp.engine.fused_prints`'; ``"keys"``, ``"alike"`` and ``"fill"``: those of
    :mod:`mdp.engine.fused_reads`) for ``work`` more rows times columns, or ``None`` where
    numba is not installed or the work so far in this process is less than
    :data:`WORTH_LOADING`. Each is compiled (or read from numba's cache) the first time it is
    asked for, once numba is loaded."""
    with _LOCK:
        if not _KERNEL:
            _WORKED[0] += work
            if _WORKED[0] < WORTH_LOADING:
                return None
            _KERNEL.append({"run": _made(_run, _tried_run)})
        made = _KERNEL[0]
        if which not in made:
            function, trial = _KERNELS[which]
            made[which] = None if made["run"] is None else _made(function, trial)
        return made[which]


def _made(function: Any, trial: Callable[[Any], None]) -> Any:
    """``function`` compiled, tried by ``trial`` on an empty case, or ``None`` where numba is not
    installed or cannot make it: a setting of its own it cannot read (``NUMBA_NUM_THREADS=abc``
    fails its import), a cache damaged (a disk that filled as it was written), its JIT turned
    off (which leaves the kernel in Python). ``None`` too under a limit of address space
    (``ulimit -v``): what numba loads reserves it freely (LLVM, scipy's OpenBLAS, whose start
    loops for ever, deaf to signals, where it finds none). The kernel only makes the work
    faster: without it the numpy kernel gives the same values."""
    if address_space() is not None:
        return None
    try:
        import numba
    except Exception:  # not installed, or its import failed (a warning taken as an error)
        return None
    # Cached where numba may write (beside this file, or in the user's folder); where it may
    # not, or its cache cannot be read, compiled in the process (about a second).
    for cache in (True, False):
        try:
            found = numba.njit(cache=cache, nogil=True)(function)
            trial(found)
        except Exception:
            continue
        # compiled: with numba's JIT off (NUMBA_DISABLE_JIT, numba.config), njit gives the
        # function back as it is, Python's loops a thousand times slower than numpy's
        return found if getattr(found, "signatures", None) else None
    return None


def program(layers: tuple[Any, ...], merged: bool = True) -> Program:
    """The :class:`Program` of ``layers`` (:class:`mdp.engine.columns.Layer`, the kernel's
    plan: named, not imported, so that this module stays below that one); without the shared
    pairs where not ``merged`` (each state's members its actions in their order, as
    :func:`run_chosen` needs them)."""
    table: list[list[int]] = []
    starts: list[np.ndarray] = []
    members: list[np.ndarray] = []
    pairs: list[np.ndarray] = []
    indptr, indices, data = [np.zeros(1, np.int64)], [], []
    n_starts = n_members = n_pairs = n_outcomes = n_chance = 0
    for layer in layers:
        levels: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        rank_rows, inverse, first = layer.rank_rows, layer.inverse, 0
        if layer.merges is not None and merged:
            merges = layer.merges
            levels, rank_rows, inverse, first = (merges.levels, merges.rank_rows,
                                                 merges.inverse, merges.first)
        if layer.chance is not None and layer.chance_at is not None:
            # Ranks over the layer's actions: a row where it is certain, else its expectation.
            code = layer.certain.copy()
            code[layer.chance_at] = -1 - np.arange(len(layer.chance_at))
            rank_rows = tuple(code[rows] for rows in rank_rows)
            indptr.append(layer.chance.indptr[1:].astype(np.int64) + n_outcomes)
            indices.append(layer.chance.indices.astype(np.int64) + layer.below)
            data.append(layer.chance.data.astype(np.float64))
        made = sum(len(a) for a, _ in levels)
        table.append([layer.lo, layer.hi, n_starts, n_pairs, made, first,
                      n_chance])
        flat, bounds = _members(rank_rows, inverse)
        starts.append(bounds + n_members)
        members.append(flat)
        pairs += [np.stack([a, b], axis=1).astype(np.int64).ravel() for a, b in levels]
        n_starts += len(bounds)
        n_members += len(flat)
        n_pairs += made
        if layer.chance is not None:
            n_chance += layer.chance.shape[0]
            n_outcomes += layer.chance.nnz
    ints = [_joined(parts, np.int64) for parts in (starts, members, pairs, indptr, indices)]
    return Program(np.array(table, dtype=np.int64).reshape(-1, 7), ints[0], ints[1], ints[2],
                   ints[3], ints[4], _joined(data, np.float64))


def _members(rank_rows: tuple[np.ndarray, ...], inverse: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each state's members in the order of the ranks, one state after another in the order
    of the ranks, and where each state's (in the order of the states) begin and end, in turn."""
    counts = np.zeros(len(inverse), dtype=np.int64)
    for rows in rank_rows:
        counts[:len(rows)] += 1
    at = np.cumsum(counts) - counts
    flat = np.empty(int(counts.sum()), dtype=np.int64)
    for k, rows in enumerate(rank_rows):
        flat[at[:len(rows)] + k] = rows
    return flat, np.stack([at[inverse], at[inverse] + counts[inverse]], axis=1).ravel()


def _joined(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
    return np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros(0), dtype=dtype)


def run(found: Any, code: Program, values: np.ndarray, maximum: bool) -> None:
    """Work every layer of ``code`` on the block ``values`` (a row per state, C order) with
    the compiled kernel ``found``."""
    found(values, code.table, code.starts, code.members, code.pairs, code.indptr, code.indices,
          code.data, np.empty(values.shape[1]), maximum)


def _run(values: Any, table: Any, starts: Any, members: Any, pairs: Any, indptr: Any,
         indices: Any, data: Any, scratch: Any, maximum: bool) -> None:  # pragma: no cover
    """The kernel, compiled by :func:`kernel`: the best of two (``x`` kept where it is not
    worse than ``y`` or is NaN, as numpy's scalar ``maximum`` and ``minimum`` keep their first)
    written out in each of its loops, so that the compiled loops have no call in them. A
    state's members that are rows are taken five at a time in one pass (its first and four
    more, or its best so far and four more; where fewer follow, the last taken again: the
    best of a row and itself is that row, bit for bit), a chance action's outcomes four at a
    time from 0, and the two or three left in one pass: the same steps in the same order,
    each value of the state's row read and written once for each pass, where each step read
    and wrote it (a fifth to a quarter less CPU a column of Yatzy's round than four rows at a
    time after the first and each left one by one, measured: docs/performance.rst)."""
    width = values.shape[1]
    take = np.empty(4, dtype=np.int64)  # the rows a pass takes after its first
    for layer in range(table.shape[0]):
        lo, hi, s0, p0, made, first, c0 = table[layer]
        for j in range(made):  # the shared pairs, level by level: each a new row
            a, b, out = values[pairs[2 * (p0 + j)]], values[pairs[2 * (p0 + j) + 1]], values[first + j]
            if maximum:
                for c in range(width):
                    x, y = a[c], b[c]
                    out[c] = x if (x >= y) | (x != x) else y
            else:
                for c in range(width):
                    x, y = a[c], b[c]
                    out[c] = x if (x <= y) | (x != x) else y
        for s in range(hi - lo):
            out = values[lo + s]
            m0, m1 = starts[s0 + 2 * s], starts[s0 + 2 * s + 1]
            m = m0
            while m < m1:
                row = members[m]
                if row >= 0:  # this row and up to four after it, in one pass
                    own = row if m == m0 else lo + s  # (lo + s: the state's best so far)
                    m += 1 if m == m0 else 0
                    at = own
                    for t in range(4):  # (a row taken again, or the first, changes nothing)
                        if m < m1 and members[m] >= 0:
                            at = members[m]
                            m += 1
                        take[t] = at
                    init, r0, r1 = values[own], values[take[0]], values[take[1]]
                    r2, r3 = values[take[2]], values[take[3]]
                    if maximum:
                        for c in range(width):
                            x, y = init[c], r0[c]
                            x = x if (x >= y) | (x != x) else y
                            y = r1[c]
                            x = x if (x >= y) | (x != x) else y
                            y = r2[c]
                            x = x if (x >= y) | (x != x) else y
                            y = r3[c]
                            out[c] = x if (x >= y) | (x != x) else y
                    else:
                        for c in range(width):
                            x, y = init[c], r0[c]
                            x = x if (x <= y) | (x != x) else y
                            y = r1[c]
                            x = x if (x <= y) | (x != x) else y
                            y = r2[c]
                            x = x if (x <= y) | (x != x) else y
                            y = r3[c]
                            out[c] = x if (x <= y) | (x != x) else y
                    continue
                # a chance action's expectation, summed as scipy's kernel sums it
                source = out if m == m0 else scratch
                k = c0 - 1 - row
                o, o1 = indptr[k], indptr[k + 1]
                if o + 3 < o1:  # the sum from 0 and its first four, in one pass
                    q0, q1, q2, q3 = data[o], data[o + 1], data[o + 2], data[o + 3]
                    b0, b1 = values[indices[o]], values[indices[o + 1]]
                    b2, b3 = values[indices[o + 2]], values[indices[o + 3]]
                    for c in range(width):
                        source[c] = (((0.0 + q0 * b0[c]) + q1 * b1[c]) + q2 * b2[c]) + q3 * b3[c]
                    o += 4
                else:
                    for c in range(width):
                        source[c] = 0.0
                while o + 3 < o1:
                    q0, q1, q2, q3 = data[o], data[o + 1], data[o + 2], data[o + 3]
                    b0, b1 = values[indices[o]], values[indices[o + 1]]
                    b2, b3 = values[indices[o + 2]], values[indices[o + 3]]
                    for c in range(width):
                        source[c] = (((source[c] + q0 * b0[c]) + q1 * b1[c]) + q2 * b2[c]) \
                            + q3 * b3[c]
                    o += 4
                if o + 1 < o1:  # two or three left, in one pass
                    q0, q1 = data[o], data[o + 1]
                    b0, b1 = values[indices[o]], values[indices[o + 1]]
                    if o + 2 < o1:
                        q2, b2 = data[o + 2], values[indices[o + 2]]
                        for c in range(width):
                            source[c] = ((source[c] + q0 * b0[c]) + q1 * b1[c]) + q2 * b2[c]
                    else:
                        for c in range(width):
                            source[c] = (source[c] + q0 * b0[c]) + q1 * b1[c]
                elif o < o1:
                    p, below = data[o], values[indices[o]]
                    for c in range(width):
                        source[c] += p * below[c]
                if m > m0 and maximum:  # (the first is written to out already)
                    for c in range(width):
                        x, y = out[c], source[c]
                        out[c] = x if (x >= y) | (x != x) else y
                elif m > m0:
                    for c in range(width):
                        x, y = out[c], source[c]
                        out[c] = x if (x <= y) | (x != x) else y
                m += 1


def run_chosen(found: Any, code: Program, plain: Program, values: np.ndarray, choice: np.ndarray,
               maximum: bool, tie: float) -> None:
    """As :func:`run` with the compiled kernel ``found`` (:mod:`mdp.engine.fused_chosen`'s,
    following no companion), and each state's choice written to ``choice`` (int16, a row
    per state): the place among its actions of the first whose value is within ``tie``
    times the best's magnitude of the best (:func:`mdp.engine.policy.tie_margin`), 0 where
    none is. The values are worked by
    ``code``; each state's actions are those of ``plain``, the same plan made without
    shared pairs (the best of a set is the same whatever the order it is taken in, but for
    the sign of a zero, which no tie tells apart)."""
    most = int(np.diff(plain.starts.reshape(-1, 2), axis=1).max(initial=1))
    none = np.empty((0, 1, values.shape[1]))
    found(values, none, code.table, code.starts, code.members, code.pairs, code.indptr,
          code.indices, code.data, plain.table, plain.starts, plain.members,
          np.empty((max(most, 1), values.shape[1])), none, choice, maximum, tie)


def _tried_run(found: Any) -> None:
    run(found, program(()), np.zeros((1, 1)), True)


def reads() -> fused_reads.Reads | None:
    """The compiled reads of a table (:class:`~mdp.engine.fused_reads.Reads`), once the
    kernel is loaded (:func:`kernel`); ``None`` before, where numba is not installed or cannot
    make them: what they read is the same as numpy's gathers, bit for bit. Made with the
    kernel loaded now, never kept from another."""
    with _LOCK:
        if not _KERNEL or _KERNEL[0]["run"] is None:
            return None
    made = [kernel(0, which) for which in ("keys", "alike", "fill")]
    return None if None in made else fused_reads.Reads(*made)


_KERNELS: dict[str, tuple[Any, Callable[[Any], None]]] = {
    "run": (_run, _tried_run), "chosen": (fused_chosen._chosen, fused_chosen.tried),
    "keys": (fused_reads._keys, fused_reads.tried_keys),
    "alike": (fused_reads._alike, fused_reads.tried_alike),
    "fill": (fused_reads._fill, fused_reads.tried_fill),
    "moved": (fused_rounds._moved, fused_rounds.tried_moved),
    "order": (fused_rounds._order_of_moves, fused_rounds.tried_order),
    "pushed": (fused_rounds._pushed, fused_rounds.tried_pushed),
    "spread": (fused_rounds._spread, fused_rounds.tried_spread),
    "prints": (fused_prints._prints, fused_prints.tried)}
