"""Arrays of integers as the engine keeps them: groups of consecutive items (a state's
actions, an action's outcomes) given by their sizes (where each starts, each item's place in
its group, runs of groups of about one size), and integers in their narrowest type."""

from __future__ import annotations

from typing import Any

import numpy as np

from mdp.checks import COUNTS, INT64, OPTIONAL_INT64, arguments


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
    found = np.searchsorted(bounds[:-1], probes, side="right") - 1
    cuts = sorted(set(found.tolist()) | {0, n})
    return list(zip(cuts[:-1], cuts[1:]))


def ragged_arange(counts: np.ndarray) -> np.ndarray:
    """``[0, 1, .., counts[0] - 1, 0, 1, .., counts[1] - 1, ...]``: each item's position in
    its group, for groups of the given sizes (handy when building an :class:`mdp.Expansion`)."""
    arguments("ragged_arange", counts=(counts, COUNTS))
    return ranks(counts)


def ranks(counts: np.ndarray) -> np.ndarray:
    """:func:`ragged_arange` of counts known to be good: the engine's own, unchecked."""
    ends = np.cumsum(counts, dtype=np.int64)
    return np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts, counts)


def offsets(counts: Any, total: int | None = None, first: int = 0) -> np.ndarray:
    """Start offsets of consecutive groups of the given sizes, from ``first``, with the end
    of the last at the end; in 32 bits where ``total``, the largest, fits."""
    arguments("offsets", counts=(counts, COUNTS), total=(total, OPTIONAL_INT64), first=(first, INT64))
    return starts(counts, total, first)


def starts(counts: Any, total: int | None = None, first: int = 0) -> np.ndarray:
    """:func:`offsets` of counts known to be good: the engine's own, unchecked (a pass over
    millions of counts is not paid again at every layer)."""
    small = total is not None and total < 2**31
    result: np.ndarray = np.empty(len(counts) + 1, dtype=np.int32 if small else np.int64)
    result[0] = first
    np.cumsum(counts, out=result[1:], dtype=result.dtype)
    result[1:] += first
    return result


def narrow(values: Any) -> np.ndarray:
    """The same integers in the narrowest type that holds them (memory is the limit)."""
    values = np.asarray(values)
    if values.dtype.kind not in "iu":
        return values
    if not len(values):
        return values.astype(np.uint8)
    low, high = values.min(), values.max()
    for kind, smallest, largest in _NARROW_TYPES:
        if smallest <= low and high <= largest:
            return values.astype(kind, copy=False)
    if high > np.iinfo(np.int64).max:  # unsigned past what int64 holds: kept, not wrapped
        return values
    return values.astype(np.int64, copy=False)


_NARROW_TYPES = [(kind, np.iinfo(kind).min, np.iinfo(kind).max)
                 for kind in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32)]
