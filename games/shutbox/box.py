"""One rule set of Shut the Box, with the tables the game's hooks look things up in.

A set of tiles is a bit mask (bit ``i`` for the ``i``-th smallest tile). A state is an
integer *key*: the total just rolled (0 before rolling) shifted left by ``mask_bits``, plus
the mask of open tiles. The states before a roll are then the masks themselves, dense from
0: the engine's tables of them stay small, and the states after one roll lie side by side.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

import mdp

from ..dice import show_dice, show_weights, sum_distribution
from .params import ONE_DIE_MODES, ONE_DIE_RULES, show_payout, span


@attrs.frozen(eq=False, kw_only=True)
class Box:
    """One rule set of Shut the Box: the game's parameters that shape play, the scoring rule
    and the legal moves. Make it with :meth:`of`.

    Methods taking ``masks`` work on integer arrays of masks, one answer per mask.
    """

    tiles: tuple[int, ...]
    dice: int
    faces: int
    one_die: str
    one_die_mode: str
    dice_schedule: tuple[tuple[int, int | None, int], ...] | None
    weights: tuple[Fraction, ...] | None
    payout: tuple[tuple[int, int, Fraction], ...] | None
    """The payout table, read by the ``payout`` scoring rule."""
    scoring: Any
    """The :class:`~mdp_games.shutbox.scoring.ScoringRule` in force."""
    moves: Callable[[int], np.ndarray] = attrs.field(repr=False)
    """``total -> masks``: the sets of tiles that may be shut on that roll, open or not."""
    memo: dict = attrs.field(factory=dict, init=False, repr=False)
    """Tables made from the rules, kept for the next frontier (the trie of moves)."""

    @classmethod
    def of(cls, params: Mapping[str, Any], *, scoring: Any,
           moves: Callable[[int], np.ndarray]) -> Box:
        """The rule set of a game's resolved ``params`` (a plugin's own are not read)."""
        return cls(tiles=params["tiles"], dice=params["dice"], faces=params["faces"],
                   one_die=params["one_die"], one_die_mode=params["one_die_mode"],
                   dice_schedule=params["dice_schedule"], weights=params["weights"],
                   payout=params["payout"], scoring=scoring, moves=moves)

    @property
    def full(self) -> int:
        return (1 << len(self.tiles)) - 1

    @functools.cached_property
    def most_dice(self) -> int:
        if self.dice_schedule is None:
            return self.dice
        return max(count for _, _, count in self.dice_schedule)

    @property
    def mask_bits(self) -> int:
        """The bits of a key below the total rolled: one per tile."""
        return len(self.tiles)

    @functools.cached_property
    def most_rolled(self) -> int:
        """The highest total the dice can show."""
        return self.most_dice * self.faces

    @functools.cached_property
    def key_type(self) -> type:
        """The integer type of keys and masks: 32 bits where every key fits them (half the
        memory of the largest stages)."""
        return np.uint32 if self.key(self.full, self.most_rolled) < 2**32 else np.int64

    def key(self, mask: int, roll: int = 0) -> int:
        return roll << self.mask_bits | mask

    def split(self, keys):
        """Masks and rolls of state keys (ints or arrays)."""
        if isinstance(keys, np.ndarray) and np.iinfo(keys.dtype).max < self.full:
            keys = keys.astype(self.key_type)  # narrower than a mask (the engine narrows keys)
        return keys & self.full, keys >> self.mask_bits

    def open_tiles(self, mask: int) -> list[int]:
        return [tile for i, tile in enumerate(self.tiles) if mask >> i & 1]

    def open_sum(self, masks: np.ndarray) -> np.ndarray:
        """The sum of each mask's tiles, looked up eight tiles at a time."""
        total = np.zeros(np.shape(masks), dtype=np.int64)
        for start, sums in enumerate(self._sums):
            total += sums[(masks >> 8 * start) & 255]
        return total

    @functools.cached_property
    def _sums(self) -> list[np.ndarray]:
        """For each eight tiles, the sum of each set of them, indexed by its mask."""
        bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
        return [bits[:, :len(group)] @ np.array(group, dtype=np.int64)
                for group in (self.tiles[at:at + 8] for at in range(0, len(self.tiles), 8))]

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
        return sum_distribution(n, self.faces, self.weights)

    def values(self, masks: np.ndarray):
        return self.scoring.values(self, masks)

    def describe(self) -> str:
        text = f"tiles {mdp.show_int_list(self.tiles)}, "
        if self.dice_schedule is None:
            text += show_dice(self.dice, self.faces)
        else:
            text += f"dice of {self.faces} faces by total shut: " + ", ".join(
                f"{count} for {low}+" if high is None else f"{count} for {span(low, high)}"
                for low, high, count in self.dice_schedule)
        if self.weights is not None:
            text += f", weighted {show_weights(self.weights)}"
        if self.most_dice > 1 and self.one_die != "never":
            text += f"; {ONE_DIE_MODES[self.one_die_mode]} {ONE_DIE_RULES[self.one_die]}"
        if self.scoring.name != "win":
            text += f"; scoring: {self.scoring.name}"
        if self.scoring.name == "payout":
            text += f" {show_payout(self.payout)}"
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
