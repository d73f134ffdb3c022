"""The attributes of the modules and classes mdp computes with, recorded by identity for the
process guard (:mod:`mdp.program.guard`), and compared with what they are now. The guard
records them as every command starts and compares them at every check: hundreds of
namespaces, tens of thousands of attributes. Each comparison is of identities, made in C
(:func:`same`), and a namespace is scanned again only where anything in it was added, taken
out or rebound since its last scan in the process (a test's monkeypatch between commands, a
module's own data): what a command records is what the namespaces hold as it starts."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

Scan = tuple[dict[str, Any], Any, tuple[Any, ...], tuple[type, ...]]
"""What is recorded of a namespace: the attributes kept, by name; a function that gives
their values from the namespace, as a tuple; those values as recorded; and the classes among
them whose attributes may be set."""

Keep = Callable[[Any, str, Any], bool]

_IMMUTABLE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: a type whose attributes none can set

_SCANNED: dict[int, tuple[Any, Any, tuple[Any, ...], Scan]] = {}
"""The last scan of each module or class in the process, by identity (it held, so that its
identity is not another's): a function that gives all its namespace holds, what it held, and
the scan."""


def _getter(names: tuple[str, ...]) -> Any:
    """The values of ``names`` in a namespace, as a tuple (``KeyError`` where one is gone)."""
    if len(names) == 1:
        one = operator.itemgetter(*names)
        return lambda space: (one(space),)
    return operator.itemgetter(*names) if names else lambda space: ()


def same(spaces: Iterable[Any], scans: list[Scan]) -> bool:
    """Whether each namespace of ``spaces`` holds every attribute its scan (``scans``, in the
    same order) kept, by identity; not where a name is gone or a space is no namespace."""
    try:
        now = chain.from_iterable(map(operator.call, [scan[1] for scan in scans], spaces))
        return all(map(operator.is_, now, chain.from_iterable(scan[2] for scan in scans)))
    except (KeyError, TypeError):
        return False


def changed(spaces: list[Any], scans: list[Scan]) -> tuple[int, str] | None:
    """The first of ``spaces`` that no longer holds an attribute its scan (``scans``, in the
    same order) kept, as its index and the attribute's name; ``None`` where all are held."""
    if same(spaces, scans):
        return None
    for at, (space, (kept, *_)) in enumerate(zip(spaces, scans)):
        for name, value in kept.items():
            if space.get(name, same) is not value:  # (same: a value no namespace holds)
                return at, name
    return None


def scan(owners: list[Any], keep: Keep) -> list[Scan]:
    """What ``keep(owner, name, value)`` keeps of each owner's namespace (``vars``): as
    scanned last in the process where the namespace did not change since. The namespaces are
    compared all at once, then, where one changed (the guard's own, a module's data), by
    halves, down to the ones that changed."""
    last = [_SCANNED.get(id(owner)) for owner in owners]
    if all(entry is not None and entry[0] is owner for entry, owner in zip(last, owners)):
        spaces = list(map(vars, owners))
        every: list[Scan] = [({}, entry[1], entry[2], ()) for entry in last if entry]
        if [len(entry[2]) for entry in every] == list(map(len, spaces)) and same(spaces, every):
            return [entry[3] for entry in last if entry]
    if len(owners) > 1:
        return scan(owners[:len(owners) // 2], keep) + scan(owners[len(owners) // 2:], keep)
    return [_scan(owner, keep) for owner in owners]


def _scan(owner: Any, keep: Keep) -> Scan:
    space = vars(owner)
    kept = {name: value for name, value in space.items() if keep(owner, name, value)}
    classes = tuple(value for value in kept.values()
                    if isinstance(value, type) and not value.__flags__ & _IMMUTABLE)
    every = _getter(tuple(space))
    found = kept, _getter(tuple(kept)), tuple(kept.values()), classes
    _SCANNED[id(owner)] = owner, every, every(space), found
    return found
