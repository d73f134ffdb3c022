"""Rows alike, found once (:func:`distinct_rows`): columns of terminal values that a round's
sweep would work again, each sorted by a key of its bits (:func:`mixing`'s weights, their
products summed modulo 2**64) and checked bit for bit against the first of its key."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

_MIXING = np.random.default_rng(20261127).integers(1, 1 << 63, size=1 << 12, dtype=np.uint64)
"""Weights of the key that sorts columns of terminal values into the alike (a row's bits
times these, summed modulo 2**64), for up to this many terminal states; past them, cycled."""



def distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first of each distinct row of ``rows`` (two are alike where their bits are), and
    for each row, which of those it is like: sorted by a key of its bits (:func:`distinct`),
    and where two rows that differ share a key, sorted by their bits themselves."""
    bits = np.ascontiguousarray(rows).view(np.uint64)
    found = distinct(bits @ mixing(bits.shape[1]), partial(_alike, bits))
    if found is None:
        whole = np.ascontiguousarray(bits).view(np.dtype((np.void, 8 * bits.shape[1]))).ravel()
        _, first, inverse = np.unique(whole, return_index=True, return_inverse=True)
        found = first, inverse.ravel()
    return found


def mixing(width: int) -> np.ndarray:
    """The weights of the key of rows of ``width`` values' bits (:data:`_MIXING`, cycled)."""
    return np.resize(_MIXING, width)


def distinct(key: np.ndarray, alike: Callable[[np.ndarray], bool]
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """The first of each distinct row by its ``key`` (the first in the order of the rows
    among those of one key), and for each row which of those it is like, or ``None`` where
    ``alike(like)`` finds a row that differs from the row ``like`` names: two of one key."""
    order = np.argsort(key)  # equal keys in any order: the first of each is their least row
    fresh = np.ones(len(order), dtype=bool)
    fresh[1:] = key[order[1:]] != key[order[:-1]]
    first = np.minimum.reduceat(order, np.flatnonzero(fresh)) if len(order) else order
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = np.cumsum(fresh) - 1
    return (first, inverse) if alike(first[inverse]) else None


def _alike(bits: np.ndarray, like: np.ndarray) -> bool:
    """Whether each row of ``bits`` is the row ``like`` names, bit for bit: the rows that
    name another compared a few thousand at a time (a copy of them all would be as large as
    ``bits``, each page of it new)."""
    others = np.flatnonzero(like != np.arange(len(like)))
    step = max(1, (1 << 18) // max(bits.shape[1], 1))
    return all(np.array_equal(bits[part], bits[like[part]])
               for part in (others[i:i + step] for i in range(0, len(others), step)))
