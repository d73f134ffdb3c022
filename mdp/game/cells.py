"""The values a table's cell holds (numbers, text, true or false, None), and a column's
values made ones Polars keeps whole: checked as the columns are read, for every command, and
made a table (:func:`to_frame`)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.errors import ModelError, said
from mdp.shown import broken, utf8

if TYPE_CHECKING:
    import polars as pl

KINDS = (bool, int, float, str)
"""The values a table holds (with None); a numpy scalar is one by the Python value it holds,
a fraction by its exact text (:func:`fraction`)."""


def fraction(value: Fraction) -> int | str:
    """A fraction exactly: a whole one its integer, else its text ``"p/q"``."""
    return value.numerator if value.denominator == 1 else str(value)


def scalars(who: str, name: str, values: Any) -> Any:
    """``values`` as a list of :data:`KINDS` and None, or a 1-d numpy array of numbers,
    true/false or text; anything else refused, and a column of text beside numbers (or
    true/false): every command refuses it as it is read."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        if values.ndim == 1 and held(values.dtype):
            return values
        why = "a column is one value per row: numbers, text, true/false or None" \
            if values.ndim != 1 or not len(values) else allowed(values[0])
        raise ModelError(f"{who}: column {name!r} is a {values.ndim}-d numpy array of "
                         f"{values.dtype}; {why}")
    if one_kind(values):
        return list(values)
    plain = [v.item() if isinstance(v, np.generic) else fraction(v) if isinstance(v, Fraction)
             else v for v in values]
    first: dict[str, int] = {}  # the first row of each kind of value
    for row, value in enumerate(plain):
        if value is None:
            continue
        if not isinstance(value, KINDS):
            raise ModelError(f"{who}: column {name!r} holds {value!r} ({type(value).__name__}) "
                             f"at row {row + 1}; {allowed(value)}")
        first.setdefault(str(kind(values[row])), row)
    if len(first) > 1:  # a table would make them all text
        (one, a), (other, b) = sorted(first.items(), key=lambda kind: kind[1])[:2]
        # each value as given (a fraction as such, not as the text a table would hold)
        given = [v.item() if isinstance(v, np.generic) else v for v in (values[a], values[b])]
        raise ModelError(mixed(who, name, (one, given[0], f"row {a + 1}"),
                               (other, given[1], f"row {b + 1}")))
    return plain


def held(dtype: np.dtype) -> bool:
    """Whether a table holds numpy's values of ``dtype`` as they are: true/false, whole
    numbers, text, and floats of 64 bits or fewer (not a long double, which it would round)."""
    return dtype.kind in "biuU" or dtype.kind == "f" and dtype.itemsize <= 8


def allowed(value: Any) -> str:
    """What a column's value may be, said to refuse ``value``: a number no table holds as it
    is (a long double, which a column of floats would round; a complex number) says why."""
    if isinstance(value, (complex, np.complexfloating)):
        return "a column's numbers are real: no table holds a complex one"
    if isinstance(value, str) and not utf8(value):
        return f"text is letters, not {broken(value, typed=False)}"
    if isinstance(value, np.floating):  # a long double (the others .item() makes a float)
        return (f"a {np.dtype(type(value)).name} has more digits than a table's column of "
                "floats holds: give a float, or a Fraction to keep them all")
    return "a column's value is a number, text, true/false or None"


def kind(value: Any) -> str | None:
    """The kind of a cell's value, as a table holds one kind in a column: text, or numbers
    (fractions, and true or false too, which a table beside numbers holds as 1 and 0);
    ``None`` for None."""
    value = value.item() if isinstance(value, np.generic) else value
    return None if value is None else "text" if isinstance(value, str) else "numbers"


def mixed(who: str, name: str, one: tuple[str, Any, str], other: tuple[str, Any, str]) -> str:
    """The refusal of a column of two kinds of value, each ``(kind, value, where)``."""
    return (f"{who}: column {name!r} holds {one[0]} ({said(one[1])} at {one[2]}) and {other[0]} "
            f"({said(other[1])} at {other[2]}); a column holds one kind of value: text, or "
            "numbers and true/false (and None)")


def one_kind(values: Any) -> bool:
    """Whether ``values`` (a list or tuple) are all of one kind a table holds as it is (all
    ``bool``, ``int``, ``float`` or ``str``, not a subclass; or None), ints within the 128
    bits Polars keeps: told over the whole column at once, where the checks value by value
    (:func:`scalars`, :func:`cell`, :func:`exact`) took seconds on a large table."""
    if not isinstance(values, (list, tuple)):
        return False
    types = set(map(type, values))
    kinds = types - {type(None)}
    if len(kinds) != 1 or not kinds <= {bool, int, float, str}:
        return not kinds
    if kinds == {int}:
        ints = [v for v in values if v is not None] if len(types) > 1 else values
        return max(max(ints), -min(ints)) <= 2**127 - 1
    return True


def exact(values: Any) -> Any:
    """``values``, or their text (``None`` kept) where Polars would lose some of them: it
    makes an int past 128 bits null, and an int past 2**53 a float beside floats."""
    if not isinstance(values, list) or one_kind(values):
        return values
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if not ints:
        return values
    largest = max(max(ints), -min(ints))
    limit = 2**53 if any(isinstance(v, float) for v in values) else 2**127 - 1
    if largest <= limit:
        return values
    return [None if v is None else str(v) for v in values]


def cell(value: Any) -> bool:
    """Whether ``value`` is one a table's cell holds (:data:`KINDS`, None, a fraction, or a
    numpy scalar of one; text that is UTF-8)."""
    if isinstance(value, np.generic):
        return held(value.dtype)
    if isinstance(value, str):
        return utf8(value)
    return value is None or isinstance(value, (*KINDS, Fraction))


def to_frame(columns: dict[str, Any], who: str = "the game") -> pl.DataFrame:
    """Columns as a Polars DataFrame; numpy arrays of Python objects (text, numbers with
    None) become lists, and numpy scalars the Python values they hold, so that Polars infers
    their type. No value is lost on the way: a column of whole numbers that no integer type
    of Polars holds (past 128 bits), or that floats beside them would round (past 2**53), is
    a column of their text, and a fraction is its text ``"p/q"``; a value that is not one a
    table holds (a number, text, true or false, or None) is refused, naming ``who`` gave
    it, and so is a column Polars would not keep whole (a value it makes null)."""
    import polars as pl

    plain = {name: exact(scalars(who, name, values)) for name, values in columns.items()}
    try:
        frame = pl.DataFrame(plain, strict=False)
    except UnicodeEncodeError:  # text with a lone surrogate: found, and said
        name, row, value = next((name, row, v) for name, values in plain.items()
                                for row, v in enumerate(values) if isinstance(v, str) and not utf8(v))
        raise ModelError(f"{who}: column {name!r} holds {value!r} at row {row + 1}; "
                         f"{allowed(value)}") from None
    for name, values in plain.items():
        given = values.count(None) if isinstance(values, list) else 0
        if frame[name].null_count() != given:
            row = next(i for i, v in enumerate(frame[name].to_list()) if v is None and
                       values[i] is not None)
            raise ModelError(f"{who}: column {name!r} holds {values[row]!r} at row {row + 1}, "
                             f"which a table of its other values cannot keep; give every value "
                             "of a column as plain Python numbers, text or None")
    return frame


def numbered(frame: pl.DataFrame, height: int, name: str) -> pl.DataFrame:
    """``frame`` of ``height`` rows with a first column ``name`` numbering them from 0, as
    ``with_row_index`` does; a frame of no column (a game that shows none) has no height in
    Polars, and is the numbers alone."""
    import polars as pl

    ids = pl.int_range(height, eager=True, dtype=pl.UInt32).alias(name)
    return frame.insert_column(0, ids) if frame.width else ids.to_frame()

