"""Parsers for :class:`mdp.Param` (``parse=``) that many games share: each takes text or a
Python value and raises ValueError saying what is allowed."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from mdp.checks import (
    FLAG,
    INTEGER,
    INTEGERS,
    NAME,
    NAMES,
    OPTIONAL_INTEGER,
    TEXT,
    arguments,
    bounds,
    integral,
    shown,
)
from mdp.errors import ParamError, did_you_mean
from mdp.game.names import named_twice, one_name

MAKERS: dict[Callable[..., Any], str] = {}
"""mdp's makers of parsers, each with a call that makes one: not parsers themselves."""


LARGEST = 2**63 - 1
"""The largest whole number a parameter takes unless it says less: a game keeps its
numbers in 64-bit arrays, where a larger one would overflow."""


_DIGITS = re.compile(r"-?[0-9]+")
"""A plain whole number: its digits, ``-`` first if it is less than 0 (not ``+4``, ``1_0``)."""

_GROUPED = re.compile(r"-?[0-9]{1,3}(_[0-9]{3})+|-?[0-9]{1,3}(,[0-9]{3})+")
"""Digits grouped by thousands (``1_000``, ``1,000,000``), as a count may be written."""


def whole(value: Any) -> int:
    """``value`` as the whole number it is, exactly: an ``int`` (a numpy one too), a text of
    one (``"12"``), or a number equal to one (``2.0``, ``Fraction(4, 2)``). :class:`ValueError`
    for anything else: a number with a fraction (``2.5`` is not read as 2), a truth value
    (``True`` is not 1), text of anything but the digits of a whole number (not ``1_0`` nor
    ``+4``: ``-`` first alone)."""
    if isinstance(value, str):
        if not _DIGITS.fullmatch(value.strip()):
            raise ValueError("not a whole number")
        return int(value.strip())
    number = integral(value)  # a number: read as every whole number given to mdp is
    if number is None:
        raise ValueError("not a whole number")
    return number


_WRITTEN = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
"""A number written in the digits 0 to 9 (``03``, ``3.0``, ``3e0``), as every number mdp
reads: not ``+3``, ``1_0`` nor another script's digits."""


def written_number(value: Any) -> Fraction | None:
    """The number ``value`` writes, exactly (``03``, ``3.0`` and ``3e0`` write 3), as a
    match's results given as text are read; ``None`` where it writes none."""
    text = str(value).strip()
    return Fraction(text) if _WRITTEN.fullmatch(text) else None


def parse_int(minimum: int, maximum: int | None = None, *, why: str = "",
              grouped: bool = False) -> Callable[[Any], int]:
    """A parser of whole numbers from ``minimum`` to ``maximum`` (``None``: no bound but
    :data:`LARGEST`), read exactly by :func:`whole`.

    ``why`` says, in the error message, why there is a maximum (``"each one doubles the
    states"``); with ``grouped``, text may group the digits by thousands with ``_`` or ``,``
    (``1_000``, ``1,000``), as a count on the command line may be written (not ``1_0``).
    """
    arguments("parse_int", minimum=(minimum, INTEGER), maximum=(maximum, OPTIONAL_INTEGER), why=(why, TEXT),
              grouped=(grouped, FLAG))
    bounds("parse_int", minimum, maximum)
    unbounded = maximum is None and minimum <= -LARGEST  # bounded by 64 bits alone: said so
    allowed = f"a whole number from {minimum} to {maximum}" if maximum is not None \
        else "a whole number" if unbounded else f"a whole number of {minimum} or more"
    largest = LARGEST if maximum is None else maximum

    def parse(value: Any) -> int:
        if isinstance(value, str) and value != value.strip():
            raise ValueError(f"expected {allowed}, without blanks around it")
        if grouped and isinstance(value, str) and _GROUPED.fullmatch(value):
            value = value.replace("_", "").replace(",", "")
        try:
            number = whole(value)
        except ValueError:
            raise ValueError(f"expected {allowed}") from None
        if number < minimum or number > largest:
            past = maximum is None and number > largest
            raise ValueError(f"expected {allowed}" + (f" ({why})" if why and not past else "")
                             + (f", up to {LARGEST} (64 bits)" if past else "")
                             + (f", down to {minimum} (64 bits)" if unbounded and number < minimum else ""))
        return number

    return parse


SEPARATORS = (",", ";")
"""What ``--vary`` separates a parameter's values by (:func:`mdp.analysis.vary.parse_vary`):
no choice holds them, so that every choice can be varied, alone or among others."""


def parse_choice(allowed: Collection[str]) -> Callable[[Any], str]:
    """A parser that accepts one of ``allowed`` and suggests the nearest for a typo (an
    option of an analysis offers them on the command line). Each choice is one that ``--set``
    and ``--vary`` give back (not empty, no space at either end, one line, none of
    :data:`SEPARATORS`), and no two are one (:func:`mdp.game.names.one_name`)."""
    arguments("parse_choice", allowed=(allowed, NAMES))
    taken: dict[str, str] = {}
    for choice in allowed:  # (the form of a refusal of mdp's for whose code called it)
        if not choice or choice != choice.strip() or not choice.isprintable() or \
                any(c in choice for c in SEPARATORS):
            raise ParamError(f"mdp.parse_choice: allowed is {shown(allowed)}, which holds {choice!r}; "
                             "expected choices that --set and --vary can give: not empty, no space "
                             f"at either end, one line, no {' or '.join(map(repr, SEPARATORS))}")
        if one_name(choice) in taken:
            other = taken[one_name(choice)]
            raise ParamError(f"mdp.parse_choice: allowed is {shown(allowed)}, which holds "
                             f"{named_twice(choice, other) if other != choice else repr(choice) + ' twice'}; "
                             "expected each choice once")
        taken[one_name(choice)] = choice
    return Choice(tuple(allowed))


@attrs.frozen
class Choice:
    """The parser of :func:`parse_choice`: one of ``allowed``."""

    allowed: tuple[str, ...]

    def __call__(self, value: Any) -> str:
        if value not in self.allowed:
            raise ValueError(f"allowed: {', '.join(self.allowed)}{did_you_mean(str(value), self.allowed)}")
        return str(value)


MAKERS.update({parse_int: "mdp.parse_int(0)", parse_choice: "mdp.parse_choice(['a', 'b'])"})


def parse_flag(value: Any) -> bool:
    """``True``/``False`` (a numpy truth too), or a word for one in any case: ``true``,
    ``yes``, ``on``, ``1`` and ``false``, ``no``, ``off``, ``0``. Python's ``bool`` as a
    parameter's parser is read as this one: ``bool("False")`` is true."""
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true or false (also yes/no, on/off, 1/0)")


INT_LIST = "a range like 1-9 or a list like 1,2,3"


MAX_LIST = 1_000_000
"""The most numbers a list or range of :func:`parse_int_list` holds, checked before a range
is made (``1-999999999999`` would take all the memory there is)."""


def parse_int_list(value: Any, *, minimum: int | None = None, maximum: int | None = None,
                   what: str = "number", distinct: bool = True) -> tuple[int, ...]:
    """``"1-9"``, ``"1,2,3"``, ``"1-6,8"`` or an iterable of whole numbers, as a sorted tuple.

    ``what`` names an item in messages (default ``"number"``); ``minimum`` and ``maximum`` bound each
    item (and :data:`LARGEST` always); ``distinct`` refuses repeats. Each item is read
    exactly (:func:`whole`: ``1.5`` is refused, not read as 1). A range is checked before it
    is expanded, so ``1-999999999`` is refused at once rather than built.
    """
    arguments("parse_int_list", minimum=(minimum, OPTIONAL_INTEGER), maximum=(maximum, OPTIONAL_INTEGER),
              what=(what, NAME), distinct=(distinct, FLAG))
    bounds("parse_int_list", minimum, maximum)
    if isinstance(value, str):
        pairs = []
        for item in value.split(","):
            low, dash, high = item.strip().partition("-")
            pairs.append((low, high if dash else low))
    elif isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise ValueError(f"expected {INT_LIST}")
    else:
        pairs = [(item, item) for item in value]
    spans = []
    for low, high in pairs:
        try:
            low_n, high_n = whole(low), whole(high)
        except ValueError:
            raise ValueError(f"expected {INT_LIST}" + ("" if isinstance(value, str) else
                             f"; {low!r} is not a whole number")) from None
        for number in (low_n, high_n):
            _bound(number, minimum, maximum, what)
        spans.append(range(low_n, high_n + 1))
    if sum(map(len, spans)) > MAX_LIST:
        raise ValueError(f"more than {MAX_LIST:,} {what}s")
    numbers = [number for span in spans for number in span]
    if not numbers:
        raise ValueError(f"no {what}s; expected {INT_LIST}")
    if distinct:
        seen = set()
        for number in numbers:
            if number in seen:
                raise ValueError(f"{what} {number} appears twice; each {what} may appear once")
            seen.add(number)
    return tuple(sorted(numbers))


def _bound(number: int, minimum: int | None, maximum: int | None, what: str) -> None:
    low = -LARGEST - 1 if minimum is None else minimum
    high = LARGEST if maximum is None else maximum
    if not low <= number <= high:
        raise ValueError(f"{what} {number} is {'below' if number < low else 'above'} "
                         f"{low if number < low else high}; {what}s are whole numbers from "
                         f"{low} to {high}")


def show_int_list(numbers: Iterable[int]) -> str:
    """The shortest text that :func:`parse_int_list` reads back: ``"1-9"``, ``"1-6,8"``; whole
    numbers as the ints they are (``2.0`` as ``2``). What it cannot read back is refused: no
    number, one given twice, or one below 0 (``-3--1`` spells no range)."""
    arguments("show_int_list", numbers=(numbers, INTEGERS))
    items = sorted(whole(number) for number in numbers)
    fault = "no number" if not items else "a number below 0" if items[0] < 0 else \
        "a number given twice" if any(a == b for a, b in zip(items, items[1:])) else None
    if fault:
        raise ParamError(f"show_int_list: {items!r:.80}: {fault}, which parse_int_list does not "
                         "read back; give distinct whole numbers of 0 or more")
    runs = []
    for _, group in itertools.groupby(enumerate(items), lambda pair: pair[1] - pair[0]):
        run = [number for _, number in group]
        runs.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ",".join(map(str, run)))
    return ",".join(runs)
