"""Score cards: the full game, thirteen (Yatzy: fifteen) rounds of one turn each, every turn
ending with one open box of the card filled.

A card is the game of rounds (see the Writing a game page): one turn is the round, its ends
are ``(box, points, face)`` (the box filled, what the hand scores there by the box's own
rule, and the face of a five of a kind, else 0), and the round state is the card, an
integer: a bit per box filled, then the upper section's total, then whether the Yahtzee box
holds 50.

The upper total matters only while the bonus is still open: once it is won the card keeps
63 there, and once it is out of reach of the upper boxes left, 0, so that cards with the same
future are one round state (a total of 0 with the bonus in reach is a card of its own).

The readings of the rules, with their sources, are on the game's page in the docs:

- ``yahtzee``: the official rules (Hasbro, 2022 edition): 35 points for 63 in the upper
  section; a Yahtzee with the Yahtzee box holding 50 earns 100 more; a Yahtzee with the box
  filled (50 or 0) is a *joker*, with the forced order: the matching upper box if open,
  else any open lower box (full house, small and large straight score 25, 30 and 40), else
  any open upper box.
- ``free-joker``: the same, but the joker may go in any open box (Verhoeff's reading).
- ``no-bonus``: no Yahtzee bonus and no joker.
- ``yatzy``: the Scandinavian game: fifteen boxes, 50 points for 63 in the upper section, no
  joker and no bonus for more Yatzys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_BOXES = UPPER + ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight",
                         "large-straight", "yahtzee", "chance")
YATZY_BOXES = UPPER + ("one-pair", "two-pairs", "three-of-a-kind", "four-of-a-kind",
                       "small-straight", "large-straight", "full-house", "chance", "yatzy")
BOX_ORDER = {box: i for i, box in enumerate(dict.fromkeys(YAHTZEE_BOXES + YATZY_BOXES))}
"""Every card's boxes in one order: the order a card's boxes are shown in (``boxes``)."""
BONUS_AT = 63
"""The upper section's total that earns the bonus; the card keeps totals up to it."""
JOKER_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def _runs(hand: tuple[int, ...]) -> int:
    """The longest run of consecutive faces in ``hand``."""
    faces, best, run = sorted(set(hand)), 0, 0
    for i, face in enumerate(faces):
        run = run + 1 if i and face == faces[i - 1] + 1 else 1
        best = max(best, run)
    return best


def yahtzee_points(box: str, hand: tuple[int, ...]) -> int:
    """What five dice score in a box of the Yahtzee card, by the box's own rule (no joker)."""
    counts = Counter(hand)
    most = max(counts.values())
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    return {
        "three-of-a-kind": sum(hand) if most >= 3 else 0,
        "four-of-a-kind": sum(hand) if most >= 4 else 0,
        "full-house": 25 if sorted(counts.values()) == [2, 3] else 0,
        "small-straight": 30 if _runs(hand) >= 4 else 0,
        "large-straight": 40 if _runs(hand) >= 5 else 0,
        "yahtzee": 50 if most == 5 else 0,
        "chance": sum(hand),
    }[box]


def yatzy_points(box: str, hand: tuple[int, ...]) -> int:
    """What five dice score in a box of the Yatzy card: the dice that make the box count."""
    counts = Counter(hand)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    pairs = sorted((f for f, n in counts.items() if n >= 2), reverse=True)
    of_a_kind = {k: max((f for f, n in counts.items() if n >= k), default=0)
                 for k in (3, 4)}
    return {
        "one-pair": 2 * pairs[0] if pairs else 0,
        "two-pairs": 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0,
        "three-of-a-kind": 3 * of_a_kind[3],
        "four-of-a-kind": 4 * of_a_kind[4],
        "small-straight": 15 if sorted(hand) == [1, 2, 3, 4, 5] else 0,
        "large-straight": 20 if sorted(hand) == [2, 3, 4, 5, 6] else 0,
        "full-house": sum(hand) if sorted(counts.values()) == [2, 3] else 0,
        "chance": sum(hand),
        "yatzy": 50 if len(counts) == 1 else 0,
    }[box]


@attrs.frozen
class Card:
    """The rules of one score card."""

    name: str
    boxes: tuple[str, ...]
    upper_bonus: int
    """Points for an upper total of :data:`BONUS_AT` or more."""
    extra_bonus: int
    """Points for each five of a kind while the five-of-a-kind box holds 50."""
    joker: str | None
    """``"forced"``, ``"free"`` or ``None``."""
    points: Any
    """``points(box, hand)``: what a hand scores in a box by the box's own rule."""
    rules: str


CARDS = {
    "yahtzee": Card("yahtzee", YAHTZEE_BOXES, 35, 100, "forced", yahtzee_points,
                    "official rules: 35 bonus at 63, 100 per extra Yahtzee, forced joker"),
    "free-joker": Card("free-joker", YAHTZEE_BOXES, 35, 100, "free", yahtzee_points,
                       "35 bonus at 63, 100 per extra Yahtzee, joker in any open box"),
    "no-bonus": Card("no-bonus", YAHTZEE_BOXES, 35, 0, None, yahtzee_points,
                     "35 bonus at 63, no Yahtzee bonus, no joker"),
    "yatzy": Card("yatzy", YATZY_BOXES, 50, 0, None, yatzy_points,
                  "Scandinavian Yatzy, 15 boxes, 50 bonus at 63"),
}
FIVE_OF_A_KIND = {"yahtzee", "yatzy"}


def end_of(card: Card, box: str, hand: tuple[int, ...]) -> tuple[str, int, int]:
    """The end of a turn that fills ``box`` with ``hand``: ``(box, points, face)``."""
    face = hand[0] if len(set(hand)) == 1 else 0
    return (box, card.points(box, hand), face)


class Rounds:
    """A card's round states as integers, and the ends of a turn from many of them at once."""

    def __init__(self, card: Card, boxes: tuple[str, ...]) -> None:
        self.card, self.boxes = card, boxes
        n = len(boxes)
        self.total_shift, self.flag_shift = n, n + 6
        self.upper = np.array([b in UPPER for b in boxes])
        # The most each upper box can still add: five of its face.
        self.most = np.array([5 * (UPPER.index(b) + 1) if b in UPPER else 0 for b in boxes])
        five = [i for i, b in enumerate(boxes) if b in FIVE_OF_A_KIND]
        self.five = five[0] if five else -1
        # The upper box of each face (0: none), and each box's bit.
        self.own = np.array([-1] + [boxes.index(u) if u in boxes else -1 for u in UPPER])
        self.bit = np.int64(1) << np.arange(n, dtype=np.int64)
        self._ends: tuple[int, dict[str, np.ndarray]] | None = None

    def start(self) -> int:
        return int(self._settled(np.int64(0), np.int64(0), self.most.sum()))

    def _settled(self, filled: Any, total: Any, reach: Any) -> Any:
        """The key of cards with boxes ``filled``, upper total ``total`` and ``reach`` still
        open above it: the total kept at 63 once the bonus is won, 0 once out of reach."""
        total = np.where(total + reach < BONUS_AT, 0, np.minimum(total, BONUS_AT))
        return filled | (total << self.total_shift)

    def _of_ends(self, ends: Sequence[tuple[str, int, int]]) -> dict[str, np.ndarray]:
        """What the ends of a turn are, as arrays, and the tables :meth:`ends` looks up (made
        once: the ends are always the same). The ends of one box that add the same to the
        upper total share a *class*, whose next card is worked out once per card."""
        if self._ends is None or self._ends[0] != len(ends):
            box = np.array([self.boxes.index(e[0]) for e in ends])
            base = np.array([e[1] for e in ends], dtype=np.int64)
            face = np.array([e[2] for e in ends], dtype=np.int64)
            gained = np.where(self.upper[box], base, 0)
            fifty = (box == self.five) & (base == 50) & bool(self.card.extra_bonus)
            classes, kind = np.unique(np.stack([box, gained, fifty]), axis=1, return_inverse=True)
            self._ends = (len(ends), {
                "box": box, "gained": gained, "class": kind.ravel(), "class_box": classes[0],
                "next": self._next_table(*classes), "points": self._points_table(box, base, face, gained),
                "refused": self._refused_table(box, face)})
        return self._ends[1]

    def _next_table(self, box: np.ndarray, gained: np.ndarray, fifty: np.ndarray) -> np.ndarray:
        """The next card of each class of ends, less the boxes filled before, from a card
        with upper total t, upper boxes open that can still add r, and flag f: row
        (t * (reach + 1) + r) * 2 + f, ``reach`` all that the upper boxes can add."""
        t, r, f = (a.ravel()[:, None] for a in np.meshgrid(
            np.arange(64), np.arange(self.most.sum() + 1), np.arange(2), indexing="ij"))
        new_total = np.where(t < BONUS_AT, t + gained, BONUS_AT)
        following = self._settled(self.bit[box], new_total, r - self.most[box])
        return following | ((f | fifty) << self.flag_shift)

    def _keys(self, is_open: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per card, whether the five-of-a-kind box is filled and, as bits, the faces whose
        upper box is played and open (bit f - 1 for face f)."""
        faces = np.flatnonzero(self.own >= 0)
        five_filled = ~is_open[:, self.five] if self.five >= 0 else np.zeros(len(is_open), bool)
        return five_filled, is_open[:, self.own[faces]] @ (np.int64(1) << (faces - 1))

    def _points_table(self, box: np.ndarray, base: np.ndarray, face: np.ndarray,
                      gained: np.ndarray) -> np.ndarray:
        """The points of every end from a card with upper total t: row t; on a card with a
        joker, row t + 64 * (holds_50 + 2 * (five-of-a-kind box filled + 2 * own bits)), the
        own bits those of :meth:`_keys`."""
        card, jokers = self.card, bool(self.card.joker) and self.five >= 0
        row = np.arange(64 * (256 if jokers else 1))[:, None]
        total, holds_50, five_filled, own_bits = row % 64, row // 64 % 2, row // 128 % 2, row // 256
        # The upper bonus where the end brings the total to 63.
        bonus = (total < BONUS_AT) & (total + gained >= BONUS_AT)
        points = base + bonus * card.upper_bonus
        # A five of a kind is a joker once the five-of-a-kind box is filled, and scores as
        # one in the lower boxes once its own upper box is filled too.
        if jokers:
            own_open = (own_bits >> np.maximum(face - 1, 0)) & 1 & (face > 0)
            fixed = np.array([JOKER_POINTS.get(self.boxes[b], 0) for b in box.tolist()])
            joker = five_filled & ~own_open.astype(bool) & (face > 0)
            points += joker * np.where(fixed > 0, fixed - base, 0)
            points += holds_50 * card.extra_bonus * (face > 0)
        return points

    def _refused_table(self, box: np.ndarray, face: np.ndarray) -> np.ndarray | None:
        """Under the forced joker, the ends a five of a kind may not take from a card: row
        five-of-a-kind box filled + 2 * (a lower box open + 2 * own bits). The joker goes
        in its own upper box if it is open, else in any open lower box, else in any open
        upper box."""
        if self.card.joker != "forced" or self.five < 0:
            return None
        row = np.arange(256)[:, None]
        five_filled, lower_open, own_bits = row % 2, row // 2 % 2, row // 4
        own_open = ((own_bits >> np.maximum(face - 1, 0)) & 1 & (face > 0)).astype(bool)
        upper = self.upper[box]
        allowed = np.where(own_open, box == self.own[face],
                           np.where(lower_open.astype(bool), ~upper, upper))
        return five_filled.astype(bool) & (face > 0) & ~allowed

    def ends(self, states: np.ndarray, ends: Sequence[tuple[str, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """The next card and the points of every end of a turn from every card of ``states``."""
        e, n = self._of_ends(ends), len(self.boxes)
        filled = states & ((1 << n) - 1)
        total = (states >> self.total_shift) & 63
        holds_50 = (states >> self.flag_shift) & 1
        is_open = (filled[:, None] & self.bit) == 0
        reach = is_open @ self.most
        # Per card and class: the next card; -1 where the box is filled.
        following = e["next"].take((total * (self.most.sum() + 1) + reach) * 2 + holds_50, axis=0)
        following += filled[:, None]
        following[~is_open[:, e["class_box"]]] = -1
        following = following.take(e["class"], axis=1)
        five_filled, own_bits = self._keys(is_open)
        row = total if len(e["points"]) == 64 else total + 64 * (holds_50 + 2 * (five_filled + 2 * own_bits))
        points = e["points"].take(row, axis=0)
        if e["refused"] is not None:
            lower_open = (is_open & ~self.upper).any(axis=1)
            following[e["refused"].take(five_filled + 2 * (lower_open + 2 * own_bits), axis=0)] = -1
        return following, points

    def toward_bonus(self, states: np.ndarray, ends: Sequence[tuple[str, int, int]]) -> np.ndarray:
        """Per card of ``states`` and end of a turn: the upper points the end adds toward
        :data:`BONUS_AT` while the bonus is open and in reach of the upper boxes left, else 0
        (a lower box, the bonus won or out of reach)."""
        e, n = self._of_ends(ends), len(self.boxes)
        filled = states & ((1 << n) - 1)
        total = (states >> self.total_shift) & 63
        reach = ((filled[:, None] & self.bit) == 0) @ self.most
        open_ = (total < BONUS_AT) & (total + reach >= BONUS_AT)
        return np.where(open_[:, None], np.minimum(e["gained"], (BONUS_AT - total)[:, None]), 0)

    def columns(self, keys: np.ndarray) -> dict[str, Any]:
        """The cards as readable columns: the boxes filled (in the card's order), the upper
        total while the bonus is open (63 once won, 0 once out of reach), and, on a card
        with a Yahtzee bonus, whether the Yahtzee box holds 50."""
        n = len(self.boxes)
        masks, filled = np.unique(keys & ((1 << n) - 1), return_inverse=True)
        words = [" ".join(b for i, b in enumerate(self.boxes) if f >> i & 1) for f in masks.tolist()]
        columns = {
            "filled": [words[f] for f in filled.tolist()],
            "upper": ((keys >> self.total_shift) & 63).tolist(),
        }
        if self.card.extra_bonus:
            columns["holds_50"] = ((keys >> self.flag_shift) & 1).astype(bool).tolist()
        return columns
