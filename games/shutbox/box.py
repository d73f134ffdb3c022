"""One rule set of Shut the Box, with the tables the game's hooks look things up in.

A set of tiles is a bit mask (bit ``i`` for the ``i``-th smallest tile). A state is an
integer *key*: the roll just made (0 before rolling) shifted left by ``mask_bits``, plus the
mask of open tiles. The states before a roll are then the masks themselves, dense from 0:
the engine's tables of them stay small, and the states after one roll lie side by side. A
roll is its total, or, for a roll of a kind the rules tell apart (a double, say), a number
past the highest total (see :attr:`Box.roll_totals`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

import mdp
from mdp.shown import seen

from ..dice import show_dice, show_weights
from .acting import one_die_idle, unplayed_ranges
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
    moves: Callable[[int, Any], np.ndarray] = attrs.field(repr=False)
    """``(total, kind) -> masks``: the sets of tiles that may be shut on that roll, open or
    not (the ``shutbox_moves`` hook)."""
    rolls_of: Callable[[int], list] = attrs.field(repr=False)
    """``dice -> [(probability, total, kind)]``: what a throw shows (the ``shutbox_rolls``
    hook)."""
    options: Callable[[Box, np.ndarray], np.ndarray] = attrs.field(repr=False)
    """``(box, masks) -> numbers of dice``, a row per mask (the ``shutbox_dice_options``
    hook)."""
    memo: dict = attrs.field(factory=dict, init=False, repr=False)
    """Tables made from the rules, kept for the next frontier (the trie of moves)."""

    @classmethod
    def of(cls, params: Mapping[str, Any], *, scoring: Any, moves: Callable[[int, Any], np.ndarray],
           rolls_of: Callable[[int], list], options: Callable[[Box, np.ndarray], np.ndarray]) -> Box:
        """The rule set of a game's resolved ``params`` (a plugin's own are not read)."""
        return cls(tiles=params["tiles"], dice=params["dice"], faces=params["faces"],
                   one_die=params["one_die"], one_die_mode=params["one_die_mode"],
                   dice_schedule=params["dice_schedule"], weights=params["weights"],
                   payout=params["payout"], scoring=scoring, moves=moves, rolls_of=rolls_of,
                   options=options)

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
        return np.uint32 if self.key(self.full, len(self.roll_totals) - 1) < 2**32 else np.int64

    @functools.cached_property
    def _rolls(self) -> tuple[dict[int, tuple[tuple[Any, int], ...]], list[tuple[int, Any]]]:
        """For each number of dice, its ``(probability, roll)`` pairs; and each roll's total
        and kind, by roll. A plain roll is its total; the rolls of a kind come after the
        highest total, in the order they first appear."""
        kinds: list[tuple[int, Any]] = [(total, None) for total in range(self.most_rolled + 1)]
        number = {roll: i for i, roll in enumerate(kinds)}
        by_dice, alike = {}, {}  # (kinds that read alike within one throw: refused with it)
        for dice in range(1, self.most_dice + 1):
            added: dict[int, Any] = {}
            for p, total, kind in self.rolls_of(dice):
                if kind is not None and alike.setdefault(seen(kind), (kind, dice))[0] != kind:
                    raise mdp.ModelError(
                        f"game shutbox: shutbox_rolls gave the roll kinds {alike[seen(kind)][0]!r} "
                        f"(for {show_dice(alike[seen(kind)][1], self.faces).partition(' of')[0]}) "
                        f"and {kind!r} (for {dice}), which read "
                        "alike; give each kind a name of its own")
                roll = number.setdefault((total, kind), len(kinds))
                if roll == len(kinds):
                    kinds.append((total, kind))
                added[roll] = added[roll] + p if roll in added else p
            by_dice[dice] = tuple((p, roll) for roll, p in added.items())
        return by_dice, kinds

    def rolls(self, n: int) -> tuple[tuple[Any, int], ...]:
        """What a throw of ``n`` dice shows: ``(probability, roll)`` pairs."""
        return self._rolls[0][n]

    @functools.cached_property
    def roll_totals(self) -> np.ndarray:
        """The total of each roll, by roll (0: not rolled yet)."""
        return np.array([total for total, _ in self._rolls[1]], dtype=np.int64)

    @functools.cached_property
    def roll_kinds(self) -> list[Any]:
        """The kind of each roll, by roll: ``None`` for a plain roll."""
        return [kind for _, kind in self._rolls[1]]

    def roll_moves(self, roll: int) -> np.ndarray:
        """The sets of tiles that may be shut on ``roll``, open or not."""
        return self.moves(*self._rolls[1][roll])

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

    def usual_dice(self, masks: np.ndarray) -> np.ndarray:
        """The usual number of dice of each mask: ``dice``, or what ``dice_schedule`` gives
        for the total of its shut tiles."""
        if self.dice_schedule is None:
            return np.full(len(masks), self.dice, dtype=np.int64)
        starts = np.array([low for low, _, _ in self.dice_schedule])
        counts = np.array([count for _, _, count in self.dice_schedule])
        return counts[np.searchsorted(starts, sum(self.tiles) - self.open_sum(masks), side="right") - 1]

    def dice_options(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each mask, how many choices of dice it has, and the choices one after another
        (the usual number of dice first)."""
        options = self.options(self, masks)
        given = options != 0
        return given.sum(axis=1), options[given]

    def values(self, masks: np.ndarray):
        return self.scoring.values(self, masks)

    @property
    def rules(self) -> dict[str, Any]:
        """The parameters that shape play, by name (as :mod:`.acting` reads them)."""
        return {name: getattr(self, name) for name in
                ("tiles", "dice", "faces", "one_die", "one_die_mode", "dice_schedule", "weights")}

    def describe(self) -> str:
        text = f"tiles {mdp.show_int_list(self.tiles)}, "
        if self.dice_schedule is None:
            text += show_dice(self.dice, self.faces)
        else:
            unplayed = unplayed_ranges(self.rules)  # (a variant's: not claimed)
            text += f"dice of {self.faces} faces by total shut: " + ", ".join(
                f"{count} for {low}+" if high is None else f"{count} for {span(low, high)}"
                for low, high, count in self.dice_schedule if (low, high, count) not in unplayed)
        if self.weights is not None:
            text += f", weighted {show_weights(self.weights)}"
        if self.one_die != "never" and one_die_idle(self.rules) is None:  # one that acts
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
