"""Game parameters: declaration and resolution (the parsers that many games share are
:mod:`mdp.game.parsers`)."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from numbers import Number
from types import MappingProxyType, ModuleType
from typing import Any

import attrs

from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, did_you_mean, fault, said
from mdp.game.parsers import MAKERS, parse_flag, whole
from mdp.shown import breaks, broken, clipped, typed


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
    (:func:`mdp.program.options.add_options`): ``--NAME VALUE`` (``-`` for ``_``), a switch
    ``--NAME`` when the default is ``False``, its ``help`` the argument's, with the default
    when there is one; ``parse`` checks each value as it is read, and a parser of
    :func:`parse_choice` offers its choices. The fields below say the rest; they are an
    option's alone, and a game's parameter sets none of them (refused as the game loads).
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
        finite as its text (``nan``, ``inf``: JSON has no number for it). With no ``show``,
        the value itself where JSON has its form (lists and mappings of text keys too), a
        numpy number as Python's, and any other value (a Fraction, a set, an array, a
        mapping of other keys) as its text, as tables show it. A ``show`` that raises or
        gives anything else, or bytes, is the fault of whoever declared the parameter:
        checked here, where every use passes, as the game loads, before any work. ``None``
        (not set) is shown as itself, ``show`` not asked: it renders values that are set."""
        if self.show is None or value is None:
            got = value
        else:
            try:
                got, again = self.show(value), self.show(value)
            except PLUGIN_FAULTS as error:
                raise ModelError(f"parameter {self.name}: its show raised {fault(error)} "
                                 f"(value {said(value)})") from None
            # Asked by every command, it gives one text (or number) for one value.
            if (got is None or isinstance(got, (str, int, float))) and said(got) != said(again):
                raise ModelError(f"parameter {self.name}: its show gave {said(got):.60} and then "
                                 f"{said(again):.60} for one value; a show gives one text per value")
        if self.show is None and hasattr(got, "dtype") and getattr(got, "shape", None) == ():
            got = got.item()  # a numpy number, as Python's (a long double stays as it is)
        if self.show is None and not isinstance(got, (bytes, bytearray, float)) and not _json(got):
            got = str(got)  # its text (1/2 for a Fraction), as tables show it
        if isinstance(got, float) and not math.isfinite(got):
            return str(got)
        if isinstance(got, str):
            if breaks(got):
                raise ModelError(f"parameter {self.name}: {'its show gave' if self.show else 'value'} "
                                 f"{got!r:.60}: {broken(got, typed=False)}")
            if self.show is None and got == got.strip():  # recorded as its text
                if isinstance(value, Number) and not self.repeat:  # (a fraction's 1/2)
                    self._itself_back(value, value, (got,))
            else:
                self._read_back(value, got)
            return got
        if self.show is not None and (got is None or isinstance(got, (bool, int, float))):
            self._read_back(value, got)
        elif self.show is None and isinstance(got, (bool, int, float)) and not self.repeat:
            import json

            self._itself_back(value, got, (json.dumps(got),) if not isinstance(got, bool) else
                              ("true", "True") if got else ("false", "False"))
        if got is None or isinstance(got, (bool, int, float)) or \
                self.show is None and not isinstance(got, (bytes, bytearray)):
            return got
        whose = "its show gave" if self.show is not None else "its value is"
        raise ModelError(f"parameter {self.name}: {whose} {said(got):.60} "
                         f"({type(got).__name__}), not text or a number; a parameter's value "
                         "is shown as the text --set takes back (give the parameter a show)")

    def _read_back(self, value: Any, got: Any) -> None:
        """Refuse a ``show`` whose ``got`` for ``value`` is not read back as ``value`` by
        ``parse`` as ``--set`` gives it (stripped of spaces at either end): what is shown
        (and recorded in JSON) would be another game's setting. A value shown as itself is
        read back only where --set would give it otherwise (``" x"``)."""
        typed = got.strip() if isinstance(got, str) else got
        if self.repeat or value is None or (self.show is None and typed == got):
            return
        gave = (f"its show gave {said(got):.60} for {self.name}={said(value):.60}" if self.show
                else f"its value {said(got):.60} has a space at either end")
        try:
            again = parsed(f"parameter {self.name}", self, typed)
        except (ValueError, TypeError, ParamError) as error:
            raise ModelError(f"parameter {self.name}: {gave}, which its parser refuses ({error}); "
                             "a value is shown as the text --set takes back") from None
        if alike(again, value) is False:
            raise ModelError(f"parameter {self.name}: {gave}, which --set reads as "
                             f"{self.name}={said(again):.60}; a value is shown as the text --set "
                             "takes back")

    def _itself_back(self, value: Any, shown: Any, texts: tuple[str, ...]) -> None:
        """Refuse a value with no ``show`` recorded as itself (``shown``: true or false, a
        number; a fraction by its text, ``1/2``), which ``--set`` would give back as one of
        ``texts`` (``true`` and ``True``, ``1``, ``1/2``), where ``parse`` reads it as another
        value: the record would be another game's setting (a parser that reads ``t`` as true
        and ``true`` as text, or ``one`` as 1 and ``1`` as text). A text the parser cannot
        read records no other game: taken."""
        others = []
        for text in texts:
            try:
                again = parsed(f"parameter {self.name}", self, text)
            except (ValueError, TypeError, ParamError, ModelError):  # (no text a user gave)
                continue
            if alike(again, value) is not False:
                return
            others.append(again)
        if others:
            raise ModelError(f"parameter {self.name}: its value {said(shown)} is recorded as "
                             f"{texts[0]}, which --set reads as {self.name}={said(others[0]):.60}; "
                             "give the parameter a show that writes the text --set takes back")


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
            # an empty text sets back a parameter that is unset by default ("--set card="),
            # unless its parser reads it (the parser is the plugin's word on its values)
            unset = param.default is None and not param.repeat and isinstance(given.get(name), str) \
                and given[name] == "" and not _reads_empty(owner, param)  # (an array is no text)
            if name not in given or unset or param.repeat and len(values_of(given[name])) == 0:
                if param.required:
                    raise ParamError(f"{game if not analysis else owner}: {name} is required "
                                     f"({param.help or 'no default'})")
                # read as --set's value is (a default of "6" with parse=int is 6); None: not set
                values[name] = None if param.default is None and not param.repeat else \
                    check_default(owner, param, kind)
                continue
            if isinstance(given[name], (set, frozenset)):  # from Python: no order to read it in
                where = f"{owner}: " if analysis else ""
                raise ParamError(f"{where}{kind} {name}={clipped(str(given[name]))}: a "
                                 f"{type(given[name]).__name__}, which holds no order; give "
                                 "the values in order, as a list or a tuple, or as text")
            read = []
            for value in values_of(_listed(given[name])) if param.repeat else (_listed(given[name]),):
                texts = [value] if isinstance(value, str) else \
                    [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []
                if text := next((t for t in texts if breaks(t)), None):  # the user's, not the show's
                    where = f"{owner}: " if analysis else ""
                    raise ParamError(f"{where}{kind} {name}={typed(clipped(text))}: {broken(text)}")
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


def _reads_empty(owner: str, param: Param) -> bool:
    """Whether ``param``'s parser takes the empty text (a parser's fault otherwise than by
    refusing it is raised, as for any value)."""
    try:
        _parsed(owner, param, "")
    except (ValueError, TypeError, ParamError):
        return False
    return True


def _listed(value: Any) -> Any:
    """A value given from Python as its parser reads it: a numpy array or a Polars Series of
    values as the list it holds (its parser tests a list, not an array, for truth), and a
    generator as the list it gives (a parser is asked twice, and would find it used up)."""
    if isinstance(value, Iterator):
        return list(value)
    if type(value).__module__.startswith(("numpy", "polars")) and getattr(value, "ndim", 1) != 0:
        listed = getattr(value, "tolist", None) or getattr(value, "to_list", None)
        return listed() if callable(listed) else value
    return value


def parsed(where: str, param: Param, value: Any) -> Any:
    """``value`` parsed by ``param``: a value it refuses is the :class:`ValueError` (or
    :class:`TypeError`) of its parser, for the caller to word; a parser that breaks otherwise
    is a fault of the plugin's, a :class:`~mdp.ModelError` that begins with ``where``. With
    ``repeat``, the tuple of its values (:func:`values_of`) each parsed alone."""
    if param.repeat:
        return tuple(_parsed(where, param, one) for one in values_of(value))
    return _parsed(where, param, value)


def _parsed(where: str, param: Param, value: Any) -> Any:
    # Python's own as parsers, read exactly: int(3.7) would be 3, bool("False") true (numpy's
    # bool too: a plugin that gives it has loaded numpy).
    numpy = sys.modules.get("numpy")
    flag = param.parse is bool or numpy is not None and param.parse is numpy.bool_
    parse = whole if param.parse is int else parse_flag if flag else param.parse
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


def _json(value: Any) -> bool:
    """Whether JSON holds ``value`` as it is: None, true or false, a whole number, a finite
    float, a text; a list or tuple of those, a mapping of distinct texts to those."""
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(map(_json, value))
    return isinstance(value, dict) and all(isinstance(k, str) for k in value) and \
        all(map(_json, value.values()))


def alike(a: Any, b: Any) -> bool | None:
    """Whether two values of a parameter are the same value by ``==`` (an array's, all of
    it; a NaN as NaN); ``None`` where they cannot be told: two of a class with no ``==`` of
    its own (each value made is another), or an ``==`` that does not answer."""
    if a is b or type(a) is type(b) and type(a).__eq__ is object.__eq__:  # type: ignore[comparison-overlap]
        return True if a is b else None
    if type(a) is type(b) and isinstance(a, (list, tuple)):  # item by item: a NaN in them too
        if len(a) != len(b):
            return False
        answers = [alike(x, y) for x, y in zip(a, b)]
        return False if False in answers else None if None in answers else True
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
    return value


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

VARY_COLUMNS = ("value", "exact", "states")
"""The columns a table of rule sets (``--vary``, :func:`mdp.solve_table`) adds beside the
parameters varied, each a column of its own: never a parameter's name, whose column it would
take (the rows would not say their rule sets)."""

VARY_PLAYERS = re.compile(r"player_[0-9]+(_percent|_exact)?")
"""The columns :func:`mdp.match_table` adds beside them, a player's: ``player_1``,
``player_1_percent``, ``player_2_exact``."""


def check_settable(names: Iterable[str]) -> None:
    """Refuse, as a parameter to set or vary, a name of :func:`mdp.load_game`'s own."""
    for name in names:
        if name in NOT_PARAMETERS:
            raise ParamError(f"{name} is not a parameter of a game: choose the variant with "
                             "--variant (variant= in Python), rule plugins with -p (plugins=)")
