"""Naming a state by its columns (``COLUMN=VALUE``): how a value given as text matches a
column of a table, and how a value is written to be given back. One rule for the states of
a model and the round states of a game of rounds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl


def same(table: pl.DataFrame, column: str, value: Any) -> pl.Expr:
    """Whether a column of ``table`` has a value given as text: as the column's text (a
    true-or-false column in any case); a float column also by the number the text is, as
    that column writes it, so that ``nan`` names NaN (NaN the same as NaN) and ``1e-05``
    what the column writes ``0.00001``; and the empty text an empty cell (None) too, as a
    table writes it, in a state's column and a round state's alike, where no cell of the
    column is the empty text itself (which it names then, as before)."""
    text, kind = str(value), table.schema[column]
    wanted = [text.lower() if kind == pl.Boolean else text]
    if kind.is_float():
        try:
            wanted.append(pl.Series([float(text)], dtype=kind).cast(pl.String)[0])
        except ValueError:
            pass
    found = pl.col(column).cast(pl.String).is_in(wanted)
    if text == "" and not (table[column].cast(pl.String) == "").any():
        return found | pl.col(column).is_null()
    return found


def written(columns: Mapping[str, Any]) -> str:
    """How ``columns`` name a state or a round state on a command line: ``COLUMN=VALUE`` of
    each, space apart, a column empty there (None) left out, as it is named by leaving it
    out; the one way both kinds of state are shown to be named again."""
    return " ".join(f"{c}={quoted(v)}" for c, v in columns.items() if v is not None)


def quoted(value: Any) -> str:
    """A value as ``COLUMN=VALUE`` gives it on a command line: quoted where it is empty or
    holds a space."""
    text = str(value)
    return f'"{text}"' if " " in text or not text else text
