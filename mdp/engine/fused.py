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
no fused multiply and add). numba is imported, and the kernel compiled (or read from numba's
cache), the first time a model's columns are worked: a game that works none starts no
faster or slower for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from mdp.limits import address_space

WORTH_LOADING = 10**8
"""Rows times columns (about a third of a second of the numpy kernel) that a process works
before it loads the compiled kernel: loading it (numba, and the kernel from numba's cache)
costs about that much, so a small solve stays as fast as it was, and no run is slower than
twice what the better of the two choices, known beforehand, would take."""

_LOCK = threading.Lock()
_KERNEL: list[Any] = []
"""The compiled kernel once made, or ``None`` where numba is not installed or cannot make it."""
_WORKED = [0]
_READS: list[Any] = []
"""The kernel loaded and the compiled reads of a table (:class:`Reads`) made with it, or
``None`` where numba cannot make them."""


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


def kernel(work: int) -> Any:
    """The compiled kernel for ``work`` more rows times columns, or ``None`` where numba is
    not installed or the work so far in this process is less than :data:`WORTH_LOADING`."""
    with _LOCK:
        if not _KERNEL:
            _WORKED[0] += work
            if _WORKED[0] < WORTH_LOADING:
                return None
            _KERNEL.append(_made())
        return _KERNEL[0]


@attrs.frozen(eq=False)
class Reads:
    """Reads of a table of floats at places clipped row by row, compiled: column ``i`` (of a
    row ``s[i]`` and a need ``need[i]``) reads, for each ``j``, the table at ``need[i] +
    shift[s[i], j]`` held between ``at[s[i], j]`` and ``end[s[i], j]``; those of the same
    row read neighbouring places. ``keys`` writes each column's key, the sum of the bits of
    what it reads times ``mixing[j]`` (modulo 2**64, as numpy's product of unsigned integers
    sums them); ``alike`` says whether each column reads the same bits as the column
    ``like[i]``; ``fill`` writes what columns ``picked`` read into ``out``, a row per column
    picked (written a column at a time, a row of 256 columns apart, each row of the block
    fell in the same few sets of the processor's cache: twice as slow, measured, as a row
    at a time and numpy's transposed copy)."""

    keys: Any
    alike: Any
    fill: Any


def reads() -> Reads | None:
    """The compiled :class:`Reads`, made the first time they are asked for, once the kernel
    is loaded (:func:`kernel`); ``None`` before, where numba is not installed or cannot make
    them: what they read is the same as numpy's gathers, bit for bit."""
    with _LOCK:
        if not _KERNEL or _KERNEL[0] is None:
            return None
        if not _READS or _READS[0][0] is not _KERNEL[0]:  # made with the kernel loaded now
            _READS[:] = [(_KERNEL[0], _made_reads())]
        return _READS[0][1]


def _made_reads() -> Reads | None:
    places = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    trials = [(_keys, lambda f: f(np.zeros(1, np.uint64), none, none, places, places, places,
                                  np.zeros(1, np.uint64), np.zeros(0, np.uint64))),
              (_alike, lambda f: f(np.zeros(1, np.uint64), none, none, places, places, places,
                                   none)),
              (_fill, lambda f: f(np.zeros(1), none, none, places, places, places, none,
                                  np.zeros((0, 1))))]
    made = [_compiled(function, trial) for function, trial in trials]
    return None if None in made else Reads(*made)


def _made() -> Any:
    """The compiled kernel, tried on an empty program, or ``None`` where numba is not
    installed or cannot make it: a setting of its own it cannot read (``NUMBA_NUM_THREADS=abc``
    fails its import), a cache damaged (a disk that filled as it was written), its JIT turned
    off (which leaves the kernel in Python). ``None`` too under a limit of address space
    (``ulimit -v``): what numba loads reserves it freely (LLVM, scipy's OpenBLAS, whose start
    loops for ever, deaf to signals, where it finds none). The kernel only makes the work
    faster: without it the numpy kernel gives the same values."""
    if address_space() is not None:
        return None
    try:
        import numba  # noqa: F401
    except Exception:  # not installed, or its import failed (a warning taken as an error)
        return None
    return _compiled(_run, lambda found: run(found, program(()), np.zeros((1, 1)), True))


def _compiled(function: Any, trial: Callable[[Any], Any]) -> Any:
    """``function`` compiled by numba (already imported) and tried once by ``trial``, or
    ``None`` where numba cannot make it."""
    import numba

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


def program(layers: tuple[Any, ...]) -> Program:
    """The :class:`Program` of ``layers`` (:class:`mdp.engine.columns.Layer`, the kernel's
    plan: named, not imported, so that this module stays below that one)."""
    table: list[list[int]] = []
    starts: list[np.ndarray] = []
    members: list[np.ndarray] = []
    pairs: list[np.ndarray] = []
    indptr, indices, data = [np.zeros(1, np.int64)], [], []
    n_starts = n_members = n_pairs = n_outcomes = n_chance = 0
    for layer in layers:
        levels: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        rank_rows, inverse, first = layer.rank_rows, layer.inverse, 0
        if layer.merges is not None:
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
    written out in each of its two loops, so that the compiled loops have no call in them."""
    width = values.shape[1]
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
            for m in range(m0, m1):
                row = members[m]
                if row >= 0:
                    source = values[row]
                else:  # a chance action's expectation, summed as scipy's kernel sums it
                    source = out if m == m0 else scratch
                    k = c0 - 1 - row
                    for c in range(width):
                        source[c] = 0.0
                    for o in range(indptr[k], indptr[k + 1]):
                        p = data[o]
                        below = values[indices[o]]
                        for c in range(width):
                            source[c] += p * below[c]
                if m == m0:
                    if row >= 0:
                        for c in range(width):
                            out[c] = source[c]
                elif maximum:
                    for c in range(width):
                        x, y = out[c], source[c]
                        out[c] = x if (x >= y) | (x != x) else y
                else:
                    for c in range(width):
                        x, y = out[c], source[c]
                        out[c] = x if (x <= y) | (x != x) else y


def _keys(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, mixing: Any,
          key: Any) -> None:  # pragma: no cover
    """:attr:`Reads.keys`, compiled by :func:`reads` (``bits``: the table's, as uint64)."""
    for i in range(len(s)):
        r, n, k = s[i], need[i], mixing[0] ^ mixing[0]
        for j in range(shift.shape[1]):
            p = min(max(n + shift[r, j], at[r, j]), end[r, j])
            k += bits[p] * mixing[j]
        key[i] = k


def _alike(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any,
           like: Any) -> bool:  # pragma: no cover
    """:attr:`Reads.alike`, compiled by :func:`reads`."""
    for i in range(len(s)):
        o = like[i]
        if o == i:
            continue
        r, q = s[i], s[o]
        for j in range(shift.shape[1]):
            p = min(max(need[i] + shift[r, j], at[r, j]), end[r, j])
            t = min(max(need[o] + shift[q, j], at[q, j]), end[q, j])
            if bits[p] != bits[t]:
                return False
    return True


def _fill(table: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, picked: Any,
          out: Any) -> None:  # pragma: no cover
    """:attr:`Reads.fill`, compiled by :func:`reads`."""
    for c in range(len(picked)):  # a row of out at a time (a column of the block)
        i = picked[c]
        r, n = s[i], need[i]
        for j in range(shift.shape[1]):
            out[c, j] = table[min(max(n + shift[r, j], at[r, j]), end[r, j])]
