"""The compiled reads of a table of floats (numba, the optional extra ``fast``; made by
:func:`mdp.engine.fused.reads` once the kernel is loaded) with which the sweep toward every
total reads the ends' worths from the next round's table
(:meth:`mdp.engine.rounds.worth.Ends.best`): each column's key, the check of columns found
alike, and each block's distinct columns, never laying out every column's worths. What they
read is what numpy's gathers read, bit for bit."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np


@attrs.frozen(eq=False)
class Reads:
    """Reads of a table of floats at places clipped row by row, compiled: column ``i`` (of a
    row ``s[i]`` and a need ``need[i]``) reads, for each ``t`` below ``count[s[i]]``, the
    table at ``need[i] + shift[s[i], t]`` held between ``at[s[i], t]`` and ``end[s[i], t]``:
    its end ``live[s[i], t]``; its other ends (``live[s[i], t]`` from ``count[s[i]]`` on) are
    the table's last place, never read. Those of the same row read neighbouring places.
    ``keys`` writes each column's key, the sum of the bits of what it reads times
    ``mixing[j]`` for its end ``j``, plus ``dead[s[i]]``, what its other ends add (modulo
    2**64, as numpy's product of unsigned integers sums them); ``alike`` says whether each
    column reads the same bits as the column ``like[i]`` (not where their rows' ``group``
    differs, which says which ends a row reads); ``fill`` writes what columns ``picked``
    read into ``out``, a row per end, a column per column picked: the block as the kernel
    reads it, written a run of columns of one row at a time, an end at a time (the table's
    places each reads neighbours, and so the places written)."""

    keys: Any
    alike: Any
    fill: Any


def _empty() -> tuple[Any, ...]:
    """The places of no column of one row of one end."""
    places = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    return none, none, places, places, places, places.astype(np.int32), np.zeros(1, dtype=np.int64)


def tried_keys(found: Any) -> None:
    found(np.zeros(1, np.uint64), *_empty(), np.zeros(1, np.uint64), np.zeros(1, np.uint64),
          np.zeros(0, np.uint64))


def tried_alike(found: Any) -> None:
    found(np.zeros(1, np.uint64), *_empty(), np.zeros(1, np.int64), np.zeros(0, np.int64))


def tried_fill(found: Any) -> None:
    found(np.zeros(1), *_empty(), np.zeros(0, np.int64), np.zeros((1, 0)))


def _keys(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, live: Any, count: Any,
          mixing: Any, dead: Any, key: Any) -> None:  # pragma: no cover
    """:attr:`Reads.keys`, compiled by :func:`mdp.engine.fused.reads` (``bits``: the table's, as uint64)."""
    n, a = len(s), 0
    while a < n:  # a run of columns of one row at a time, an end at a time, as _fill
        r, b = s[a], a + 1
        while b < n and s[b] == r:
            b += 1
        for c in range(a, b):
            key[c] = dead[r]
        for t in range(count[r]):
            w, d, lo, hi = mixing[live[r, t]], shift[r, t], at[r, t], end[r, t]
            for c in range(a, b):
                key[c] += bits[min(max(need[c] + d, lo), hi)] * w
        a = b


def _alike(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, live: Any, count: Any,
           group: Any, like: Any) -> bool:  # pragma: no cover
    """:attr:`Reads.alike`, compiled by :func:`mdp.engine.fused.reads`."""
    for i in range(len(s)):
        o = like[i]
        if o == i:
            continue
        r, q = s[i], s[o]
        if group[r] != group[q]:
            return False
        for t in range(count[r]):
            p = min(max(need[i] + shift[r, t], at[r, t]), end[r, t])
            u = min(max(need[o] + shift[q, t], at[q, t]), end[q, t])
            if bits[p] != bits[u]:
                return False
    return True


def _fill(table: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, live: Any, count: Any,
          picked: Any, out: Any) -> None:  # pragma: no cover
    """:attr:`Reads.fill`, compiled by :func:`mdp.engine.fused.reads`."""
    last = table[len(table) - 1]
    n, a = len(picked), 0
    while a < n:  # a run of columns of one row at a time, an end at a time
        r, b = s[picked[a]], a + 1
        while b < n and s[picked[b]] == r:
            b += 1
        for t in range(count[r]):
            j, d, lo, hi = live[r, t], shift[r, t], at[r, t], end[r, t]
            for c in range(a, b):
                out[j, c] = table[min(max(need[picked[c]] + d, lo), hi)]
        for t in range(count[r], live.shape[1]):
            out[live[r, t], a:b] = last
        a = b
