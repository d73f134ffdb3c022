"""The rules of Shut the Box as data: parameters, the dice and the legal moves.

A set of tiles is a bit mask (bit ``i`` for the ``i``-th smallest tile). A state is an
integer *key*: the mask of open tiles shifted left by ``roll_bits``, plus the total just
rolled, or 0 before rolling.
"""

from __future__ import annotations

import functools
import os
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

import mdp

from .. import dice

ONE_DIE_RULES = {
    "never": "never",
    "max6": "once every open tile is 6 or less",
    "sum6": "once the open tiles sum to 6 or less",
    "always": "always",
}
ONE_DIE_MODES = {"choice": "may roll one die", "forced": "must roll one die"}
MAX_TILES = 40
MAX_TILE = 1000
TILES = (f"the tiles, as {mdp.INT_LIST}: at most {MAX_TILES} (each tile doubles the states), "
         f"from 1 to {MAX_TILE}")


def parse_tiles(value: Any) -> tuple[int, ...]:
    """``"1-9"``, ``"1,2,3"``, ``"1-6,8"`` or an iterable of integers, as a sorted tuple."""
    tiles = mdp.parse_int_list(value, minimum=1, maximum=MAX_TILE, what="tile")
    if len(tiles) > MAX_TILES:
        raise ValueError(f"{len(tiles)} tiles; at most {MAX_TILES}, since each tile doubles "
                         "the states")
    return tiles


def parse_schedule(value: Any) -> tuple[tuple[int, int | None, int], ...] | None:
    """``"0-49:3,50-71:2,72-:1"``: the number of dice for each range of shut-tile totals.

    The ranges must start at 0 and follow one another without gaps; the last may be open.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        items = []
        for item in value.split(","):
            span, colon, count = item.strip().partition(":")
            low, dash, high = span.partition("-")
            try:
                items.append((int(low), (int(high) if high else None) if dash else int(low),
                              int(count) if colon else None))
            except ValueError:
                raise ValueError("expected ranges of shut totals with a number of dice, "
                                 "like 0-49:3,50-71:2,72-:1") from None
    else:
        items = [tuple(item) for item in value]
    expected = 0
    for i, (low, high, count) in enumerate(items):
        if count is None or not 1 <= count <= dice.MAX_DICE:
            raise ValueError(f"range {_span(low, high)} needs a number of dice from 1 to "
                             f"{dice.MAX_DICE}, like 0-49:3")
        if low != expected:
            gap = "overlaps" if low < expected else f"leaves shut totals {_span(expected, low - 1)} out"
            raise ValueError(f"range {_span(low, high)} {gap}; ranges must start at 0 and follow "
                             "one another without gaps")
        if high is None and i < len(items) - 1:
            raise ValueError(f"only the last range may be open-ended, not {_span(low, high)}")
        if high is not None and high < low:
            raise ValueError(f"range {_span(low, high)} is empty")
        expected = None if high is None else high + 1
    return tuple(items)


def _span(low: int, high: int | None) -> str:
    return f"{low}-" if high is None else f"{low}-{high}" if high != low else f"{low}"


def show_schedule(schedule) -> str | None:
    if schedule is None:
        return None
    return ",".join(f"{_span(low, high)}:{count}" for low, high, count in schedule)


def parse_payout(value: Any) -> tuple[tuple[int, int, Fraction], ...] | None:
    """A payout table, ``"0:100,1-3:5"`` (final score: amount; others pay 0), or a file of it.

    A file holds the same items, separated by commas or new lines; ``#`` starts a comment.
    Ranges are kept as ranges, never expanded: :func:`check_payout` bounds them once the
    tiles are known.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        table = [_payout_item(item) for item in filter(None, map(str.strip, _payout_text(value).split(",")))]
    else:
        table = [tuple(item) for item in value]
    if not table:
        raise ValueError("the payout table is empty; expected something like 0:100,1-3:5")
    for low, high, _ in table:
        if not 0 <= low <= high:
            raise ValueError(f"scores {_span(low, high)}: expected scores of 0 or more, low to "
                             "high, like 0:100,1-3:5")
    covered = -1
    for low, high, _ in sorted(table):
        if low <= covered:
            raise ValueError(f"score {low} is paid twice")
        covered = max(covered, high)
    return tuple(table)


def _payout_text(value: str) -> str:
    """The table itself, or the items of the file it names, one line each."""
    if ":" in value:
        return value
    if not os.path.isfile(value):
        raise ValueError(f"no file {value!r}, and not a table like 0:100,1-3:5")
    with open(value, encoding="utf-8") as file:
        return ",".join(line.partition("#")[0] for line in file.read().splitlines())


def _payout_item(item: str) -> tuple[int, int, Fraction]:
    scores, colon, amount = item.partition(":")
    low, dash, high = scores.partition("-")
    try:
        entry = (int(low), int(high) if dash else int(low), dice.parse_fraction(amount))
    except (ValueError, ZeroDivisionError):
        entry = None
    if not colon or entry is None or entry[0] < 0 or entry[1] < entry[0]:
        raise ValueError(f"item {item!r}: expected SCORE:AMOUNT or LOW-HIGH:AMOUNT with "
                         "scores of 0 or more, like 0:100,1-3:5")
    return entry


def check_payout(table: tuple[tuple[int, int, Fraction], ...] | None, tiles: tuple[int, ...]) -> None:
    """Raise :class:`mdp.ParamError` if a range of ``table`` passes the highest final score."""
    for low, high, _ in table or ():
        if high > sum(tiles):
            raise mdp.ParamError(f"parameter payout: scores {_span(low, high)} pass "
                                 f"{sum(tiles)}, the highest final score (every tile open); "
                                 f"pay scores from 0 to {sum(tiles)}")


def show_payout(table) -> str | None:
    if table is None:
        return None
    return ",".join(f"{_span(low, high)}:{amount}" for low, high, amount in table)


PARAMS = [
    mdp.Param("tiles", tuple(range(1, 10)), parse_tiles, TILES, mdp.show_int_list),
    mdp.Param("dice", 2, dice.parse_dice, "dice normally rolled"),
    mdp.Param("faces", 6, dice.parse_faces, "faces on each die, numbered from 1"),
    mdp.Param("one_die", "max6", mdp.parse_choice(ONE_DIE_RULES),
              "when one die may be rolled: " + ", ".join(ONE_DIE_RULES)),
    mdp.Param("one_die_mode", "choice", mdp.parse_choice(ONE_DIE_MODES),
              "choice: the player may roll one die; forced: the player must"),
    mdp.Param("dice_schedule", None, parse_schedule,
              "dice by total of shut tiles, replacing dice, e.g. 0-49:3,50-71:2,72-:1",
              show_schedule),
    mdp.Param("weights", None, dice.parse_weights,
              "loaded dice: each face's probability, e.g. 1/4,1/4,1/8,1/8,1/8,1/8", dice.show_weights),
    mdp.Param("scoring", "win", str, "the value of the end: win, score, payout, ..."),
    mdp.Param("payout", None, parse_payout,
              "with scoring=payout: final score to amount, e.g. 0:100,1-3:5, or a file",
              show_payout),
]


@attrs.frozen(eq=False)
class Box:
    """One rule set, with the tables the game's hooks look things up in.

    Methods taking ``masks`` work on integer arrays of masks, one answer per mask.
    """

    tiles: tuple[int, ...]
    dice: int
    faces: int
    one_die: str
    one_die_mode: str
    dice_schedule: tuple | None
    weights: tuple[Fraction, ...] | None
    scoring: Any
    params: Any = attrs.field(repr=False)
    moves_of: Any = attrs.field(repr=False)
    """``total -> list of masks``: the moves allowed on that roll (the shutbox_moves hook)."""

    @property
    def full(self) -> int:
        return (1 << len(self.tiles)) - 1

    @functools.cached_property
    def most_dice(self) -> int:
        if self.dice_schedule is None:
            return self.dice
        return max(count for _, _, count in self.dice_schedule)

    @functools.cached_property
    def roll_bits(self) -> int:
        return (self.most_dice * self.faces).bit_length()

    def key(self, mask: int, roll: int = 0) -> int:
        return mask << self.roll_bits | roll

    def split(self, keys):
        """Masks and rolls of state keys (ints or arrays)."""
        return keys >> self.roll_bits, keys & ((1 << self.roll_bits) - 1)

    def open_tiles(self, mask: int) -> list[int]:
        return [tile for i, tile in enumerate(self.tiles) if mask >> i & 1]

    def open_sum(self, masks: np.ndarray) -> np.ndarray:
        total = np.zeros(np.shape(masks), dtype=np.int64)
        for i, tile in enumerate(self.tiles):
            total += tile * ((masks >> i) & 1)
        return total

    def dice_options(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each mask, how many choices of dice it has, and the choices one after another
        (the usual number of dice first)."""
        open_sum = self.open_sum(masks)
        if self.dice_schedule is None:
            usual = np.full(len(masks), self.dice, dtype=np.int64)
        else:
            starts = np.array([low for low, _, _ in self.dice_schedule])
            counts = np.array([count for _, _, count in self.dice_schedule])
            usual = counts[np.searchsorted(starts, sum(self.tiles) - open_sum, side="right") - 1]
        if self.one_die == "max6":
            allowed = (masks & sum(1 << i for i, tile in enumerate(self.tiles) if tile > 6)) == 0
        elif self.one_die == "sum6":
            allowed = open_sum <= 6
        else:
            allowed = np.full(len(masks), self.one_die == "always")
        allowed &= usual != 1
        if self.one_die_mode == "forced":
            return np.ones(len(masks), dtype=np.int64), np.where(allowed, 1, usual)
        pairs = np.stack([usual, np.ones_like(usual)], axis=1)
        chosen = np.stack([np.ones_like(allowed), allowed], axis=1)
        return chosen.sum(axis=1), pairs[chosen]

    def roll(self, n: int) -> tuple[tuple[Fraction, int], ...]:
        """The distribution of the total of ``n`` dice: ``(probability, total)`` pairs."""
        return dice.sum_distribution(n, self.faces, self.weights)

    def moves(self, total: int) -> np.ndarray:
        return self.moves_of(total)

    def values(self, masks: np.ndarray):
        return self.scoring.values(self, masks)

    def describe(self) -> str:
        text = f"tiles {mdp.show_int_list(self.tiles)}, "
        if self.dice_schedule is None:
            text += dice.show_dice(self.dice, self.faces)
        else:
            text += f"dice of {self.faces} faces by total shut: " + ", ".join(
                f"{count} for {low}+" if high is None else f"{count} for {_span(low, high)}"
                for low, high, count in self.dice_schedule)
        if self.weights is not None:
            text += f", weighted {dice.show_weights(self.weights)}"
        if self.most_dice > 1 and self.one_die != "never":
            text += f"; {ONE_DIE_MODES[self.one_die_mode]} {ONE_DIE_RULES[self.one_die]}"
        if self.scoring.name != "win":
            text += f"; scoring: {self.scoring.name}"
        if self.scoring.name == "payout":
            text += f" {show_payout(self.params['payout'])}"
        return text


def subsets_adding_to(tiles: tuple[int, ...], total: int) -> list[int]:
    """Masks of every set of tiles whose values add up to ``total``."""
    found = []

    def extend(start: int, mask: int, left: int) -> None:
        for i in range(start, len(tiles)):
            if tiles[i] <= left:
                if tiles[i] == left:
                    found.append(mask | 1 << i)
                else:
                    extend(i + 1, mask | 1 << i, left - tiles[i])

    extend(0, 0, total)
    return found
