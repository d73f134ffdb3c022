"""Shut the Box's readable columns (:func:`~mdp.hookspecs.game.mdp_columns`): the open tiles,
the roll, the dice and the tiles shut, for millions of rows without a Python string per row."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

import mdp

from .box import Box


def columns(b: Box, states, actions) -> dict:
    """``open`` and ``roll`` (its total) of each state, and ``kind`` (a roll's kind, such as
    ``double``) where the rules tell kinds of rolls apart; with actions, ``dice`` and ``shut``
    too. States alone (the terminal states of a model) also get their scores as numbers:
    ``open_sum`` (the pub score) and ``shut_sum`` (Durango Bill's).

    ``None`` where a column does not apply: ``roll``, ``kind`` and ``shut`` before a roll
    (and ``kind`` for a plain roll), ``dice`` after one.
    """
    states = np.asarray(states)
    masks, rolls = b.split(states if states.dtype.kind in "iu" else states.astype(np.int64))
    before = rolls == 0
    kinds = _kinds(b)
    if actions is None:  # a model's terminal states, maybe millions, on the solve path:
        # the text is made when a table of them is (plain data here, not the game)
        open_sum = b.open_sum(masks)
        return {"open": mdp.LazyColumn(len(masks), _tile_lists, (b.tiles, masks)),
                "roll": mdp.LazyColumn(len(masks), _unless, (before, b.roll_totals[rolls])),
                **({"kind": mdp.LazyColumn(len(masks), kinds.__getitem__, (rolls,))}
                   if kinds is not None else {}),
                "open_sum": open_sum, "shut_sum": sum(b.tiles) - open_sum}
    # Millions of rows (a policy): every column is a small table of values gathered by
    # Polars, the table's first entry None (a roll of 0 is no roll yet; no move shuts no
    # tile; no choice of dice is 0 dice).
    if isinstance(actions, np.ndarray):
        codes = actions
    else:  # a few rows, some without an action (the engine describing a state)
        codes = np.array([a or 0 for a in actions], dtype=np.int64)
    moves = np.where(before, 0, codes)
    return {
        "open": tile_series(b, masks),
        "roll": _gathered(b.roll_totals[1:].tolist(), rolls),
        **({"kind": _gathered(kinds[1:].tolist(), rolls, text=True)} if kinds is not None else {}),
        "dice": _gathered(range(1, b.most_dice + 1), np.where(before, codes, 0)),
        "shut": tile_series(b, moves, empty=None),
    }


def _unless(missing: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` as Python objects, ``None`` where ``missing``."""
    result = values.astype(object)
    result[missing] = None
    return result


def tile_series(b: Box, masks: np.ndarray, empty: str | None = ""):
    """Each mask's tiles as text, as a Polars column, ``empty`` for no tiles: the text of
    each distinct mask is written once, then gathered by Polars (no Python string per row:
    a policy has millions)."""
    import polars as pl

    masks = np.asarray(masks)
    if not len(masks):
        return pl.Series([], dtype=pl.Categorical)
    if len(b.tiles) <= EVERY_SET_UP_TO:  # the text of every set, made once
        return _every_set(b.tiles, empty)[masks]
    high = int(masks.max())
    if high < 4 * len(masks) + 4096:  # dense: distinct masks through a bitmap
        present = np.zeros(high + 1, dtype=bool)
        present[masks] = True
        distinct = np.flatnonzero(present)
        where = np.cumsum(present, dtype=np.uint32)
        where -= 1
        index = where[masks]
    else:
        distinct, index = np.unique(masks, return_inverse=True)
    text = _joined(b.tiles, distinct).tolist()
    if distinct[0] == 0:
        text[0] = empty
    return _categories(text)[index]


EVERY_SET_UP_TO = 18
"""Tiles up to which :func:`tile_series` keeps the text of every set of them (2**18 sets, 8
MB), made once per process; the policy of a larger box is written in pieces, the text of a
piece's sets made for each."""


def _categories(text: list):
    """Text as a Polars column of categories (made as text first: three times quicker)."""
    import polars as pl

    return pl.Series(text, dtype=pl.String).cast(pl.Categorical)


@functools.lru_cache(maxsize=4)
def _every_set(tiles: tuple[int, ...], empty: str | None):
    text = _joined(tiles, np.arange(1 << len(tiles))).tolist()
    text[0] = empty
    return _categories(text)


def _kinds(b: Box) -> np.ndarray | None:
    """The kind of each roll as text, by roll (``None`` for a plain one), or ``None`` where
    every roll is plain."""
    if all(kind is None for kind in b.roll_kinds):
        return None
    kinds = np.empty(len(b.roll_kinds), dtype=object)
    kinds[:] = [None if kind is None else str(kind) for kind in b.roll_kinds]
    return kinds


def _gathered(values: Sequence, index: np.ndarray, text: bool = False):
    """``values[index - 1]`` as a Polars column of integers (of ``text``), ``None`` where
    ``index`` is 0."""
    import polars as pl

    table = pl.Series([None, *values], dtype=pl.String if text else pl.Int64)
    return table[index.astype(np.min_scalar_type(len(values)), copy=False)]


def _tile_lists(tiles: tuple[int, ...], masks: np.ndarray) -> np.ndarray:
    """Each mask's tiles as text ("1 2 9"), written once per distinct mask when they repeat."""
    masks = np.asarray(masks, dtype=np.int64)
    if len(masks) and masks.max() < len(masks):  # a dense table of masks: write each once
        present = np.bincount(masks) > 0
        text = np.empty(len(present), dtype=object)
        text[present] = _joined(tiles, np.flatnonzero(present))
        return text[masks]
    return _joined(tiles, masks)


def _joined(tiles: tuple[int, ...], masks: np.ndarray) -> np.ndarray:
    """Tiles as text joined from tables of ten tiles at a time: no Python call per mask, for
    the millions of states of a large box. The masks tell which texts are empty: a string is
    added to only where both parts have tiles."""
    text = None
    for start in range(0, len(tiles), _TILES_PER_TABLE):
        some = tiles[start:start + _TILES_PER_TABLE]
        part = (masks >> start) & ((1 << len(some)) - 1)
        if text is None:
            text = _text_table(some)[part]
            continue
        before = (masks & ((1 << start) - 1)) != 0
        alone = ~before
        text[alone] = _text_table(some)[part[alone]]
        both = before & (part != 0)
        text[both] += _text_table(some, " ")[part[both]]
    return text


@functools.lru_cache(maxsize=16)
def _text_table(tiles: tuple[int, ...], lead: str = "") -> np.ndarray:
    """The text of every set of these tiles, indexed by its mask, each after ``lead`` but the
    empty set's (made once per process)."""
    table = np.empty(1 << len(tiles), dtype=object)
    table[:] = [lead * (m > 0) + " ".join(str(t) for i, t in enumerate(tiles) if m >> i & 1)
                for m in range(len(table))]
    return table


_TILES_PER_TABLE = 10
