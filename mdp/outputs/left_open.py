"""What a writer leaves open over what it wrote, once it has returned: an object of Python's
io (a ``gzip.GzipFile`` or ``io.TextIOWrapper`` over the file a format was handed, a file an
export opened and never closed) still holds bytes that may never reach the file, which would
be put in place short of them. Found among the objects Python's collector tracks, each told
by its type (``isinstance`` of a weak proxy whose object is gone raises)."""

from __future__ import annotations

import gc
import io
import os
from collections.abc import Iterable, Iterator
from typing import Any

DEPTH = 4
"""Wrappers over wrappers followed (a text wrapper over a buffer over the file handed)."""


def wrapping(handed: Any) -> str | None:
    """The kind of an io object still open that wraps ``handed``, the file object a writer
    was handed (``gzip.GzipFile``), directly or through others; ``None`` where none is."""
    seen, level = {id(handed)}, [handed]
    for _ in range(DEPTH):
        found = []
        for held in level:
            for holder in _holders(held):
                if issubclass(type(holder), io.IOBase) and id(holder) not in seen:
                    seen.add(id(holder))
                    if not holder.closed:
                        return _kind(holder)
                    found.append(holder)
        level = found
    return None


def open_on(paths: Iterable[str]) -> str | None:
    """The path, among ``paths``, of a file still open for writing (a file object of
    Python's, which may hold bytes not yet written); ``None`` where none is."""
    real = {os.path.realpath(path) for path in paths}
    for held in gc.get_objects():
        if issubclass(type(held), io.FileIO) and not held.closed and "r" != held.mode[0] and \
                isinstance(held.name, str) and os.path.realpath(held.name) in real:
            return held.name
    return None


def _holders(held: Any) -> Iterator[Any]:
    """The objects that refer to ``held``: an object whose attributes are in a dict of its
    own, through that dict."""
    for holder in gc.get_referrers(held):
        if type(holder) is dict:
            yield from (owner for owner in gc.get_referrers(holder)
                        if getattr(owner, "__dict__", None) is holder)
        else:
            yield holder


def _kind(held: Any) -> str:
    kind = type(held)
    return kind.__qualname__ if kind.__module__ in ("builtins", "_io") else \
        f"{kind.__module__}.{kind.__qualname__}"
