"""The attributes of the modules and classes mdp computes with, recorded by identity for the
process guard (:mod:`mdp.program.guard`), and compared with what they are now. The guard
records them as every command starts and compares them at every check: hundreds of
namespaces, tens of thousands of attributes. Each comparison is of identities, made in C
(:func:`differing`), and a namespace is scanned again only where anything in it was added, taken
out or rebound since its last scan in the process (a test's monkeypatch between commands, a
module's own data): what a command records is what the namespaces hold as it starts."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate, chain
from operator import call, is_, itemgetter
from typing import Any

# (bound as mdp loads: a game that replaces operator.is_ or itertools.chain, say, is refused
# by a comparison that still compares)

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
        one = itemgetter(*names)
        return lambda space: (one(space),)
    return itemgetter(*names) if names else lambda space: ()


def differing(spaces: list[Any], scans: list[Scan]) -> list[int]:
    """The indexes of ``spaces`` that no longer hold, by identity, every value their scan
    (``scans``, in the same order) gives: all compared at once, in C, and the index of a
    namespace found from where its first difference lies."""
    try:
        now = chain.from_iterable(map(call, [scan[1] for scan in scans], spaces))
        equal = list(map(is_, now, chain.from_iterable(scan[2] for scan in scans)))
    except (KeyError, TypeError):  # a name gone, or a space no namespace
        if len(spaces) == 1:
            return [0]
        return [at for at, (space, scan) in enumerate(zip(spaces, scans)) if differing([space], [scan])]
    ends = list(accumulate(len(scan[2]) for scan in scans))
    found: list[int] = []
    at = 0
    while True:
        try:
            first = equal.index(False, at)
        except ValueError:  # none from ``at`` on
            return found
        found.append(bisect_right(ends, first))
        at = ends[found[-1]]


def changed(spaces: list[Any], scans: list[Scan]) -> tuple[int, str] | None:
    """The first of ``spaces`` that no longer holds an attribute its scan (``scans``, in the
    same order) kept, as its index and the attribute's name; ``None`` where all are held."""
    for at in differing(spaces, scans)[:1]:
        for name, value in scans[at][0].items():
            if spaces[at].get(name, changed) is not value:  # (changed: a value none holds)
                return at, name
    return None


def scan(owners: list[Any], keep: Keep) -> list[Scan]:
    """What ``keep(owner, name, value)`` keeps of each owner's namespace (``vars``): as
    scanned last in the process where the namespace did not change since. The namespaces are
    compared with their last scans all at once, and only those that changed are scanned
    again."""
    spaces = list(map(vars, owners))
    last = [_SCANNED.get(id(owner)) for owner in owners]
    held = {at: entry for at, (entry, owner, space) in enumerate(zip(last, owners, spaces))
            if entry is not None and entry[0] is owner and len(entry[2]) == len(space)}
    every: list[Scan] = [({}, entry[1], entry[2], ()) for entry in held.values()]
    positions = list(held)
    for stale in differing([spaces[at] for at in positions], every):
        del held[positions[stale]]
    return [held[at][3] if at in held else _scan(owner, keep) for at, owner in enumerate(owners)]


def _scan(owner: Any, keep: Keep) -> Scan:
    space = vars(owner)
    kept = {name: value for name, value in space.items() if keep(owner, name, value)}
    classes = tuple(value for value in kept.values()
                    if isinstance(value, type) and not value.__flags__ & _IMMUTABLE)
    every = _getter(tuple(space))
    found = kept, _getter(tuple(kept)), tuple(kept.values()), classes
    _SCANNED[id(owner)] = owner, every, every(space), found
    return found
