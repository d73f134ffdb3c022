"""Giving freed memory back to the system between the large steps of compiling.

numpy takes arrays of up to 32 MB from the C heap (glibc raises its threshold for mapping
memory directly as large arrays are freed), and freed heap memory stays with the process:
the blocks of one stage, freed, would still count while the model's arrays are filled, and
the peak would be their sum. ``malloc_trim`` hands the free pages back. Elsewhere than
glibc this does nothing. Parts of one array are joined letting each go (:func:`joined`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

LARGE = 1 << 24
"""Bytes freed below which a trim is not worth its time."""


def joined(parts: list[Any]) -> Any:
    """The arrays ``parts`` (1-d, of one type) one after another, each let go as it is
    copied: in little more memory than the whole, where a concatenation holds both."""
    whole = np.empty(sum(map(len, parts)), dtype=parts[0].dtype if parts else np.float64)
    at = 0
    for i, part in enumerate(parts):
        whole[at:at + len(part)] = part
        at += len(part)
        parts[i] = whole[:0]
    return whole


def release(freed: int) -> None:
    """Return free heap pages to the system, if ``freed`` bytes were just let go."""
    trim = _trim() if freed >= LARGE else None
    if trim is not None:
        trim(0)


@functools.cache
def _trim() -> Callable[[int], Any] | None:
    try:
        import ctypes

        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def resident() -> int:
    """The memory this process holds now (its resident set), in bytes; 0 where it cannot be
    read (elsewhere than Linux)."""
    try:
        with open("/proc/self/statm", "rb") as file:
            return int(file.read().split()[1]) * _page()
    except (OSError, ValueError, IndexError):
        return 0


@functools.cache
def _page() -> int:
    import os

    return os.sysconf("SC_PAGE_SIZE")
