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


def tried_keys(found: Any) -> None:
    places = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    found(np.zeros(1, np.uint64), none, none, places, places, places, np.zeros(1, np.uint64),
          np.zeros(0, np.uint64))


def tried_alike(found: Any) -> None:
    places = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    found(np.zeros(1, np.uint64), none, none, places, places, places, none)


def tried_fill(found: Any) -> None:
    places = np.zeros((1, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    found(np.zeros(1), none, none, places, places, places, none, np.zeros((0, 1)))


def _keys(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any, mixing: Any,
          key: Any) -> None:  # pragma: no cover
    """:attr:`Reads.keys`, compiled by :func:`mdp.engine.fused.reads` (``bits``: the table's, as uint64)."""
    for i in range(len(s)):
        r, n, k = s[i], need[i], mixing[0] ^ mixing[0]
        for j in range(shift.shape[1]):
            p = min(max(n + shift[r, j], at[r, j]), end[r, j])
            k += bits[p] * mixing[j]
        key[i] = k


def _alike(bits: Any, need: Any, s: Any, shift: Any, at: Any, end: Any,
           like: Any) -> bool:  # pragma: no cover
    """:attr:`Reads.alike`, compiled by :func:`mdp.engine.fused.reads`."""
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
    """:attr:`Reads.fill`, compiled by :func:`mdp.engine.fused.reads`."""
    for c in range(len(picked)):  # a row of out at a time (a column of the block)
        i = picked[c]
        r, n = s[i], need[i]
        for j in range(shift.shape[1]):
            out[c, j] = table[min(max(n + shift[r, j], at[r, j]), end[r, j])]
