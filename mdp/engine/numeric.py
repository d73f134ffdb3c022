"""What counts as a number: the one check for probabilities and values, from a game or a
user (the terminal values a solve is given are checked with it: :mod:`mdp.engine.terminal`).

A number is an ``int``, a :class:`fractions.Fraction` (any :class:`numbers.Rational`) or a
finite ``float``; ``bool`` is not one, nor NaN or an infinity. Rationals keep exact solving
exact; a float allows float solving only.
"""

from __future__ import annotations

import decimal
import math
import sys
from fractions import Fraction
from numbers import Rational
from typing import Any

import numpy as np

from mdp.shown import shown_float

FLOAT_MOST = float(np.finfo(np.float64).max)
"""The largest float: a number past it (an int or a fraction) would be infinite in floats,
and its value could not even be printed."""


def fault(value: Any) -> str | None:
    """Why ``value`` is not a number (``"is not a number"``, ``"is not finite"``), or None:
    a number is one that :func:`plain` makes an ``int``, a ``Fraction`` or a float."""
    value = plain(value)
    if isinstance(value, decimal.Decimal):  # a number, but neither exact nor a float's kind
        return ("is a decimal.Decimal, which mdp does not compute with: give Fraction(value), "
                "its exact value, or a float")
    if type(value) not in _PLAIN and not isinstance(value, np.floating):
        return "is not a number"
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):  # as a float
        finite = isinstance(value, np.floating) and bool(np.isfinite(value))  # np.longdouble
        return "is past what a float holds (about 1.8e308)" if finite else "is not finite"
    return None


def first_past_float(values: Any) -> tuple[int, Any] | None:
    """The position and value of the first number of ``values`` (numbers) that no float
    holds, past :data:`FLOAT_MOST` (an int or a fraction), or None."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return None
    return next(((i, v) for i, v in enumerate(values) if _past_float(v)), None)


def below_floats(value: Any) -> bool:
    """Whether ``value`` is an exact number not 0 that a float makes 0 or keeps fewer digits
    of than of others (below about 2.2e-308, the least normal float)."""
    # (an int, bool too, is 0 or at least 1 in size: only a fraction can be below)
    return _rational(value) and not isinstance(value, int) and value != 0 and \
        abs(value) < _LEAST_NORMAL


_LEAST_NORMAL = Fraction(sys.float_info.min)


def _past_float(value: Any) -> bool:
    return _rational(value) and abs(value) > FLOAT_MOST


def _rational(value: Any) -> bool:
    """Whether ``value`` is an exact number: a :class:`numbers.Rational`, but no NumPy
    duration (one of NumPy's integers for its ABCs, read by its unit) and no bool."""
    return isinstance(value, Rational) and not isinstance(value, (bool, np.timedelta64))


def shown_floats(values: Any) -> np.ndarray:
    """Numbers (an array or a list) as floats for showing them, each by :func:`shown_float`."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        return np.asarray(values, dtype=np.float64)
    items = values.ravel().tolist() if isinstance(values, np.ndarray) else list(values)
    floats = np.array([shown_float(v) for v in items], dtype=np.float64)
    return floats.reshape(values.shape) if isinstance(values, np.ndarray) else floats


def power_of_two_above(values: np.ndarray) -> float:
    """The power of two just above the largest of ``values`` in size (1 for none, or all 0),
    or the largest a float holds, 2**1023, where that is past a float (values of 1e308):
    sums and squares of the values over it stay within a float where the values do."""
    largest = float(np.abs(values).max()) if len(values) else 0.0
    return math.ldexp(1.0, min(math.frexp(largest)[1], 1023)) if largest else 1.0


def float_or_none(value: Any) -> float | None:
    """A number as a float, or ``None`` where a float does not hold its size (an exact value
    past :data:`FLOAT_MOST`, or not 0 but :func:`below_floats`: shown by its fraction
    beside it)."""
    return None if _past_float(value) or below_floats(value) else float(value)


def float_holds(value: Any) -> bool:
    """Whether a float holds the number ``value`` exactly (``2**53 + 1`` and ``1/3`` it does
    not): where floats would merge numbers that differ."""
    return not _past_float(value) and float(value) == value


def to_floats(values: Any) -> tuple[np.ndarray, int | None]:
    """Numbers (ints, fractions, floats) as a float array, and the position of the first
    exact one that no float holds by its size: not 0 but made 0 (below about 1e-308, where
    only a ratio counts), or past :data:`FLOAT_MOST`; ``None`` if none is. The one place
    a plugin's exact numbers are made floats where their size may be lost."""
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    floats = np.empty(len(items), dtype=np.float64)
    lost = None
    for i, value in enumerate(items):
        value = plain(value)
        try:
            floats[i] = float(value)
        except OverflowError:  # an int or fraction past a float
            floats[i] = math.inf if value > 0 else -math.inf
        if lost is None and isinstance(value, Rational) and value != 0 and \
                (floats[i] == 0 or not math.isfinite(floats[i])):
            lost = i
    return floats, lost


def quoted(value: Any) -> str:
    """A value as an error message quotes it: its ``repr``, but a number whose digits could
    fill pages (past what a float holds, or a fraction of hundreds of digits) by its size;
    a NumPy number as the plain number it holds (``1e+308``, not ``np.float64(1e+308)``), a
    NumPy duration or date as NumPy's (``np.timedelta64(3)``, not 3: no number)."""
    if isinstance(value, np.generic) and not isinstance(value, (np.timedelta64, np.datetime64)):
        value = value.item()
    if _rational(value) and (_past_float(value) or len(str(value)) > QUOTED_MOST):
        sign = "-" if value < 0 else ""
        top, bottom = abs(int(value.numerator)), int(value.denominator)
        if bottom == 1 or _past_float(value):  # said by its numerator's digits
            return f"{sign}(a number of about {_digits(top):,} digits)"
        return (f"{sign}(a fraction of {_digits(top):,} over {_digits(bottom):,} digits, "
                f"about {about(abs(value))})")
    text = repr(value)
    return " ".join(text.split()) if "\n" in text else text  # an array's repr: one line


def about(value: Any) -> str:
    """An exact number to three digits, of any size and either sign (``1e-400``, which no
    float holds; ``-1.23e-400``)."""
    with decimal.localcontext(decimal_context(3)):
        near = decimal.Decimal(int(value.numerator)) / decimal.Decimal(int(value.denominator))
        return f"{near:.3g}"


def decimal_context(digits: int) -> decimal.Context:
    """A decimal context of mdp's own, ``digits`` significant digits and any exponent: never
    the thread's, which a game may have set otherwise (a trap of ``Inexact``)."""
    return decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_EVEN, Emax=decimal.MAX_EMAX,
                           Emin=decimal.MIN_EMIN, capitals=1, clamp=0, flags=[],
                           traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])


def written(value: Any) -> str:
    """A number as a message writes it (``-1/6``, ``0.5``), or by its size where it is too
    long (:func:`quoted`)."""
    shown = quoted(value)
    return shown if shown.startswith(("(", "-(")) else str(value)


def counted(count: int) -> str:
    """A count as a message says it: ``1,234,567``, or past a quadrillion ``about 10^200``
    (its digits would fill the line)."""
    return f"{count:,}" if count < 10 ** 15 else f"about 10^{_digits(count) - 1}"


QUOTED_MOST = 60
"""The most characters of a number (``-1/6``) a message quotes whole."""


def _digits(whole: int) -> int:
    """How many digits ``whole`` (above 0) has: from its log, set right at powers of ten."""
    digits = int(math.log10(whole)) + 1  # math.log10 takes an int of any size, nearly
    digits += whole >= 10 ** digits  # rounded down below a power of ten
    return digits - (whole < 10 ** (digits - 1))  # or up to one


def first_fault(values: Any) -> tuple[int, Any, str] | None:
    """The position, value and fault of the first item of ``values`` that is not a number."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        if values.dtype.kind == "f" and len(values):
            bad = np.flatnonzero(~np.isfinite(values))
            if len(bad):
                return int(bad[0]), values[bad[0]].item(), "is not finite"
        return None
    for i, value in enumerate(values):
        problem = fault(value)
        if problem:
            return i, value, problem
    return None


def first_float(values: Any) -> tuple[int, float] | None:
    """The position and value of the first float among ``values`` (which are numbers), or
    None when all are rational."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return (0, values[0].item()) if values.dtype.kind == "f" and len(values) else None
    return next(((i, v) for i, v in enumerate(values) if not isinstance(v, Rational)), None)


def plain(value: Any) -> Any:
    """A number as the engine takes it, by its exact value: an ``int``, a
    :class:`~fractions.Fraction` of ints, or a ``float`` (a NumPy number as the plain number
    it holds, ``np.longdouble`` as a float where one holds it, else as the whole number or
    fraction it is). The one door of every number a game or a plugin gives: an ``int``,
    ``float`` or ``Fraction`` subclass (an ``IntEnum``) is read by its base class's own
    methods, never by the object's ``__float__``, ``__int__``, ``__eq__`` or ``numerator``,
    which a subclass may make say another number; another :class:`numbers.Rational` by its
    numerator and denominator, which must then be whole. Anything else (``bool`` too) is
    returned as it is, for :func:`fault` to refuse. Exact arithmetic on NumPy's 64-bit
    integers would overflow without a word, hence ints too."""
    kind = type(value)
    if kind is int or kind is float:
        return value
    if kind is Fraction:
        top, bottom = value.numerator, value.denominator
        if type(top) is int and type(bottom) is int:
            return value
    if isinstance(value, (bool, np.bool_, np.timedelta64, np.datetime64)):  # (a duration is
        return value  # one of NumPy's integers, read by its unit: no number)
    if isinstance(value, np.generic):  # by NumPy's own item(), not a subclass's
        numpy: Any = next(base for base in kind.__mro__ if base.__module__ == "numpy")
        item = numpy.item(value) if isinstance(value, (np.integer, np.floating)) else value
        if isinstance(item, np.floating):  # a float wider than Python's: by the number it holds
            return _wide(np.longdouble(item))
        return value if isinstance(item, np.generic) else plain(item)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Rational):
        try:
            if isinstance(value, Fraction):
                own: Any = Fraction  # its properties, not a subclass's
                top, bottom = own.numerator.fget(value), own.denominator.fget(value)
            else:
                top, bottom = value.numerator, value.denominator
            top, bottom = plain(top), plain(bottom)
        except Exception:  # noqa: BLE001  (a broken number is refused, not raised)
            return value
        if type(top) is int and type(bottom) is int and bottom:
            return Fraction(top, bottom)
    return value


def plain_numbers(values: Any) -> Any:
    """Each of ``values`` (a list, a tuple or an array) by :func:`plain`: a NumPy array of
    numbers as it is, an array of objects as one of plain numbers (of its shape), else a
    list."""
    if isinstance(values, np.ndarray):
        if values.dtype != object:
            return values
        out = np.empty(values.shape, dtype=object)
        out.ravel()[:] = [plain(v) for v in values.ravel().tolist()]
        return out
    return [plain(v) for v in values]


def plain_array(values: Any) -> Any:
    """``values``, an array of a subclass of NumPy's made a plain one (a matrix, which indexes
    by rows of two dimensions); a masked array refused (``ValueError``): the numbers its mask
    hides would be solved with, unseen; one of floats wider than 64 bits (``np.longdouble``)
    as floats where each is one, else as an array of the numbers they hold, each exactly
    (:func:`plain`). Anything else as it is."""
    if isinstance(values, np.ma.MaskedArray):
        raise ValueError("a masked array, whose mask hides numbers that would be used unseen; "
                         "give a plain array")
    if isinstance(values, np.ndarray) and type(values) is not np.ndarray:
        values = np.asarray(values)
    if isinstance(values, np.ndarray) and values.dtype.kind == "f" and values.dtype.itemsize > 8:
        with np.errstate(over="ignore"):  # (one past a float's range: not a float)
            floats = values.astype(np.float64)
        if np.array_equal(floats, values, equal_nan=True):  # each a float: floats, as ever
            return floats
        out = np.empty(values.shape, dtype=object)  # each exactly, no float among them
        out.ravel()[:] = [_wide(v, exact=True) for v in values.ravel()]
        return out
    return values


def _wide(value: np.longdouble, exact: bool = False) -> int | float | Fraction | np.longdouble:
    """A float wider than Python's (``np.longdouble``) as the number it holds: a float where
    a float holds it (unless ``exact``: a float's probabilities and values stay a float's,
    within its tolerance), else the whole number or fraction it is (``3 * 2**60 + 1``, which
    a float rounds); as it is where it is not finite or past a float's range, for
    :func:`fault` to say which."""
    with np.errstate(over="ignore"):
        as_float = float(value)
    if not math.isfinite(as_float):
        return value
    if as_float == value and not exact:
        return as_float
    top, bottom = (int(n) for n in value.as_integer_ratio())
    return top if bottom == 1 else Fraction(top, bottom)


def numbers_array(values: Any) -> np.ndarray:
    """``np.asarray(values)`` of a hook's numbers (nested lists, or an array of objects),
    each number first taken by :func:`plain`: NumPy makes an int or float subclass a number
    by its own ``__int__`` or ``__float__``. An array of objects stays one; so do lists of
    true or false among numbers (not made 1 or 0) and of ints past 64 bits (not made floats).
    Raises what ``np.asarray`` raises (ragged), and what :func:`plain_array` does."""
    values = plain_array(values)
    if isinstance(values, np.ndarray) and values.dtype != object:
        return values
    raw = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    if raw.dtype != object or not raw.size:
        return np.asarray(values)
    items = plain_numbers(raw)
    if isinstance(values, np.ndarray):  # an array of objects stays one, of plain numbers
        return items
    flat = items.ravel().tolist()
    truths = [isinstance(v, (bool, np.bool_)) for v in flat]
    if any(truths) and not all(truths):  # true or false among numbers: for the caller to refuse
        return items
    if all(type(v) is int for v in flat) and not all(-2**63 <= v < 2**63 for v in flat):
        return items  # ints past 64 bits: NumPy would make them floats
    if any(fault(v) == "is not a number" for v in flat):  # text among numbers: NumPy would make
        return items  # every number text, and the first blamed for it
    return np.asarray(items.tolist())


_PLAIN = (int, float, Fraction)
"""The types of a number as :func:`plain` gives it."""
