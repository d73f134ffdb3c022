"""A table too large to hold at once (the policy of a large game: millions of rows), made
and written a piece at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import polars as pl

from mdp.errors import PLUGIN_FAULTS, ModelError, TooLarge, fault, passed_on

_END = object()  # what next() gives past the last piece


class Widened(Exception):
    """A piece had a column the types guessed before did not hold: the table is made again
    from its first piece with the wider types (see :meth:`Pieces.__iter__`)."""


class Pieces:
    """A table made a piece at a time: iterating it (``for piece in pieces:``) gives its
    pieces, Polars DataFrames of the same columns, one after another; a file format writes
    each as it comes (a :class:`mdp.Format` with ``stream``, which iterates the pieces to
    their end), so that only a piece is held at a time.

    The columns' types are known before the first piece, from ``sample`` (a few rows from
    across the table): Parquet writes them first. A column of no type (empty in every row of
    the sample, its values given as ``None``) is left out: a column that never applies. A
    piece that holds what the types do not (a value in such a column, a float in a column of
    integers) widens them: the rest of the pieces are made, for their types, and the table
    is made again from its first piece (a whole number that a float would round, past
    2**53, refuses the widening to floats). :attr:`rows` counts the rows once they are all made.
    Each making gives the same pieces: a ``make``
    that gives the iterator it gave before (a generator, taken already), pieces of other
    sizes, fewer or more of them, or rows other than ``total``, is refused.

    ``name`` names the table in messages, and ``sources`` who gave some of its columns
    (``{"face": "game reroll, mdp_state_columns"}``); ``total``, if known, is how many rows it
    has, and :attr:`progress`, if set, is told how far the making has got after each piece.
    :attr:`maker`, if set (``plugin FILE's analysis NAME``), is whose code ``make`` is: what
    it raises, and a piece that is no DataFrame, are its fault, and the table is named as its.
    """

    def __init__(self, make: Callable[[], Iterator[pl.DataFrame]], sample: pl.DataFrame,
                 name: str = "the table", total: int | None = None,
                 sources: Mapping[str, str] | None = None) -> None:
        self._make, self.name, self.total = make, name, total
        self.sources: Mapping[str, str] = dict(sources or {})
        self.rows: int | None = None
        self.passes = 0
        self.begun = 0  # passes begun by a reader (a stream that takes the pieces twice)
        """How many times every piece was given, to the end (a stream that stops before is
        told apart: :meth:`mdp.Format.dump`)."""
        self.progress: Callable[[str], None] | None = None
        self.maker: str | None = None
        self._sizes: list[int] = []  # the rows of each piece, as the first making gave them
        self._sized = False  # every piece's size known: a making went to the end
        self._made: object = None  # the iterator make gave last
        self.schema: dict[str, pl.DataType] = {column: dtype for column, dtype in sample.schema.items()
                                               if dtype != pl.Null}
        """The columns and their types, as the pieces come."""
        self._order = sample.columns
        self._digits = {column for column, dtype in self.schema.items()
                        if dtype == pl.String and _exact_numbers(sample[column])}
        """Columns of exact numbers given as their text (:func:`mdp.game.cells.to_frame`):
        whole numbers too large for Polars's integers, or fractions ``p/q``, so the rows of
        other numbers are text too."""

    @property
    def columns(self) -> list[str]:
        """The names of the columns."""
        return list(self.schema)

    @property
    def height(self) -> int:
        """How many rows the table has (made, and counted, if it was not yet)."""
        while self.rows is None:
            try:
                for _ in self._pieces():  # not a pass of a reader's (begun)
                    pass
            except Widened:
                continue
        assert self.rows is not None  # counted by the loop
        return self.rows

    def __iter__(self) -> Iterator[pl.DataFrame]:
        """The pieces, each with the columns and types of :attr:`schema`; raises
        :class:`Widened`, with the schema widened, at a piece that does not fit it."""
        self.begun += 1
        return self._pieces()

    def made_by(self, maker: str) -> None:
        """Say whose code ``make`` is (:attr:`maker`); the table, if unnamed, is named as its."""
        self.maker = maker
        if self.name == "the table":
            self.name = f"the table of {maker}"

    def _pieces(self) -> Iterator[pl.DataFrame]:
        rows, count, widened = 0, 0, False
        made = self._maker_says(lambda: iter(self._make()))
        if made is self._made:
            raise ModelError(f"{self.name}: its make gave again the iterator it gave before, whose "
                             "pieces were taken; make gives every piece anew each time it is called "
                             "(the table is made again where a piece widens its types)")
        self._made = made
        while (piece := self._maker_says(lambda: next(made, _END))) is not _END:
            if not isinstance(piece, pl.DataFrame):
                raise ModelError(f"{self.maker or self.name} gave a piece of type "
                                 f"{type(piece).__name__}, not a table (a Polars DataFrame)")
            if count < len(self._sizes) and piece.height != self._sizes[count] or \
                    count >= len(self._sizes) and self._sized:
                self._differs(f"a piece {count + 1} of {piece.height:,} rows")
            if count == len(self._sizes):
                self._sizes.append(piece.height)
            count, rows = count + 1, rows + piece.height
            try:
                piece = self._fitted(piece)
            except Widened:  # the rest is made too, for the types and sizes of every piece
                widened = True
            if widened:
                continue
            if self.progress is not None:
                of = "" if self.total is None else f" of {self.total:,}"
                self.progress(f"writing {self.name}: {rows:,}{of} rows")
            yield piece.clone()  # its own: a make that changes one table in place, piece after
            # piece, gives every reader what it gave then (a reader that keeps them all too)
        if count < len(self._sizes):
            self._differs(f"{count:,} piece{'s' * (count != 1)}")
        if self.total is not None and rows != self.total:
            raise ModelError(f"{self.name}: {rows:,} rows were made, where it says it has "
                             f"{self.total:,} (total)")
        self._sized = True
        if widened:
            raise Widened
        self.rows = rows
        self.passes += 1

    def _differs(self, gave: str) -> None:
        sizes = ", ".join(f"{size:,}" for size in self._sizes[:5]) + (", ..." if self._sizes[5:] else "")
        raise ModelError(f"{self.name}: made again, it gave {gave}, where it gave "
                         f"{len(self._sizes):,} of {sizes} rows before; make gives the same "
                         "pieces each time it is called")

    def _maker_says(self, call: Callable[[], Any]) -> Any:
        """What ``call`` gives, where it runs ``make``'s code: what that raises is the
        :attr:`maker`'s fault, if known."""
        if self.maker is None:
            return call()
        try:
            return call()
        except PLUGIN_FAULTS as error:
            if passed_on(error, self.maker):
                raise
            raise ModelError(f"{self.maker} raised {fault(error)}") from error

    def frame(self, most: int | None = None, why: str = "") -> pl.DataFrame:
        """The whole table as one DataFrame; with ``most``, refused (:class:`mdp.TooLarge`)
        as soon as it has more rows than that (``why`` says what the limit is for). One pass
        of a reader's, however often a piece that widens the types starts it again."""
        self.begun += 1
        while True:
            try:
                parts, rows = [], 0
                for piece in self._pieces():
                    rows += piece.height
                    if most is not None and rows > most:
                        raise TooLarge(f"{self.name} has more than {most:,} rows, too many {why}")
                    parts.append(piece)
                return pl.concat(parts) if parts else pl.DataFrame(schema=self.schema)
            except Widened:
                continue

    def empty(self) -> pl.DataFrame:
        """No rows, the table's columns."""
        return pl.DataFrame(schema=self.schema)

    def _fitted(self, piece: pl.DataFrame) -> pl.DataFrame:
        if list(piece.schema.items()) == list(self.schema.items()):  # as a rule
            return piece
        missing = [column for column in self.schema if column not in piece.columns]
        extra = [column for column in piece.columns if column not in self._order]
        if missing or extra:
            said = f"no column {missing[0]!r}" if missing else f"a column {extra[0]!r} the first lack"
            raise ModelError(f"{self.name}: some rows have {said}; every row must have the same "
                             "columns")
        wider = dict(self.schema)
        for column in piece.columns:
            values = piece[column]
            dtype = wider.get(column)
            if dtype == values.dtype or values.null_count() == values.len():
                continue
            if dtype is not None and pl.String in (dtype, values.dtype) and \
                    (dtype.is_integer() or values.dtype.is_integer()) and \
                    (column in self._digits if dtype == pl.String else _exact_numbers(values)):
                self._digits.add(column)
                wider[column] = pl.String()
                continue
            wider[column] = values.dtype if dtype is None else _common(
                self.name, column, dtype, values.dtype, self.sources.get(column))
        if wider != self.schema:
            self.schema = {column: wider[column] for column in self._order if column in wider}
            raise Widened
        for column, dtype in self.schema.items():  # whole numbers widened to floats: kept?
            values = piece[column]
            if values.dtype.is_integer() and dtype.is_float():
                back = values.cast(dtype).cast(values.dtype, strict=False)
                lost = values.filter((back != values).fill_null(True) & values.is_not_null())
                if lost.len():
                    given = f" ({self.sources[column]})" if column in self.sources else ""
                    raise ModelError(f"{self.name}: column {column!r}{given} holds whole numbers in some "
                                     f"pieces and floats in others, and a column of floats would "
                                     f"round {lost[0]}; a column holds values that one type of "
                                     "column keeps whole")
        return piece.select(pl.col(c).cast(t) if piece[c].dtype != t else pl.col(c)
                            for c, t in self.schema.items())


def _exact_numbers(text: pl.Series) -> bool:
    """Whether every value of a column of text is an exact number's: a whole number's digits
    or a fraction's ``p/q`` (or null)."""
    return bool(text.str.contains(r"^-?[0-9]+(/[0-9]+)?$").fill_null(True).all())


def _common(name: str, column: str, one: pl.DataType, other: pl.DataType,
            source: str | None = None) -> pl.DataType:
    """The type that holds the values of both types, as Polars joins tables: numbers of
    two kinds, or text of two kinds; never numbers and text (refused, naming the table and
    the ``source`` of the column)."""
    try:  # (true and false among numbers, as 1 and 0: the docs' one kind)
        if (one.is_numeric() or one == pl.Boolean) != (other.is_numeric() or other == pl.Boolean):
            raise TypeError
        both = pl.concat([pl.DataFrame(schema={column: one}), pl.DataFrame(schema={column: other})],
                         how="vertical_relaxed")
    except (TypeError, pl.exceptions.PolarsError):
        given = "" if source is None else f" ({source})"
        raise ModelError(f"{name}: column {column!r}{given} holds {one} in some rows and {other} in "
                         "others; a column must hold one kind of value") from None
    return both.schema[column]
