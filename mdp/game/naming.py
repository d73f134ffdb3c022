"""Naming a state by its columns (``COLUMN=VALUE``): how a value given as text matches a
column of a table, and how a value is written to be given back. One rule for the states of
a model and the round states of a game of rounds."""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping
from typing import Any

import polars as pl

from mdp.shown import seen


def same(table: pl.DataFrame, column: str, value: Any) -> pl.Expr:
    """Whether a column of ``table`` has a value given as text: as the column's text (a
    true-or-false column in any case); a float column also by the number the text is, as
    that column writes it, so that ``nan`` names NaN (NaN the same as NaN) and ``1e-05``
    what the column writes ``0.00001``; and the empty text an empty cell (None) too, as a
    table writes it, in a state's column and a round state's alike, where no cell of the
    column is the empty text itself (which it names then, as before). Always by text, as
    the table shows the cells, never by ``==``: ``-0.0`` names the cell shown ``-0.0``
    (or ``-0``), not one shown ``0.0`` that ``==`` would take for it."""
    text, kind = str(value), table.schema[column]
    wanted = [text.lower() if kind == pl.Boolean else text]
    if kind.is_float():
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is not None:  # (a finite text past a float's top is no infinity)
            itself = [] if math.isinf(number) and "inf" not in text.lower() else [number]
            wanted += pl.Series([*itself, *_shown_as(table[column], number, text)],
                                dtype=kind).cast(pl.String).to_list()
    found = pl.col(column).cast(pl.String).is_in(wanted)
    if text == "" and not (table[column].cast(pl.String) == "").any():
        return found | pl.col(column).is_null()
    return found


def _shown_as(column: pl.Series, number: float, text: str) -> list[float]:
    """The values of a float column that a table shows as it shows ``number`` (to 15
    significant digits: 0.1 + 0.2 as 0.3): each names the state that ``number`` names, as
    a reader of the table takes it. Those near it first (cheap), then by their text; a
    ``text`` past a float's top (the largest floats, shown rounded up) by that text."""
    if math.isinf(number) and "inf" not in text.lower():
        top = column.filter(column.abs() > 1e308).unique().to_list()
        return [v for v in top if seen(v).lower() == text.strip().lower()]
    if not math.isfinite(number):
        return []
    near = column.filter((column - number).abs() <= abs(number) * 1e-13)
    return [v for v in near.unique().to_list() if seen(v) == seen(number)]


def written(columns: Mapping[str, Any]) -> str:
    """How ``columns`` name a state or a round state on a command line: ``COLUMN=VALUE`` of
    each, space apart, a column empty there (None) left out, as it is named by leaving it
    out; the one way both kinds of state are shown to be named again."""
    return " ".join(f"{c}={quoted(v)}" for c, v in columns.items() if v is not None)


PLAIN = re.compile(r"[\w@%+=:,./-]+")
"""Text a shell takes as one word as it is (shlex's own safe letters)."""


def quoted(value: Any) -> str:
    """A value as ``COLUMN=VALUE`` gives it on a command line, so that a shell passes it
    back whole: as it is where it is plain, in double quotes where that is enough (spaces,
    ``|``), else as :func:`shlex.quote` quotes it (double quotes, ``$`` or a backslash
    within); the empty text as ``""``; text with a control character in it in the quotes of
    bash and zsh that write one by its escape (``$'\\x1b'``), which an error line shows as
    it is."""
    text = str(value)
    if PLAIN.fullmatch(text):
        return text
    if not text.replace(" ", "").isprintable():
        return "$'" + "".join("\\" + c if c in "\\'" else c if c.isprintable() else
                              _escape(c) for c in text) + "'"
    return f'"{text}"' if not re.search(r'["$`\\!]', text) else shlex.quote(text)


def _escape(c: str) -> str:
    """A character as ``$'...'`` writes it by its code: ``\\x1b`` below 128, else ``\\u0080``
    or ``\\U0001f600`` (the character, not the byte)."""
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def near(table: pl.DataFrame, columns: Mapping[str, Any]) -> str:
    """Where a value given as text is in no cell of its column of ``table`` but a cell holds
    the same words in another order, or spaced otherwise (``rolled="6 5 3 3 1"`` for
    ``"1 3 3 5 6"``), how to name that cell: `` (did you mean rolled="1 3 3 5 6"?)``, else
    nothing. A state's columns are written one way only, as the game writes them."""
    meant = {}
    for column, value in columns.items():
        if column not in table.columns or table.select(same(table, column, value)).to_series().any():
            continue
        words = sorted(str(value).split())
        cells = table[column].drop_nulls().cast(pl.String).unique().to_list()
        alike = [cell for cell in cells if sorted(cell.split()) == words]
        if len(alike) == 1:
            meant[column] = alike[0]
    return f" (did you mean {written(meant)}?)" if meant else ""
