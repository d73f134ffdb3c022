"""The best chance of scoring at least every total in Scandinavian Yatzy, for every total at
once: an independent reference.

Usage:
    python benchmarks/targets_reference.py [--boxes ones,twos,...] [--json] [--threads N]

Prints, for every total T from 0 to the most the card can score, the chance of a final score
of at least T when the game is played to maximise that chance (a different play for every
T); with --json one JSON object {"totals": [[T, chance], ...], "columns", "states",
"seconds"}. Plain numpy, written from the rules alone (those of benchmarks/yahtzee_reference.py,
whose tables of dice, keeps and boxes it uses), sharing no code with mdp. --boxes plays the
game on those boxes of the card only (the bonus still 50 at 63 in the upper boxes played).

Method: backward induction over score cards (filled boxes, upper total capped at 63), as for
the mean, with a vector per card over the points still needed: ``V(card, n)`` is the best
chance of at least ``n`` more points. It is 1 for ``n <= 0`` and 0 past ``M(card)``, the
most the open boxes can still add (each box's best score, and the bonus where it is still to
be won): only ``n`` from 1 to ``M(card)`` are columns. A turn of a column is the turn of the
mean solver with the values of the hands with no roll left being, for each open box, the
vector of the card that follows at ``n`` less the points scored there.
"""

import argparse
import importlib.util
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

_spec = importlib.util.spec_from_file_location(
    "yahtzee_reference", Path(__file__).resolve().parent / "yahtzee_reference.py")
R = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(R)

NAMES = [name.replace(" ", "-") for name in ["ones", "twos", "threes", "fours", "fives", "sixes",
                                             *R.YATZY]]
BONUS, BONUS_AT = 50, 63
BATCH = 1024  # columns (card, points needed) solved together


class Totals:
    def __init__(self, boxes, threads=1):
        self.boxes, self.threads = boxes, threads
        self.tables, self.rows, self.best = [], [], []
        for name in boxes:
            b = NAMES.index(name)
            score = R.COUNTS[:, b] * (b + 1) if b < 6 else R.YATZY[name.replace("-", " ")]
            points, which = np.unique(score, return_inverse=True)
            self.rows.append(which.ravel())
            self.tables.append((points.astype(np.int64), points * (b < 6)))
            self.best.append(int(points.max()))
        self.upper = np.array([NAMES.index(name) < 6 for name in boxes])
        self.reach = np.array([5 * (NAMES.index(name) + 1) if up else 0
                               for name, up in zip(boxes, self.upper)])

    def most(self, cards):
        """The most points still to come from each card: its open boxes' best scores, and
        the bonus where it is not won yet and the open upper boxes can still win it."""
        filled, upper = cards >> 7, cards >> 1 & 63
        is_open = (filled[:, None] >> np.arange(len(self.boxes)) & 1) == 0
        more = is_open @ np.array(self.best)
        bonus = (upper < BONUS_AT) & (upper + is_open @ self.reach >= BONUS_AT)
        return more + BONUS * bonus

    def reachable(self):
        layers = [np.zeros(1, dtype=np.int64)]
        for _ in self.boxes:
            filled, upper = layers[-1] >> 7, layers[-1] >> 1 & 63
            seen = np.zeros(1 << len(self.boxes) + 7, dtype=bool)
            for b, (_, rise) in enumerate(self.tables):
                o = filled >> b & 1 == 0
                seen[(filled[o, None] | 1 << b) << 7
                     | np.minimum(BONUS_AT, upper[o, None] + rise) << 1] = True
            layers.append(np.flatnonzero(seen))
        return layers

    def solve(self):
        """The chance of at least each total from 0 to the most, the columns solved and the
        cards. Two layers of vectors are held at a time."""
        layers = self.reachable()
        self.offset = np.zeros(1 << len(self.boxes) + 7, dtype=np.int64)
        self.M = np.zeros(1 << len(self.boxes) + 7, dtype=np.int64)
        self.later = np.array([1.0, 0.0])[np.arange(2 * len(layers[-1])) % 2]  # full: n <= 0
        self.offset[layers[-1]] = 2 * np.arange(len(layers[-1]))
        columns = 0
        with ThreadPoolExecutor(self.threads) as pool:
            for layer in reversed(layers[:-1]):
                most = self.most(layer)  # each card's vector: n = 0 (1), 1..M, M + 1 (0)
                at = np.cumsum(most + 2) - (most + 2)
                vectors = np.zeros(int(np.sum(most + 2)))
                vectors[at] = 1.0
                card = np.repeat(layer, most)
                need = np.arange(len(card)) - np.repeat(np.cumsum(most) - most, most) + 1
                where = np.repeat(at, most) + need
                columns += len(card)

                def turn(i, card=card, need=need, where=where, vectors=vectors):
                    vectors[where[i:i + BATCH]] = self.turn(card[i:i + BATCH], need[i:i + BATCH])

                list(pool.map(turn, range(0, len(card), BATCH)))
                self.later, self.offset[layer], self.M[layer] = vectors, at, most
        return self.later[:int(self.M[0]) + 1], columns, sum(len(layer) for layer in layers)

    def turn(self, cards, need):
        E = np.empty((len(R.KEEPS), len(cards)))
        E[R.HAND0:] = self.last_roll(cards, need)
        for _ in range(2):
            R.best_keep(R.expectation(E))
        return np.clip(R.expectation(E)[0], 0.0, 1.0)

    def last_roll(self, cards, need):
        """(252, n): each hand's chance with no roll left: the best over the open boxes of
        the next card's chance of the points still needed less those scored there (the bonus
        among them when the upper total reaches 63)."""
        filled, upper = cards >> 7, cards >> 1 & 63
        best = np.full((252, len(cards)), -np.inf)
        for b, (points, rise) in enumerate(self.tables):
            reached = np.minimum(BONUS_AT, upper + rise[:, None])
            nxt = (filled | 1 << b) << 7 | reached << 1
            scored = points[:, None] + BONUS * ((upper < BONUS_AT) & (reached >= BONUS_AT))
            left = np.clip(need - scored, 0, self.M[nxt] + 1)
            opt = self.later[self.offset[nxt] + left]
            opt[:, filled >> b & 1 == 1] = -np.inf
            np.maximum(best, opt[self.rows[b]], out=best)
        return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boxes", default=",".join(NAMES),
                        help="the boxes played, comma-separated (default: all fifteen)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--threads", type=int, default=min(os.cpu_count() or 1, 8))
    args = parser.parse_args(argv)
    boxes = args.boxes.split(",")
    if any(b not in NAMES for b in boxes) or len(set(boxes)) != len(boxes):
        parser.error(f"--boxes: distinct boxes of {', '.join(NAMES)}")
    boxes = [b for b in NAMES if b in boxes]  # the card's own order
    start = time.perf_counter()
    chances, columns, states = Totals(boxes, max(1, args.threads)).solve()
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"totals": [[t, float(c)] for t, c in enumerate(chances)],
                          "columns": columns, "states": states, "seconds": round(seconds, 3)}))
    else:
        for t, c in enumerate(chances):
            print(f"{t:5d} {100 * c:9.4f}%")
        print(f"{columns:,} columns (card, points needed) over {states:,} cards in {seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
