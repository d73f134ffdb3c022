"""The rules of Shut the Box as data: parameters, the dice and the legal moves.

A set of tiles is a bit mask (bit ``i`` for the ``i``-th smallest tile). A state is an
integer *key*: the mask of open tiles shifted left by ``roll_bits``, plus the total just
rolled, or 0 before rolling.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
import os
from typing import Any

import attrs
import numpy as np

import mdp

ONE_DIE_RULES = {
    "never": "never",
    "max6": "once every open tile is 6 or less",
    "sum6": "once the open tiles sum to 6 or less",
    "always": "always",
}
ONE_DIE_MODES = {"choice": "may roll one die", "forced": "must roll one die"}
RANGES = "a range like 1-9 or a list like 1,2,3"


def parse_tiles(value: Any) -> tuple[int, ...]:
    """``"1-9"``, ``"1,2,3"``, ``"1-6,8"`` or an iterable of integers, as a sorted tuple."""
    numbers = _parse_numbers(value) if isinstance(value, str) else [int(n) for n in value]
    if not numbers:
        raise ValueError(f"no tiles; expected {RANGES}")
    if min(numbers) < 1:
        raise ValueError(f"tile {min(numbers)} is below 1; tiles are whole numbers from 1")
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise ValueError(f"tile {repeated[0]} appears twice; each tile may appear once")
    return tuple(sorted(numbers))


def _parse_numbers(text: str) -> list[int]:
    numbers: list[int] = []
    for item in text.split(","):
        low, dash, high = item.strip().partition("-")
        try:
            numbers += range(int(low), int(high) + 1) if dash else [int(low)]
        except ValueError:
            raise ValueError(f"expected {RANGES}") from None
    return numbers


def show_tiles(tiles: tuple[int, ...]) -> str:
    """The shortest text that :func:`parse_tiles` reads back: ``"1-9"``, ``"1-6,8"``."""
    runs = []
    for _, group in itertools.groupby(enumerate(tiles), lambda pair: pair[1] - pair[0]):
        run = [tile for _, tile in group]
        runs.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ",".join(map(str, run)))
    return ",".join(runs)


def parse_int(minimum: int):
    def parse(value: Any) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a whole number of {minimum} or more") from None
        if number < minimum or (isinstance(value, float) and value != number):
            raise ValueError(f"expected a whole number of {minimum} or more")
        return number

    return parse


def parse_choice(allowed):
    def parse(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"allowed: {', '.join(allowed)}")
        return value

    return parse


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
        if count is None or count < 1:
            raise ValueError(f"range {_span(low, high)} needs a number of dice of 1 or more, "
                             "like 0-49:3")
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


def parse_weights(value: Any) -> tuple[Fraction, ...] | None:
    """Face probabilities, ``"1/6,1/6,..."`` or ``"0.2,0.16,..."``, kept as exact fractions."""
    if value is None or value == "":
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    try:
        weights = tuple(Fraction(item.strip() if isinstance(item, str) else item) for item in items)
    except (ValueError, ZeroDivisionError):
        raise ValueError("expected one probability per face, like 1/6,1/6,1/6,1/6,1/6,1/6 "
                         "or 0.2,0.16,0.16,0.16,0.16,0.16") from None
    if any(w < 0 for w in weights):
        raise ValueError(f"weight {min(weights)} is negative; weights are probabilities")
    if sum(weights) != 1:
        raise ValueError(f"the weights sum to {sum(weights)}, not 1")
    return weights


def show_weights(weights) -> str | None:
    return None if weights is None else ",".join(map(str, weights))


def parse_payout(value: Any):
    """A payout table, ``"0:100,1-3:5"`` (final score: amount; others pay 0), or a file of it.

    A file holds the same items, separated by commas or new lines; ``#`` starts a comment.
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        return tuple(value)
    text = value
    if ":" not in value:
        if not os.path.isfile(value):
            raise ValueError(f"no file {value!r}, and not a table like 0:100,1-3:5")
        with open(value, encoding="utf-8") as file:
            text = ",".join(line.partition("#")[0] for line in file.read().splitlines())
    table = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        scores, colon, amount = item.partition(":")
        low, dash, high = scores.partition("-")
        try:
            entry = (int(low), int(high) if dash else int(low), Fraction(amount.strip()))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"item {item!r}: expected SCORE:AMOUNT or LOW-HIGH:AMOUNT, "
                             "like 0:100,1-3:5") from None
        if not colon or entry[0] < 0 or entry[1] < entry[0]:
            raise ValueError(f"item {item!r}: expected SCORE:AMOUNT or LOW-HIGH:AMOUNT with "
                             "scores of 0 or more, like 0:100,1-3:5")
        table.append(entry)
    if not table:
        raise ValueError("the payout table is empty; expected something like 0:100,1-3:5")
    scores = sorted(s for low, high, _ in table for s in range(low, high + 1))
    repeated = [a for a, b in zip(scores, scores[1:]) if a == b]
    if repeated:
        raise ValueError(f"score {repeated[0]} is paid twice")
    return tuple(table)


def show_payout(table) -> str | None:
    if table is None:
        return None
    return ",".join(f"{_span(low, high)}:{amount}" for low, high, amount in table)


PARAMS = [
    mdp.Param("tiles", tuple(range(1, 10)), parse_tiles, f"the tiles, as {RANGES}", show_tiles),
    mdp.Param("dice", 2, parse_int(1), "dice normally rolled"),
    mdp.Param("faces", 6, parse_int(2), "faces on each die, numbered from 1"),
    mdp.Param("one_die", "max6", parse_choice(ONE_DIE_RULES),
              "when one die may be rolled: " + ", ".join(ONE_DIE_RULES)),
    mdp.Param("one_die_mode", "choice", parse_choice(ONE_DIE_MODES),
              "choice: the player may roll one die; forced: the player must"),
    mdp.Param("dice_schedule", None, parse_schedule,
              "dice by total of shut tiles, replacing dice, e.g. 0-49:3,50-71:2,72-:1",
              show_schedule),
    mdp.Param("weights", None, parse_weights,
              "loaded dice: each face's probability, e.g. 1/4,1/4,1/8,1/8,1/8,1/8", show_weights),
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

    def roll(self, dice: int) -> list[tuple[Fraction, int]]:
        """The distribution of the total of ``dice`` dice: ``(probability, total)`` pairs."""
        weights = self.weights or (Fraction(1, self.faces),) * self.faces
        return _roll(weights, dice)

    def moves(self, total: int) -> np.ndarray:
        return self.moves_of(total)

    def values(self, masks: np.ndarray):
        return self.scoring.values(self, masks)

    def describe(self) -> str:
        text = f"tiles {show_tiles(self.tiles)}, "
        if self.dice_schedule is None:
            text += f"{self.dice} {'die' if self.dice == 1 else 'dice'} of {self.faces} faces"
        else:
            text += f"dice of {self.faces} faces by total shut: " + ", ".join(
                f"{count} for {low}+" if high is None else f"{count} for {_span(low, high)}"
                for low, high, count in self.dice_schedule)
        if self.weights is not None:
            text += f", weighted {show_weights(self.weights)}"
        if self.most_dice > 1 and self.one_die != "never":
            text += f"; {ONE_DIE_MODES[self.one_die_mode]} {ONE_DIE_RULES[self.one_die]}"
        if self.scoring.name != "win":
            text += f"; scoring: {self.scoring.name}"
        if self.scoring.name == "payout":
            text += f" {show_payout(self.params['payout'])}"
        return text


@functools.lru_cache(maxsize=64)
def _roll(weights: tuple[Fraction, ...], dice: int) -> list[tuple[Fraction, int]]:
    distribution = {0: Fraction(1)}
    for _ in range(dice):
        step: dict[int, Fraction] = {}
        for total, p in distribution.items():
            for face, weight in enumerate(weights, start=1):
                if weight:
                    step[total + face] = step.get(total + face, 0) + p * weight
        distribution = step
    return [(p, total) for total, p in sorted(distribution.items())]


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
