"""Whether two states that Python takes as equal are the same value: of one type, and so all
through them. Python's ``1 == True == 1.0 == Fraction(1)`` and ``0.0 == -0.0``, so a dict of
states would take one for the other, and solve another game than the one written; the walk
asks :func:`same` of every state it meets again (:mod:`mdp.engine.walk`), and refuses one
that is equal to a known state but not the same. First, quicker, it compares their
:func:`mark`: the same mark is the same value."""

from __future__ import annotations

import dataclasses
import marshal
from decimal import Decimal
from typing import Any

import attrs

from mdp.errors import PLUGIN_FAULTS, fault

PLAIN = frozenset({int, str, bool, bytes, type(None)})
"""Types whose equal values of that one type are the same value."""

SHOWN = (float, complex, Decimal)
"""Types whose equal values may differ still (``0.0`` and ``-0.0``, ``Decimal('1.0')`` and
``Decimal('1.00')``): the same when their ``repr`` is."""


def mark(value: Any) -> bytes | None:
    """A value's bytes as :mod:`marshal` writes them (version 2: no references), which tell
    every type they hold apart, exactly (a subclass, or a type marshal does not write, gives
    ``None``): values of the same mark are the same value. Not the other way round: a
    frozenset's order, or a string interned or not, changes the mark of the same value, and
    :func:`same` is asked then."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def lost(value: Any) -> bool:
    """Whether ``value`` is not equal to itself, or holds a part that is not (through tuples,
    frozensets, attrs classes and dataclasses): a NaN inside a tuple, which the tuple takes as
    equal to itself as the same object, though its copy, made again by a hook, is equal to
    nothing. Such a state could never be found again: each way to it would be a new state.
    What its ``==`` raises goes on to the caller."""
    kind = type(value)
    if kind in PLAIN:
        return False
    if kind is tuple:  # the common state: its plain parts passed over inline
        for part in value:
            if type(part) not in PLAIN and lost(part):
                return True
        return False
    if not value == value:
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(map(lost, value))
    if attrs.has(kind):
        return any(lost(getattr(value, f.name)) for f in attrs.fields(kind) if f.eq)
    if dataclasses.is_dataclass(value):
        return any(lost(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare)
    return False


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b``, known to be equal, are the same value: of one type, their
    parts the same (through tuples, named tuples, frozensets, attrs classes and dataclasses),
    a float the same by its ``repr``, and a value of another class by its own ``repr`` where
    it has one (an ``==`` that takes values shown apart for one is not trusted). Quick where
    it can be: it runs on every state the walk meets again."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in PLAIN:
        return True
    if kind is tuple or isinstance(a, tuple):
        for x, y in zip(a, b):  # inline: small ints, True and short text are one object
            if x is not y and (type(x) is not type(y) or type(x) not in PLAIN and not same(x, y)):
                return False
        return True
    return form(a) == form(b)


def form(value: Any) -> Any:
    """A value as a key that is equal only to the same value (:func:`same`): its type beside
    its parts, through the containers a state is made of; an order-free frozenset of them
    for a frozenset."""
    kind = type(value)
    if kind in PLAIN:
        return kind, value
    if isinstance(value, tuple):
        return kind, tuple(map(form, value))
    if isinstance(value, frozenset):
        return kind, frozenset(map(form, value))
    if isinstance(value, SHOWN):
        return kind, repr(value)
    if attrs.has(kind):
        return kind, tuple(form(getattr(value, f.name)) for f in attrs.fields(kind) if f.eq)
    if dataclasses.is_dataclass(value):
        return kind, tuple(form(getattr(value, f.name))
                           for f in dataclasses.fields(value) if f.compare)
    # A class's own repr tells apart what its == may take as one (mypy takes the two
    # __repr__ for signatures that can never be one object).
    if kind.__repr__ is not object.__repr__:  # type: ignore[comparison-overlap]
        return kind, value, _repr(value)
    return kind, value


def _repr(value: Any) -> str | None:
    """A value's own ``repr``; one that raises, or gives no text, tells nothing apart:
    ``None``, and ``==`` is trusted for it (what the user interrupted goes on, through
    :func:`~mdp.errors.fault`)."""
    try:
        return repr(value)
    except PLUGIN_FAULTS as error:
        fault(error)  # raises again what is no fault of the value's
        return None
