"""The kernel that finds each state's choice, compiled (numba, the optional extra ``fast``;
made by :func:`mdp.engine.fused.kernel` as ``"chosen"``): a block's pass through the layers
with :func:`mdp.engine.fused._run`'s arithmetic, each state's choice found as the numpy
kernel's ``_first_tied`` finds it and, in the same pass, the values of other columns of
terminal values (companions) under that choice. :func:`mdp.engine.fused.run_chosen` keeps
every state's choice and follows no companion; :func:`mdp.engine.followed.best_followed`
follows companions and never writes the choices out (one row of choices, each state's
written over the last's). The values and choices are numpy's, bit for bit; a companion's
value is its chosen action's, a chance action's its outcomes summed in order from 0, as
scipy's sparse product sums them (and so as :func:`mdp.engine.followed.followed_columns`
does, bit for bit)."""

from __future__ import annotations

from typing import Any

import numpy as np


def tried(found: Any) -> None:
    none = np.zeros(0, dtype=np.int64)
    found(np.zeros((1, 1)), np.zeros((1, 1, 1)), np.zeros((0, 7), dtype=np.int64), none, none,
          none, none, none, np.zeros(0), np.zeros((0, 7), dtype=np.int64), none, none,
          np.zeros((1, 1)), np.zeros((1, 1, 1)), np.zeros((1, 1), dtype=np.int16), True, 0.0)


def _chosen(values: Any, comp: Any, table: Any, starts: Any, members: Any, pairs: Any,
            indptr: Any, indices: Any, data: Any, plain_table: Any, plain_starts: Any,
            plain_members: Any, rows: Any, comp_rows: Any, choice: Any, maximum: bool,
            tie: float) -> None:  # pragma: no cover
    """The kernel: :func:`mdp.engine.fused._run`'s arithmetic, each chance action's
    expectation kept in ``rows`` (a layer with chance actions has no shared pairs: its
    members are its actions, in order); then each state's choice, the first action within
    the tie of the best (the gap to the best, NaN where both are infinite: no tie, at most
    the best's magnitude times ``tie``), in its row of ``choice`` (int16, a row per state,
    or one row for all, written over); and each companion's row of the state (``comp``, a
    companion, a row per state, a column each) its chosen action's: a certain one's
    successor's row, a chance one's expectation (kept in ``comp_rows``)."""
    width = values.shape[1]
    pick = np.empty(width, dtype=np.int64)  # (a state's choices, in 64 bits as its values)
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
        plain_s0 = plain_table[layer, 2]
        for s in range(hi - lo):
            out, picked = values[lo + s], choice[(lo + s) % choice.shape[0]]
            m0, m1 = starts[s0 + 2 * s], starts[s0 + 2 * s + 1]
            for m in range(m0, m1):
                row = members[m]
                if row >= 0:
                    source = values[row]
                else:  # a chance action's expectation, summed as scipy's kernel sums it:
                    k = c0 - 1 - row  # the main's (-1), then each companion's alike
                    for i in range(-1, comp.shape[0]):
                        kept = rows[m - m0] if i < 0 else comp_rows[i, m - m0]
                        under = values if i < 0 else comp[i]
                        for c in range(width):
                            kept[c] = 0.0
                        for o in range(indptr[k], indptr[k + 1]):
                            p = data[o]
                            below = under[indices[o]]
                            for c in range(width):
                                kept[c] += p * below[c]
                    source = rows[m - m0]
                if m == m0:
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
            # The first tied, found from the last: each action within the tie written over
            # the later ones, without a branch (the loops vectorize); 0 where none is.
            for c in range(width):
                pick[c] = 0
            m0, m1 = plain_starts[plain_s0 + 2 * s], plain_starts[plain_s0 + 2 * s + 1]
            for m in range(m1 - 1, m0 - 1 if m1 - m0 > 1 else m1, -1):
                row, k = plain_members[m], m - m0
                source = values[row] if row >= 0 else rows[k]
                if maximum:
                    for c in range(width):
                        pick[c] = k if out[c] - source[c] <= abs(out[c]) * tie else pick[c]
                else:
                    for c in range(width):
                        pick[c] = k if source[c] - out[c] <= abs(out[c]) * tie else pick[c]
            for c in range(width):
                picked[c] = pick[c]
            # Each companion's row: the chosen action's.
            for i in range(comp.shape[0]):
                mine = comp[i, lo + s]
                for c in range(width):
                    row = plain_members[m0 + picked[c]]
                    mine[c] = comp[i, row, c] if row >= 0 else comp_rows[i, picked[c], c]
