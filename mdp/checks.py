"""The checks of the arguments of mdp's public functions, each one line at the top of the
function: a wrong argument is one :class:`~mdp.ParamError` naming the function, the
argument, what was given and what is allowed, before any work::

    arguments("solve", model=(model, MODEL), exact=(exact, FLAG), progress=(progress, CALLBACK))

A :class:`Rule` says what an argument may be; the rules that several functions share are
here. Classes are named rather than imported (``"CompiledModel"``), so that this module
imports nothing of numpy or Polars: they are looked up in :mod:`mdp` when a check needs them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from numbers import Rational
from typing import Any

import attrs

from mdp import errors
from mdp.errors import ParamError
from mdp.limits import LEAST_RESIDUAL


@attrs.frozen
class Rule:
    """What an argument may be: ``holds(value)`` says whether it is, ``allowed`` says it in
    words for the message (``"True or False"``)."""

    holds: Callable[[Any], bool]
    allowed: str


def arguments(function: str, **checked: tuple[Any, Rule]) -> None:
    """Check each argument, ``name=(value, rule)``; the first that breaks its rule is one
    :class:`~mdp.ParamError`: ``mdp.compile: max_states is -1; expected ...``."""
    for name, (value, rule) in checked.items():
        if not rule.holds(value):
            raise ParamError(f"mdp.{function}: {name} is {shown(value)}; expected {rule.allowed}")
    if "game" in checked:  # the game analysed with its subject (given first): the same rules
        same_game(function, next(iter(checked.values()))[0], checked["game"][0])


def same_game(function: str, subject: Any, game: Any) -> None:
    """Refuse a ``game`` other than the one ``subject`` (a model, solution or policy) was
    compiled from: another game, other plugins beside it (a rule plugin changes the rules),
    or other parameters (but those only its match rules read, which change no state). Its
    labels and columns would be put on the other's numbers."""
    info = getattr(subject, "info", None) or getattr(getattr(subject, "model", None), "info", None)
    if info is None or not _is(game, ("Game",)):
        return
    ignored: set[str] = set()
    if game.implements("mdp_match_rules") and not game.in_rounds:  # (checked by what uses them)
        params = getattr(game.call("mdp_match_rules"), "params", ())
        ignored = {p for p in params if isinstance(p, str)} if isinstance(params, tuple) else set()
    mine = {k: v for k, v in game.shown_params().items() if k not in ignored}
    theirs = {k: v for k, v in dict(info.params).items() if k not in ignored}
    kind = type(subject).__name__
    if game.name != info.game:
        differ = f"{game.name}, but the {kind} is of game {info.game}"
    elif plugins_of(game) != info.plugins:
        differ = f"{game.name} {_plugins(plugins_of(game), info.plugins, kind)}"
    elif mine != theirs:
        key = next(k for k in sorted(mine.keys() | theirs.keys()) if mine.get(k) != theirs.get(k))
        differ = (f"{game.name} with {key}={mine.get(key)!r}, but the {kind} was compiled "
                  f"with {key}={theirs.get(key)!r}")
    else:
        return
    raise ParamError(f"mdp.{function}: game is {differ}; give the game it was compiled from "
                     "(or compile this one)")


def same_solve(function: str, optimal: Any, model: Any, exact: bool, sense: str | None) -> None:
    """Refuse an ``optimal`` (a solution, or ``None``: none given) that is not what
    :func:`mdp.solve` makes of ``model`` as ``exact`` and ``sense`` say: its values would be
    put beside others' as the best play's."""
    if optimal is None:
        return
    if optimal.model is not model:
        why = "a solution of another compiled model"
    elif optimal.strategy is not None:
        why = f"the play of the strategy {optimal.strategy}, not optimal play"
    elif optimal.exact != exact:
        why = f"solved {'exactly' if optimal.exact else 'in floats'}, but exact is {exact}"
    elif sense is not None and optimal.sense != sense:
        why = f"solved to the {optimal.sense}imum, but sense is {sense!r}"
    else:
        return
    raise ParamError(f"mdp.{function}: optimal is {why}; give mdp.solve(model) of this model "
                     f"(exact={exact}), or leave optimal out")


def plugins_of(game: Any) -> tuple[str, ...]:
    """The names of a loaded game's plugins beside its own module, in the order they were
    registered (:attr:`mdp.ModelInfo.plugins`)."""
    return tuple(name for name, _ in game.plugins.list_name_plugin() if name != game.name)


def rule_plugins(game: Any) -> tuple[str, ...]:
    """The names of a loaded game's rule plugins, those beside the game and its own modules
    (installed, or given by their paths), in the order they were registered: what a summary
    records as ``plugins``, for the rules are theirs too."""
    return tuple(name for name in plugins_of(game) if not game.own(name))


def _plugins(mine: tuple[str, ...], theirs: tuple[str, ...], kind: str) -> str:
    """How a game's plugins beside its own differ from those a model was compiled with:
    ``with plugin a.py, but the Solution was compiled without it``."""
    extra, missing = [n for n in mine if n not in theirs], [n for n in theirs if n not in mine]
    named = extra or missing
    if not named:  # the same plugins, registered in another order: another wraps the other
        return (f"with plugins in the order {', '.join(mine)}, but the {kind} was compiled "
                f"with them in the order {', '.join(theirs)}")
    plugins = f"plugin{'s' * (len(named) > 1)} {', '.join(named)}"
    them = "them" if len(named) > 1 else "it"
    if extra:
        return f"with {plugins}, but the {kind} was compiled without {them}"
    return f"without {plugins}, but the {kind} was compiled with {them}"


def bounds(function: str, minimum: int | None, maximum: int | None) -> None:
    """Refuse a ``minimum`` above the ``maximum`` (either ``None``: no bound)."""
    if minimum is not None and maximum is not None and minimum > maximum:
        raise ParamError(f"mdp.{function}: minimum is {shown(minimum)} and maximum is "
                         f"{shown(maximum)}; expected a minimum of at most the maximum")


def shown(value: Any) -> str:
    """A value as a message shows it, short: ``'4G'``, ``-1``, ``[1, 2]``, ``a Game``."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, list, tuple,
                                           dict, set, frozenset, range)):
        try:
            text = repr(value)
        except ValueError:  # an int of more digits than Python turns into text
            return "a whole number of more than 4,300 digits"
        return text if len(text) <= 60 else f"{text[:57]}..."
    kind = type(value).__name__
    if type(value).__module__ == "numpy" and kind == "ndarray" and value.dtype.kind in "biuf":
        text = repr(value.tolist())  # what it holds, as for a list (its dtype beside)
        return f"a numpy array of {value.dtype} {text if len(text) <= 60 else f'{text[:57]}...'}"
    kind = f"numpy.{kind}" if type(value).__module__ == "numpy" else kind  # (numpy.bool, not bool)
    return f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}"


def _is(value: Any, kinds: tuple[str | type, ...]) -> bool:
    classes = (_class(k) if isinstance(k, str) else k for k in kinds)
    return isinstance(value, tuple(c for c in classes if c is not None))


def _class(name: str) -> type | None:
    """The class of mdp's named ``name`` (or Polars' ``DataFrame``); ``None`` where its
    module is not imported yet: nothing is an instance of it then, and a check need not
    import it (a solve of one model, the rounds engine)."""
    import mdp

    module = "polars" if name == "DataFrame" else mdp._LAZY[name]
    if module not in sys.modules:
        return None
    return sys.modules["polars"].DataFrame if name == "DataFrame" else getattr(mdp, name)


def of(*kinds: str | type, allowed: str, none: bool = False) -> Rule:
    """An instance of one of ``kinds`` (classes, or names of :mod:`mdp`'s); ``None`` too
    with ``none``."""
    return Rule(lambda value: (none and value is None) or _is(value, kinds), allowed)


def whole(low: int, high: int | None = None, *, none: bool = False, also: str = "") -> Rule:
    """A whole number (an ``int``, a numpy one too; not ``True``) from ``low`` to ``high``
    (``None``: no bound), or ``None`` with ``none``; ``also`` adds to the words."""
    def holds(value: Any) -> bool:
        if none and value is None:
            return True
        if isinstance(value, bool) or isinstance(value, (str, bytes)):
            return False
        number = _index(value)
        return number is not None and low <= number and (high is None or number <= high)

    words = f"a whole number from {low:,} to {high:,}" if high is not None else \
        f"a whole number of {low:,} or more"
    return Rule(holds, words + (" or None" if none else "") + also)


def choice(*allowed: Any) -> Rule:
    """One of ``allowed`` (``None`` among them for an optional argument)."""
    return Rule(lambda value: any(value is a or (type(value) is type(a) and value == a)
                                  for a in allowed),
                " or ".join(repr(a) for a in allowed))


def listed(item: Rule, what: str) -> Rule:
    """A list, tuple or range, or a numpy array or Series of one dimension (not text, bytes,
    a mapping, a set, whose order is none, an iterator, which checking would use up, or a
    table), whose every item keeps ``item``; ``what`` says it in words."""
    def holds(value: Any) -> bool:
        shape = getattr(value, "shape", None)
        if isinstance(value, (str, bytes, bytearray)) or not (
                isinstance(value, Sequence) or isinstance(shape, tuple) and len(shape) == 1
                and isinstance(value, Iterable)):
            return False
        return all(item.holds(one) for one in value)

    return Rule(holds, what)


def either(*rules: Rule) -> Rule:
    """Any of ``rules``."""
    return Rule(lambda value: any(rule.holds(value) for rule in rules),
                ", or ".join(rule.allowed for rule in rules))


def _values(value: Any) -> bool:
    """Whether ``value`` holds values by position: a list, tuple, numpy array or Series."""
    return hasattr(value, "__len__") and not isinstance(value, (str, bytes, Mapping))


def _columns(value: Any) -> int:
    """The columns of a matrix (a 2-D array or table by its shape, else a list of columns)."""
    shape = getattr(value, "shape", None)
    return shape[1] if isinstance(shape, tuple) and len(shape) == 2 else len(value)


# Plain values.
ANY = Rule(lambda value: True, "anything")
FLAG = Rule(lambda value: isinstance(value, bool), "True or False")
OPTIONAL_FLAG = choice(None, True, False)
TEXT = Rule(lambda value: isinstance(value, str), "a text (str)")
NAME = Rule(lambda value: isinstance(value, str) and value.strip() != "", "a name (a text)")
OPTIONAL_NAME = Rule(lambda value: value is None or NAME.holds(value), "a name (a text) or None")
PATH = Rule(lambda value: isinstance(value, (str, os.PathLike)) and os.fspath(value) != "",
            "a file's path (a str or a pathlib.Path)")
LIST = listed(ANY, "a list")
FUNCTION = Rule(callable, "a function")
OPTIONAL_FUNCTION = Rule(lambda value: value is None or callable(value), "a function or None")
CALLBACK = Rule(lambda value: value is None or callable(value),
                "a function that takes a text (progress=print), or None")
SENSE = choice(None, "max", "min")
WITHIN = either(choice(None, "all"), Rule(
    lambda value: isinstance(value, Mapping) and all(isinstance(name, str) for name in value),
    "round columns naming round states, a dict {COLUMN: VALUE}"))
def integral(value: Any) -> int | None:
    """A number equal to a whole number (an ``int``, numpy's, ``7.0``, a fraction whose
    denominator is 1) as that ``int``; ``None`` for anything else (``True``, ``"7"``,
    ``7/2``, ``7.5``, ``nan``). The one reading of a whole number given as a number: a
    parameter's (:func:`mdp.game.parsers.whole`) too."""
    if isinstance(value, (bool, str, bytes, bytearray)) or \
            getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return None
    if hasattr(value, "__index__"):
        return _index(value)
    if isinstance(value, Rational) and value.denominator == 1:
        return int(value.numerator)
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):  # not a number; nan, infinity
        return None
    return number if number == value else None


def _index(value: Any) -> int | None:
    """``value.__index__()``, a whole number; ``None`` where it has none or refuses (a numpy
    array of one item or more: numpy's TypeError)."""
    try:
        return int(value.__index__())
    except (AttributeError, TypeError):
        return None


INTEGER = Rule(lambda value: integral(value) is not None, "a whole number")
OPTIONAL_INTEGER = Rule(lambda value: value is None or INTEGER.holds(value), "a whole number or None")
INT64 = whole(-2**63, 2**63 - 1)
OPTIONAL_INT64 = whole(-2**63, 2**63 - 1, none=True)
OPTIONAL_SIZE = whole(1, 2**63 - 1, none=True)


def _counts(value: Any) -> bool:
    """Whether ``value`` holds sizes of groups: whole numbers of 0 or more, whose total fits
    in 64 bits (numpy adds them in 64 bits)."""
    import numpy as np

    if not INTEGERS.holds(value):
        return False
    counts = np.asarray(value, dtype=object if not hasattr(value, "dtype") else None)
    if not len(counts):
        return True
    if counts.min() < 0:
        return False
    return int(counts.max()) * len(counts) < 2**63 or sum(int(count) for count in counts) < 2**63


INTEGERS = Rule(lambda value: getattr(value, "ndim", 1) == 1 and value.dtype.kind in "iu"
                if hasattr(value, "dtype") else _values(value) and all(INTEGER.holds(item) for item in value),
                "a list or numpy array of whole numbers")
COLLECTION = Rule(lambda value: isinstance(value, Iterable) and not isinstance(value, (str, bytes, Iterator)),
                  "a list, dict or set")
COUNTS = Rule(_counts, "sizes of groups: a list or numpy array of whole numbers of 0 or more, "
               "their total below 2**63")
NAMES = Rule(lambda value: COLLECTION.holds(value) and all(isinstance(item, str) for item in value),
             "a list (or dict, or set) of names, each a text")

# Limits of the work.
MAX_STATES = whole(1, none=True, also=" (no limit)")
MAX_MEMORY = Rule(lambda value: value is None or (isinstance(value, str) and value == "default")
                  or whole(1).holds(value),
                  "a number of bytes (a whole number of 1 or more; 4 * 2**30 for 4 GiB), "
                  "None (no limit), or 'default'")

# Games and their rules.
_GIVEN = Rule(lambda value: not isinstance(value, (bool, int, float, complex, bytes, list, tuple,
                                                   dict, set, frozenset, type(None))), "")
SPEC = Rule(lambda value: isinstance(value, (str, os.PathLike)) or _GIVEN.holds(value)
            and any(name.startswith("mdp_") for name in dir(value)) and type(value).__name__ != "Game",
            "a game: its installed name ('shutbox'), its path, or a module with its hooks")
"""A game to load: an object given is one with hooks (``mdp_...``), never a game loaded
already (:class:`mdp.Game`), which the functions that take a game take as itself."""
PLUGINS = listed(_GIVEN, "a list of plugins, each a .py file, a package folder, a module's name "
                       "or a module (plugins=['my_rule.py']); [] for none")
PARAMS = Rule(lambda value: value is None or isinstance(value, Mapping)
              and all(isinstance(key, str) for key in value),
              "a dict of parameters by name ({'rounds': '2'}) or None")
VARY = Rule(lambda value: isinstance(value, Mapping) and bool(value)
            and all(isinstance(key, str) and LIST.holds(values) for key, values in value.items()),
            "a dict of each parameter varied and the list of its values ({'rounds': ['2', '3']})")
GAME = of("Game", allowed="a game: mdp.load_game('shutbox')")
OPTIONAL_GAME = of("Game", none=True, allowed="a game (mdp.load_game('shutbox')) or None")

# What mdp makes of a game.
MODEL = of("CompiledModel", "Rounds", allowed="a compiled model: mdp.compile(game)")
ONE_MODEL = of("CompiledModel", allowed="the compiled model of a game of one model: "
               "mdp.compile(game) (a game of rounds plays by mdp.RoundsStrategy, not by a policy)")
SOLUTION = of("Solution", allowed="a solution: mdp.solve(mdp.compile(game))")
SOLVED = of("Solution", "RoundsSolution",
            allowed="a solution: mdp.solve(model) (of a game of rounds too)")
OPTIONAL_SOLVED = of("Solution", "RoundsSolution", none=True,
                     allowed="a solution of the model (mdp.solve(model)) or None")
SOLVED_OR_MODEL = of("Solution", "RoundsSolution", "CompiledModel", "Rounds",
                     allowed="a solution (mdp.solve(model)) or a compiled model (mdp.compile(game))")
PLAY = of("Solution", "RoundsSolution", "Policy",
          allowed="a solution (mdp.solve(model)) or an mdp.Policy (mdp.strategy_policy)")
OPTIONAL_POLICY = of("Policy", none=True, allowed="an mdp.Policy (mdp.strategy_policy) or None")
TABLE = of("DataFrame", "Pieces", allowed="a table: a Polars DataFrame (mdp.policy) or mdp.Pieces")

# Values by position: of terminal states, of actions.
TERMINAL = Rule(lambda value: value is None or _values(value),
                "one value per terminal state (model.terminals): a list, numpy array or Polars "
                "Series, or None")
TERMINALS = Rule(lambda value: _values(value) and _columns(value) > 0,
                 "a matrix of terminal values, a column per set and at least one (a 2-D numpy "
                 "array, a Polars DataFrame, or a list of columns)")
WEIGHTS = Rule(_values, "one weight per action: a list, numpy array or Polars Series of numbers")
STRATEGY = either(NAME, of("Strategy", "RoundsStrategy",
                             allowed="an mdp.Strategy or mdp.RoundsStrategy"), WEIGHTS)
PLAYED = either(NAME, of("Strategy", "RoundsStrategy", "Policy",
                           allowed="an mdp.Strategy, an mdp.RoundsStrategy, an mdp.Policy"), WEIGHTS)
OPTIONAL_PLAYED = either(choice(None), PLAYED)
MIX = listed(Rule(lambda part: isinstance(part, tuple) and len(part) == 2 and _is(part[0], ("Policy",)),
                  ""), "a list of (policy, weight) pairs: [(random, 1), (optimal, 3)]")
TIE_BREAK = listed(Rule(lambda item: isinstance(item, str) or isinstance(item, tuple) and len(item) == 2
                        and item[0] in ("max", "min") and isinstance(item[1], str), ""),
                   "a list of columns, each a name or 'max:NAME'/'min:NAME' or ('max', NAME)")


def first(rule: Rule, call: str) -> Rule:
    """``rule`` for the subject of a function, its first argument, in words that name the
    order (``call``: ``"match(model, game)"``): public functions take their subject first, and
    a call in the order of old (the game first) is told so."""
    return Rule(rule.holds, f"{rule.allowed}, given first: mdp.{call}")


def state_ids(function: str, states: Any, stop: int) -> Any:
    """``states``, ids of states of a model of ``stop`` states, as a numpy array; else one
    :class:`~mdp.ParamError` as :func:`arguments` gives."""
    import numpy as np

    ids = np.asarray(states) if _values(states) else None
    if ids is None or ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu") \
            or (ids.size and (ids.min() < 0 or ids.max() >= stop)):
        raise ParamError(f"mdp.{function}: states is {shown(states)}; expected the ids of states, "
                         f"whole numbers from 0 to {stop - 1:,}")
    return ids.astype(np.int64)


def did_you_mean(wanted: str, known: Iterable[str], *, n: int = 1) -> str:
    """:func:`mdp.errors.did_you_mean` for a caller of the public API: its arguments checked."""
    arguments("did_you_mean", wanted=(wanted, TEXT), known=(known, COLLECTION), n=(n, whole(1)))
    return errors.did_you_mean(wanted, known, n=n)


def check_residual(residual: object, given: str | None = None) -> None:
    """Refuse (:class:`mdp.ParamError`) a ``residual`` that is no number, or none from
    :data:`~mdp.limits.LEAST_RESIDUAL` (what float64 values can be brought to) to 1: the one
    check, of :func:`mdp.solve` and of ``--residual`` alike; quoted as ``given`` where it
    was read from that text (``1e-400``, not the 0.0 it reads as)."""
    if not isinstance(residual, float | int) or isinstance(residual, bool) \
            or not LEAST_RESIDUAL <= residual <= 1:
        said = repr(residual if given is None else given)
        raise ParamError(f"residual={said}: a number from {LEAST_RESIDUAL:g} (float64 "
                         "reaches no closer) to 1, such as 1e-12")
