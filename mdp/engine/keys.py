"""Sorted keys to ids: the one index of integer state keys that the engine searches.

Keys are sorted once (a stable sort); a lookup is a binary search, checked to have found
the key. Used wherever states are found by their keys: a model's :meth:`state_id`, the
compile's numbering of sparse keys, the totals of a game of rounds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np


class KeyIndex(Mapping[Any, Any]):
    """Integer keys to ids, a mapping: ``ids[k]`` is the id of ``keys[k]`` (by default its
    position), whatever the order of ``keys`` (``in_order``: they are sorted already); the
    keys must be distinct."""

    def __init__(self, keys: np.ndarray, ids: np.ndarray | None = None, *,
                 in_order: bool = False) -> None:
        keys = np.asarray(keys)
        if in_order:
            self.sorted = keys
            self.ids = np.arange(len(keys)) if ids is None else ids
        else:
            order = np.argsort(keys, kind="stable")
            self.sorted = keys[order]
            self.ids = order if ids is None else np.asarray(ids)[order]

    def find(self, keys: Any) -> tuple[np.ndarray, np.ndarray]:
        """For each of ``keys`` (an array), its place among the sorted keys, and whether it
        is there (a place that is not is clipped into range)."""
        keys = np.asarray(keys)
        at = np.searchsorted(self.sorted, keys)
        np.minimum(at, max(len(self.sorted) - 1, 0), out=at)
        found = self.sorted[at] == keys if len(self.sorted) else np.zeros(keys.shape, dtype=bool)
        return at, found

    def ids_of(self, keys: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The ids of ``keys``, every one of them known to be here (unchecked: the compile's
        fast path), written to ``out`` if given."""
        return np.take(self.ids, np.searchsorted(self.sorted, keys), out=out, mode="clip")

    def __getitem__(self, key: Any) -> int:
        """The id of one key; ``KeyError`` if it is not here (or is no integer key)."""
        try:
            at = int(np.searchsorted(self.sorted, key))
        except (TypeError, ValueError, OverflowError):  # not a key, or past the keys' type
            raise KeyError(key) from None
        if at == len(self.sorted) or self.sorted[at] != key:
            raise KeyError(key)
        return int(self.ids[at])

    def __contains__(self, key: Any) -> bool:
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[Any]:
        return iter(self.sorted.tolist())

    def __len__(self) -> int:
        return len(self.sorted)
