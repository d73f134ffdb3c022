"""The rules of Shut the Box as data: parameters, the dice and the legal moves."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

import mdp

ONE_DIE_RULES = {
    "never": "never",
    "max6": "once every open tile is 6 or less",
    "sum6": "once the open tiles sum to 6 or less",
    "always": "always",
}
ONE_DIE_MODES = {"choice": "may roll one die", "forced": "must roll one die"}


def parse_tiles(value: Any) -> tuple[int, ...]:
    """``"1-9"``, ``"1,2,3"``, ``"1-6,8"`` or an iterable of integers, as a sorted tuple."""
    if isinstance(value, str):
        numbers: list[int] = []
        for item in value.split(","):
            low, dash, high = item.strip().partition("-")
            try:
                numbers += range(int(low), int(high) + 1) if dash else [int(low)]
            except ValueError:
                raise ValueError("expected a range like 1-9 or a list like 1,2,3") from None
    else:
        numbers = [int(n) for n in value]
    if not numbers:
        raise ValueError("no tiles; expected a range like 1-9 or a list like 1,2,3")
    if min(numbers) < 1:
        raise ValueError(f"tile {min(numbers)} is below 1; tiles are whole numbers from 1")
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise ValueError(f"tile {repeated[0]} appears twice; each tile may appear once")
    return tuple(sorted(numbers))


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


def parse_choice(allowed: Mapping[str, str]):
    def parse(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"allowed: {', '.join(allowed)}")
        return value

    return parse


PARAMS = [
    mdp.Param("tiles", tuple(range(1, 10)), parse_tiles, "the tiles, as 1-9 or 1,2,3", show_tiles),
    mdp.Param("dice", 2, parse_int(1), "dice normally rolled"),
    mdp.Param("faces", 6, parse_int(2), "faces on each die, numbered from 1"),
    mdp.Param("one_die", "max6", parse_choice(ONE_DIE_RULES), "when one die may be rolled: "
              + ", ".join(ONE_DIE_RULES)),
    mdp.Param("one_die_mode", "choice", parse_choice(ONE_DIE_MODES),
              "choice: the player may roll one die; forced: the player must"),
]


@attrs.frozen
class Box:
    """One rule set, with the tables its hooks look things up in.

    A set of open tiles is a bit mask: bit ``i`` stands for ``tiles[i]``.
    """

    tiles: tuple[int, ...]
    dice: int
    faces: int
    one_die: str
    one_die_mode: str

    @property
    def full(self) -> int:
        return (1 << len(self.tiles)) - 1

    def open_tiles(self, mask: int) -> list[int]:
        return [tile for i, tile in enumerate(self.tiles) if mask >> i & 1]

    def total(self, mask: int) -> int:
        return sum(self.open_tiles(mask))

    def dice_options(self, mask: int) -> tuple[int, ...]:
        """How many dice the player may roll with ``mask`` open, the usual number first."""
        if self.dice == 1 or not self._one_die_allowed(mask):
            return (self.dice,)
        return (self.dice, 1) if self.one_die_mode == "choice" else (1,)

    def _one_die_allowed(self, mask: int) -> bool:
        open_tiles = self.open_tiles(mask)
        return {
            "never": False,
            "max6": max(open_tiles) <= 6,
            "sum6": sum(open_tiles) <= 6,
            "always": True,
        }[self.one_die]

    def roll(self, dice: int) -> list[tuple[Fraction, int]]:
        """The distribution of the total of ``dice`` dice: ``(probability, total)`` pairs."""
        return _roll(self.faces, dice)

    def moves(self, mask: int, total: int) -> list[int]:
        """Every set of open tiles (a mask) whose values add up to ``total``."""
        return [shut for shut in self._subsets_by_sum().get(total, ()) if shut & ~mask == 0]

    def _subsets_by_sum(self) -> dict[int, list[int]]:
        return _subsets_by_sum(self.tiles, self.dice * self.faces)

    def describe(self) -> str:
        dice = f"{self.dice} {'die' if self.dice == 1 else 'dice'} of {self.faces} faces"
        rule = ""
        if self.dice > 1 and self.one_die != "never":
            rule = f"; {ONE_DIE_MODES[self.one_die_mode]} {ONE_DIE_RULES[self.one_die]}"
        return f"tiles {show_tiles(self.tiles)}, {dice}{rule}"


@functools.lru_cache(maxsize=64)
def _roll(faces: int, dice: int) -> list[tuple[Fraction, int]]:
    distribution = {0: Fraction(1)}
    for _ in range(dice):
        step: dict[int, Fraction] = {}
        for total, p in distribution.items():
            for face in range(1, faces + 1):
                step[total + face] = step.get(total + face, 0) + p / faces
        distribution = step
    return [(p, total) for total, p in sorted(distribution.items())]


@functools.lru_cache(maxsize=64)
def _subsets_by_sum(tiles: tuple[int, ...], largest: int) -> dict[int, list[int]]:
    """Masks of the tile sets whose sum is at most ``largest``, grouped by that sum."""
    found: dict[int, list[int]] = {}

    def extend(start: int, mask: int, total: int) -> None:
        for i in range(start, len(tiles)):
            if total + tiles[i] <= largest:
                found.setdefault(total + tiles[i], []).append(mask | 1 << i)
                extend(i + 1, mask | 1 << i, total + tiles[i])

    extend(0, 0, 0)
    return found


@functools.lru_cache(maxsize=64)
def _box(items: tuple) -> Box:
    fields = {f.name for f in attrs.fields(Box)}
    return Box(**{key: value for key, value in items if key in fields})


def box(params: Mapping[str, Any]) -> Box:
    """The :class:`Box` for a game's parameters (one per rule set, cached)."""
    return _box(tuple(params.items()))
