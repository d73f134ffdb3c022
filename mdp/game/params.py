"""Game parameters: declaration, resolution, and parsers that many games share."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from types import MappingProxyType, ModuleType
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
)
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, did_you_mean, fault, said
from mdp.shown import clipped


@attrs.frozen
class Param:
    """One parameter of a game or rule plugin, or one option of an analysis.

    ``parse`` turns a value into the parameter's type and checks it: it receives either the
    text given on the command line (``"1-9"``) or a Python value (``range(1, 10)``) and raises
    :class:`ValueError` with a message that says what is allowed. ``default`` is a value
    ``parse`` takes, and the game gets it as ``parse`` reads it, as it gets a value of
    ``--set`` (a default of ``"6"`` with ``parse=int`` is 6); it is read as the game loads,
    and one ``parse`` refuses is the game's fault (``None``, not set, is not read).
    ``show`` renders a value for people and JSON output (default: the value itself).

    A game's parameters are set on the command line with ``--set NAME=VALUE``. An analysis's
    options are the command's own arguments, each made from its parameter alone
    (:func:`mdp.program.arguments.add_options`): ``--NAME VALUE`` (``-`` for ``_``), a switch
    ``--NAME`` when the default is ``False``, its ``help`` the argument's, with the default
    when there is one; ``parse`` checks each value as it is read, and a parser of
    :func:`parse_choice` offers its choices. The fields below say the rest.
    """

    name: str
    default: Any
    parse: Callable[[Any], Any]
    help: str = ""
    show: Callable[[Any], Any] | None = None
    metavar: str | None = None
    """The word for its value on the command line (``N``, ``FILE``); ``VALUE`` unless
    given, or the choices of a parser of :func:`parse_choice`."""
    repeat: bool = False
    """Given once per value on the command line (``--tie-break A --tie-break B``): ``parse``
    reads each value alone, and the option's value is the tuple of them, in the order given;
    none given, its default (a value, or a list or tuple of values, each read the same; ``None``
    and ``()`` read as no value). From Python, a list or tuple is several values, anything
    else one."""
    positional: bool = False
    """The command line takes its values without a flag, after the game, any number of them
    with ``repeat`` (one or more where ``required``; ``mdp advise GAME COLUMN=VALUE ...``).
    A switch (default ``False``) has no value to take so, and a command has at most one
    positional option with ``repeat``, the last: it takes every value that is left."""
    required: bool = False
    """It has no default (``default`` is then ``None``): leaving it out is refused."""
    shared: bool = False
    """The command line gives it by one of the arguments every command has, of the same name
    (``max_memory``: ``--max-memory``), not by one of its own."""

    def shown(self, value: Any) -> Any:
        """``value`` as people and JSON see it, as ``--set`` takes it back: the text of
        ``show`` (on one line), or a number, true or false, ``None``; a float that is not
        finite as its text (``nan``, ``inf``: JSON has no number for it). A ``show`` that
        raises or gives anything else, or a value that has no such form (bytes), is the
        fault of whoever declared the parameter: checked here, where every use passes."""
        if self.show is None:
            got = value
        else:
            try:
                got = self.show(value)
            except PLUGIN_FAULTS as error:
                raise ModelError(f"parameter {self.name}: its show raised {fault(error)} "
                                 f"(value {said(value)})") from None
        if isinstance(got, float) and got != got or got in (math.inf, -math.inf):
            return str(got)
        if isinstance(got, str):
            if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in got):
                raise ModelError(f"parameter {self.name}: {'its show gave' if self.show else 'value'} "
                                 f"{got!r:.60}, text with a control character or a line break; "
                                 "a value is shown on one line")
            self._read_back(value, got)
            return got
        if self.show is not None and (got is None or isinstance(got, (bool, int, float))):
            self._read_back(value, got)
        if got is None or isinstance(got, (bool, int, float)) or \
                self.show is None and not isinstance(got, (bytes, bytearray)):
            return got
        whose = "its show gave" if self.show is not None else "its value is"
        raise ModelError(f"parameter {self.name}: {whose} {said(got):.60} "
                         f"({type(got).__name__}), not text or a number; a parameter's value "
                         "is shown as the text --set takes back (give the parameter a show)")

    def _read_back(self, value: Any, got: Any) -> None:
        """Refuse a ``show`` whose ``got`` for ``value`` is not read back as ``value`` by
        ``parse``: what is shown (and recorded in JSON) would be another game's setting."""
        if self.show is None or self.repeat:
            return
        try:
            again = parsed(f"parameter {self.name}", self, got)
        except (ValueError, TypeError, ParamError) as error:
            raise ModelError(f"parameter {self.name}: its show gave {said(got):.60} for "
                             f"{self.name}={said(value):.60}, which its parser refuses ({error}); "
                             "a value is shown as the text --set takes back") from None
        if alike(again, value) is False:
            raise ModelError(f"parameter {self.name}: its show gave {said(got):.60} for "
                             f"{self.name}={said(value):.60}, which --set reads as "
                             f"{self.name}={said(again):.60}; a value is shown as the text --set "
                             "takes back")


def values_of(value: Any) -> tuple[Any, ...]:
    """The values that ``value`` gives an option with ``repeat``: a list or tuple, each;
    ``None`` none; anything else, itself alone."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def resolve(game: str, declared: Iterable[Param], given: Mapping[str, Any], *,
            of: str = "game", whose: Callable[[Param], str] | None = None) -> Mapping[str, Any]:
    """Return every declared parameter's value: its default, or the given value parsed.
    ``game`` is the game's name; with ``of="analysis"``, an analysis's, and they are its
    options. ``whose``: who declared a parameter whose parser is at fault (the game: "")."""
    analysis = of == "analysis"
    owner, kind = f"{of} {game}", "option" if analysis else "parameter"
    by_name: dict[str, Param] = {}
    for param in declared:
        if param.name in by_name:
            raise ParamError(f"{owner}: {kind} {param.name!r} is declared twice")
        by_name[param.name] = param
    for key in given:
        if key not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ParamError(f"unknown {kind} {key!r} for {owner}"
                             f"{did_you_mean(key, by_name)} (known: {known})")
    values = {}
    try:
        for name, param in by_name.items():
            if name not in given or param.repeat and values_of(given[name]) == ():
                if param.required:
                    raise ParamError(f"{game if not analysis else owner}: {name} is required "
                                     f"({param.help or 'no default'})")
                # read as --set's value is (a default of "6" with parse=int is 6); None: not set
                values[name] = None if param.default is None and not param.repeat else \
                    check_default(owner, param, kind)
                continue
            read = []
            for value in values_of(given[name]) if param.repeat else (given[name],):
                try:  # each value of a repeated option alone
                    read.append(_parsed(owner, param, value))
                except (ValueError, TypeError) as error:
                    where = f"{owner}: " if analysis else ""
                    raise ParamError(f"{where}{kind} {name}={clipped(str(value))}: {error}") from None
            values[name] = tuple(read) if param.repeat else read[0]
    except ModelError as error:  # the fault of a parser, named by whoever declared it
        if by := whose(param) if whose is not None else "":
            raise ModelError(f"{owner}: {by}{str(error).removeprefix(f'{owner}: ')}") from None
        raise
    return MappingProxyType(values)


def parsed(where: str, param: Param, value: Any) -> Any:
    """``value`` parsed by ``param``: a value it refuses is the :class:`ValueError` (or
    :class:`TypeError`) of its parser, for the caller to word; a parser that breaks otherwise
    is a fault of the plugin's, a :class:`~mdp.ModelError` that begins with ``where``. With
    ``repeat``, the tuple of its values (:func:`values_of`) each parsed alone."""
    if param.repeat:
        return tuple(_parsed(where, param, one) for one in values_of(value))
    return _parsed(where, param, value)


def _parsed(where: str, param: Param, value: Any) -> Any:
    parse = whole if param.parse is int else param.parse  # int(3.7) would be 3: read exactly
    if parse in MAKERS:  # called with the value, it would blame the value on its bounds
        raise ModelError(f"{where}: the parser of parameter {param.name} is mdp.{parse.__name__}, "
                         f"which makes a parser ({MAKERS[parse]}, say) rather than reading a value")
    read, again = (_asked(where, param, parse, value) for _ in range(2))
    if alike(read, again) is False:  # asked again by each command: one answer, or none
        raise ModelError(f"{where}: the parser of parameter {param.name} read {said(value):.60} "
                         f"as {said(read):.60}, and as {said(again):.60} when asked again; a "
                         "parser gives one value for one text, however often it is asked")
    if callable(read) or isinstance(read, (ModuleType, Iterator)):  # no parameter's value
        raise ModelError(f"{where}: the parser of parameter {param.name} returned "
                         f"{type(read).__name__} {read!r} for {value!r}, which no value of a "
                         "parameter is; a parser returns the value it reads")
    return read


def _asked(where: str, param: Param, parse: Callable[[Any], Any], value: Any) -> Any:
    """``parse(value)``; a parser that breaks but by refusing the value is at fault."""
    try:
        return parse(value)
    except (ValueError, TypeError, ParamError):
        raise
    except PLUGIN_FAULTS as error:  # a bug in the parser, not a bad value
        raise ModelError(f"{where}: the parser of parameter {param.name} raised "
                         f"{fault(error, hook=True)} (value {value!r})") from error


def alike(a: Any, b: Any) -> bool | None:
    """Whether two values of a parameter are the same value by ``==`` (an array's, all of
    it; a NaN as NaN); ``None`` where they cannot be told: two of a class with no ``==`` of
    its own (each value made is another), or an ``==`` that does not answer."""
    if a is b or type(a) is type(b) and type(a).__eq__ is object.__eq__:  # type: ignore[comparison-overlap]
        return True if a is b else None
    try:
        same = a == b
        if hasattr(same, "all"):  # an array's, all of it
            return bool(same.all())
        return bool(same) or bool(a != a) and bool(b != b)  # NaN is NaN
    except PLUGIN_FAULTS as error:
        fault(error)  # raises again the user's interruption
        return None


def check_default(owner: str, param: Param, kind: str = "parameter") -> Any:
    """``param``'s default as its own parser reads it: one it refuses is the fault of the
    game or plugin that declared it (a :class:`~mdp.ModelError` that begins with ``owner``),
    never the user's, who gave no such value."""
    try:
        value = parsed(owner, param, param.default)
    except (ValueError, TypeError, ParamError) as error:
        raise ModelError(f"{owner}: the default of {kind} {param.name}, {said(param.default)}, "
                         f"is refused by its own parser ({error}); a default is a value the "
                         f"{kind} takes") from None
    if value is None:  # None is "not set", which a default that is set cannot mean
        raise ModelError(f"{owner}: the parser of {kind} {param.name} returned None for its "
                         f"default, {said(param.default)}; a parser returns the value read, or "
                         "raises ValueError")
    # A default given as a value (not as text) is the value played: its parser reading it as
    # another would play a game that neither the declaration nor `mdp params` shows.
    declared = values_of(param.default) if param.repeat else (param.default,)
    for one, read in zip(declared, value if param.repeat else (value,)):
        if not isinstance(one, str) and alike(read, one) is False:
            raise ModelError(f"{owner}: the default of {kind} {param.name}, {said(one):.60}, is "
                             f"read by its own parser as {said(read):.60}; a default is given as "
                             "the value played, or as the text --set takes")
    return value


MAKERS: dict[Callable[..., Any], str] = {}
"""mdp's makers of parsers, each with a call that makes one: not parsers themselves."""


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings (``--set``'s) as a dict; a key given twice is refused."""
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParamError(f"--set {item!r}: expected KEY=VALUE")
        key = key.strip()
        if key in result and result[key] != value.strip():
            raise ParamError(f"{key} is given twice ({key}={result[key]} and {key}={value.strip()}): "
                             "give it once")
        result[key] = value.strip()
    return result


NOT_PARAMETERS = ("variant", "plugins")
"""Names that load a game (:func:`mdp.load_game`'s own arguments), never a parameter."""


def check_settable(names: Iterable[str]) -> None:
    """Refuse, as a parameter to set or vary, a name of :func:`mdp.load_game`'s own."""
    for name in names:
        if name in NOT_PARAMETERS:
            raise ParamError(f"{name} is not a parameter of a game: choose the variant with "
                             "--variant (variant= in Python), rule plugins with -p (plugins=)")


# Parsers for Param(parse=...): each takes text or a Python value and raises ValueError
# saying what is allowed.


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


def parse_choice(allowed: Collection[str]) -> Callable[[Any], str]:
    """A parser that accepts one of ``allowed`` and suggests the nearest for a typo (an
    option of an analysis offers them on the command line)."""
    arguments("parse_choice", allowed=(allowed, NAMES))
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
    """``True``/``False``, or text: ``true``, ``yes``, ``1`` and ``false``, ``no``, ``0``."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise ValueError("expected true or false (also yes/no, 1/0)")


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
    """The shortest text that :func:`parse_int_list` reads back: ``"1-9"``, ``"1-6,8"``."""
    arguments("show_int_list", numbers=(numbers, INTEGERS))
    runs = []
    for _, group in itertools.groupby(enumerate(sorted(numbers)), lambda pair: pair[1] - pair[0]):
        run = [number for _, number in group]
        runs.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ",".join(map(str, run)))
    return ",".join(runs)
