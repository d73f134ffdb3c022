"""Solve solitaire Yahtzee (or Scandinavian Yatzy) exactly: the optimal expected score.

Usage:
    python benchmarks/yahtzee_reference.py --rules RULES [--boxes B,B,...] [--json] [--threads N]

Prints the expected score, the number of reachable score cards solved (the empty and the
full ones included) and the seconds taken; with --json one JSON object {"rules", "value",
"states", "seconds"}. The independent reference that the benchmark runs beside another
solver: plain numpy, written from the rules alone, sharing no code with this project.
With --boxes (names as on the card, e.g. fours,fives,sixes,chance, or full-house) the game
is played on those boxes only, one turn each: the others are filled from the start; without
the yahtzee box there is no Yahtzee bonus and no joker.

Yahtzee: 13 turns of up to three rolls of five dice, keeping any dice between rolls; then
one open box is filled: ones..sixes (the sum of that face), three and four of a kind (the
sum of all dice), full house 25 (three of one face and two of another: five of a kind is
not one), small straight 30, large straight 40, yahtzee 50 (five of a kind), chance (the
sum). 35 bonus points once the upper boxes total 63. RULES:
  no-bonus      no more: 245.870775, the published 245.87 (Verhoeff, Glenn); five of a
                kind counted as a full house would give 245.904728.
  forced-joker  Hasbro's official rules: a five of a kind rolled when the yahtzee box
                holds 50 earns 100 bonus points; when that box is filled (50 or 0) the
                roll must go in its own upper box if open, else in any open lower box,
                where full house and straights score 25/30/40 (the joker), else in any
                open upper box (0 points): 254.587729.
  free-joker    bonus as above; the five of a kind may go in any open box, the joker
                points counting only once its own upper box is filled: 254.589609, the
                published 254.5896 (Verhoeff 1999, Glenn 2006), which this reading
                reproduces; joker points whether or not that box is filled: 254.711273.
  yatzy         Scandinavian: 15 boxes: ones..sixes, one pair, two pairs (different
                faces), three and four of a kind (the sum of those dice), small straight
                1-5 (15), large straight 2-6 (20), full house (3 + 2 of different faces:
                the sum), chance, yatzy 50; 50 bonus points at 63; no joker: 248.439989,
                the published 248.44 (five of a kind as a full house: 248.468091).

Method: backward induction over score cards. A card is (filled boxes, upper total capped
at 63, whether the yahtzee box holds 50). A card with k filled boxes leads only to cards
with k + 1, so cards are solved a layer at a time, from full cards back to the empty one,
BATCH cards at once as the columns of matrices. A turn is solved over the 462 keeps
(multisets of 0-5 dice; the 252 five-dice hands among them) with lattice passes, each a
few vectorised steps instead of a 462 x 252 matrix product:
  * expectation: rerolling dice one at a time is the same as rolling them together, so the
    value of a keep is the mean, over the six faces, of the keep with one more such die;
  * best keep: a hand may keep any sub-multiset and reroll the rest, so a running maximum
    up the lattice (a keep's best is the larger of its own value and the bests of the
    keeps with one die fewer) gives every hand the value of its best keep.
"""

import argparse
import itertools
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

RULES = {
    "free-joker": "Yahtzee, 100 bonus, joker in any box once the own upper box is filled",
    "forced-joker": "Yahtzee, Hasbro's official rules: 100 bonus, forced joker",
    "no-bonus": "Yahtzee without Yahtzee bonus or joker",
    "yatzy": "Scandinavian Yatzy: 15 boxes, upper bonus 50, no joker",
}
BATCH = 1024  # cards per batch: a 462 x 1024 array of doubles (3.8 MB) stays near the caches

# ---------------------------------------------------------------- dice: keeps and hands
# A keep is its counts of faces 1..6, at most five dice. Sorted by size, then by how many
# different faces it shows, each such run is a contiguous slice of rows, so a lattice pass
# is a few slice operations. The hands (five dice) are the last 252 rows.
KEEPS = sorted((c for c in itertools.product(range(6), repeat=6) if sum(c) <= 5),
               key=lambda c: (sum(c), 6 - c.count(0), c))
INDEX = {c: i for i, c in enumerate(KEEPS)}
START = [sum(1 for c in KEEPS if sum(c) < n) for n in range(7)]  # size n: START[n]..START[n+1]
HAND0 = START[5]
COUNTS = np.array(KEEPS[HAND0:])  # (252, 6): each hand's count of each face


def _step(c, d, by):
    return INDEX[c[:d] + (c[d] + by,) + c[d + 1:]]


# ADD[n]: (keeps of size n, 6): the keep with one more die showing each face, n = 0..4.
ADD = [np.array([[_step(c, d, 1) for d in range(6)] for c in KEEPS[START[n]:START[n + 1]]])
       for n in range(5)]
# SUB: for each run of keeps of one size (1..5, increasing) and number w of different
# faces: (first row, end row, (run length, w) the keeps with one die fewer, one per face).
SUB = []
for _n, _w in itertools.product(range(1, 6), range(1, 6)):
    _rows = [i for i in range(START[_n], START[_n + 1]) if 6 - KEEPS[i].count(0) == _w]
    if _rows:
        SUB.append((_rows[0], _rows[-1] + 1, np.array(
            [[_step(KEEPS[i], d, -1) for d in range(6) if KEEPS[i][d]] for i in _rows])))


def expectation(E):
    """Fill the rows of keeps of size 4..0 of E (462, n) from its hand rows, each the mean
    over the next die; returns E, whose row 0 (keep nothing) is then the value of rolling
    all five dice."""
    for n in range(4, -1, -1):
        block = E[START[n]:START[n + 1]]
        np.sum(E[ADD[n]], axis=1, out=block)
        block *= 1.0 / 6.0
    return E


def best_keep(E):
    """In place, replace each keep's value by the best over its sub-multisets: the hand
    rows then hold the value of a hand with a reroll to come."""
    for start, end, sub in SUB:  # smaller keeps first, so the keeps in `sub` are done already
        np.maximum(E[start:end], E[sub].max(axis=1), out=E[start:end])
    return E


# ---------------------------------------------------------------- boxes and their scores
FACES = np.arange(1, 7)
TOTAL = COUNTS @ FACES
MOST = COUNTS.max(axis=1)
FIVE = MOST == 5
FIVE_ROW = [int(np.flatnonzero(COUNTS[:, f] == 5)[0]) for f in range(6)]  # hand: five f+1s
FULL = np.sort(COUNTS, axis=1)[:, -2:].tolist()
FULL = np.array([pair == [2, 3] for pair in FULL])  # three of one face and two of another
SMALL = np.any([np.all(COUNTS[:, a:a + 4] > 0, axis=1) for a in range(3)], axis=0)
LARGE = np.all(COUNTS[:, 0:5] > 0, axis=1) | np.all(COUNTS[:, 1:6] > 0, axis=1)
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]  # the sum of the dice showing 1..6
YAHTZEE = {"three of a kind": np.where(MOST >= 3, TOTAL, 0),
           "four of a kind": np.where(MOST >= 4, TOTAL, 0), "full house": 25 * FULL,
           "small straight": 30 * SMALL, "large straight": 40 * LARGE, "yahtzee": 50 * FIVE,
           "chance": TOTAL}
JOKER = {"full house": 25, "small straight": 30, "large straight": 40}  # else the dice's sum
_PAIRS = np.sort((COUNTS >= 2) * FACES, axis=1)  # faces shown at least twice (0 otherwise)
YATZY = {"one pair": 2 * _PAIRS[:, -1],
         "two pairs": np.where(_PAIRS[:, -2] > 0, 2 * (_PAIRS[:, -1] + _PAIRS[:, -2]), 0),
         "three of a kind": 3 * ((COUNTS >= 3) @ FACES),
         "four of a kind": 4 * ((COUNTS >= 4) @ FACES),
         "small straight": 15 * np.all(COUNTS[:, 0:5] == 1, axis=1),
         "large straight": 20 * np.all(COUNTS[:, 1:6] == 1, axis=1),
         "full house": np.where(FULL, TOTAL, 0), "chance": TOTAL, "yatzy": 50 * FIVE}


# A card is the integer filled << 7 | upper << 1 | flag: bit b of filled for box b, upper
# the upper total capped at 63 (all the bonus needs), flag whether the yahtzee box holds 50.
def decode(cards):
    return cards >> 7, cards >> 1 & 63, cards & 1


class Solver:
    def __init__(self, rules, threads=1, boxes=None):
        self.rules, self.threads = rules, threads
        lower = YATZY if rules == "yatzy" else YAHTZEE
        self.names = UPPER + list(lower)
        self.ncat = len(self.names)
        self.upper_bonus = 50.0 if rules == "yatzy" else 35.0
        # The boxes not played are filled on the first card; the played ones, a turn each.
        played = self.names if boxes is None else boxes
        self.first = sum(1 << b for b, name in enumerate(self.names) if name not in played) << 7
        self.turns = len(played)
        # Yahtzee bonus and joker
        self.bonus = rules in ("free-joker", "forced-joker") and "yahtzee" in played
        self.ybox = self.names.index("yahtzee") if self.bonus else -1
        # Per box: the distinct points it can score (column vectors: the points, what they
        # add to the upper total, whether they set the flag) and, per hand, which of them.
        # Scoring a box is then a small table per card, gathered over the hands (row copies).
        self.tables, self.rows = [], []
        for b, name in enumerate(self.names):
            score = COUNTS[:, b] * (b + 1) if b < 6 else lower[name]
            points, which = np.unique(score, return_inverse=True)
            self.rows.append(which.ravel())
            self.tables.append((points[:, None].astype(float), points[:, None] * (b < 6),
                                (points[:, None] == 50) & (b == self.ybox)))

    def reachable(self):
        """The cards reachable from the first card: a sorted array per number filled."""
        layers = [np.array([self.first], dtype=np.int64)]
        for _ in range(self.turns):
            filled, upper, flag = decode(layers[-1])
            seen = np.zeros(1 << self.ncat + 7, dtype=bool)
            for b, (_, rise, sets) in enumerate(self.tables):
                o = filled >> b & 1 == 0
                seen[(filled[o] | 1 << b) << 7 | np.minimum(63, upper[o] + rise) << 1
                     | (flag[o] | sets)] = True
            layers.append(np.flatnonzero(seen))
        return layers

    def solve(self):
        """The optimal expected final score from the first card, and the number of cards."""
        layers = self.reachable()
        self.V = np.full(1 << self.ncat + 7, np.nan)  # each card's value; NaN: not reachable
        upper = decode(layers[-1])[1]
        self.V[layers[-1]] = np.where(upper >= 63, self.upper_bonus, 0.0)  # full: upper bonus
        # The batches of a layer are independent (they read only the next layer's values and
        # each writes its own cards), and numpy releases the GIL in its loops, so threads
        # share them; every card's arithmetic is the same whatever the number of threads.
        with ThreadPoolExecutor(self.threads) as pool:
            for layer in reversed(layers[:-1]):
                batches = (layer[i:i + BATCH] for i in range(0, len(layer), BATCH))
                list(pool.map(self.turn, batches))
        return float(self.V[self.first]), sum(len(layer) for layer in layers)

    def turn(self, cards):
        """Solve one turn for a batch of cards (n,): store their values before it."""
        E = np.empty((len(KEEPS), len(cards)))
        E[HAND0:] = self.last_roll(cards)
        for _ in range(2):  # two rerolls
            best_keep(expectation(E))
        self.V[cards] = expectation(E)[0]  # keep nothing: roll all five dice

    def last_roll(self, cards):
        """(252, n): each hand's value with no roll left: the best, over the open boxes, of
        the points it scores there plus the value of the card that follows."""
        filled, upper, flag = decode(cards)
        best = np.full((252, len(cards)), -np.inf)
        options = []  # per box, (distinct points, n): points + next card's value; -inf: filled
        for b, (points, rise, sets) in enumerate(self.tables):
            nxt = (filled | 1 << b) << 7 | np.minimum(63, upper + rise) << 1 | (flag | sets)
            opt = self.V[nxt] + points
            opt[:, filled >> b & 1 == 1] = -np.inf
            options.append(opt)
            np.maximum(best, opt[self.rows[b]], out=best)
        if self.bonus:
            self.joker(best, filled, flag, options)
        return best

    def joker(self, best, filled, flag, options):
        """Redo the five-of-a-kind rows of the cards whose yahtzee box is filled (50 or 0):
        100 bonus points when it holds 50, and the joker: full house and the straights may
        score 25, 30 and 40 (the other boxes as usual), under these rules:
          forced-joker (Hasbro): the own upper box if open; else any open lower box; else
            any open upper box (0 points).
          free-joker (the reading that reproduces the published 254.5896): any open box,
            the joker points counting only when the own upper box is filled.
        """
        cols = np.flatnonzero(filled >> self.ybox & 1)
        lower = [b for b in range(6, self.ncat) if b != self.ybox]
        for f in range(6):
            row, five = FIVE_ROW[f], 5.0 * (f + 1)
            own = options[f][5, cols]  # five f+1s in their own box: row 5 of 0, f+1, .., 5f+5
            # any lower box as joker: its next card's value (row 0 less its points) + points
            joker = np.max([options[b][0, cols] - self.tables[b][0][0, 0]
                            + JOKER.get(self.names[b], five) for b in lower], axis=0)
            if self.rules == "free-joker":  # `best` already holds the choice at plain points
                plain = best[row, cols]
                value = np.where(own > -np.inf, plain, np.maximum(plain, joker))
            else:
                others = np.max([options[b][0, cols] for b in range(6) if b != f], axis=0)
                value = np.where(own > -np.inf, own, np.where(joker > -np.inf, joker, others))
            best[row, cols] = value + 100.0 * flag[cols]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", required=True, choices=list(RULES),
                        help="; ".join(f"{k}: {v}" for k, v in RULES.items()))
    parser.add_argument("--boxes", help="comma-separated, as on the card (e.g. "
                        "fours,fives,sixes,chance): play these boxes only (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--threads", type=int, default=min(os.cpu_count() or 1, 8),
                        help="threads sharing a layer's batches (default: the cores, at most 8)")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    boxes = None
    if args.boxes is not None:
        names = UPPER + list(YATZY if args.rules == "yatzy" else YAHTZEE)
        given = [b.strip() for b in args.boxes.split(",")]
        boxes = [b.replace("-", " ") for b in given]
        wrong = [g for g, b in zip(given, boxes) if b not in names or boxes.count(b) > 1]
        if wrong:
            parser.error(f"--boxes: {wrong[0]!r} is not a box of {args.rules} or is given "
                         f"twice; its boxes: {', '.join(n.replace(' ', '-') for n in names)}")
    start = time.perf_counter()
    value, states = Solver(args.rules, args.threads, boxes).solve()
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"rules": args.rules, "value": value, "states": states,
                          "seconds": round(seconds, 3)}))
    else:
        print(f"{args.rules} ({RULES[args.rules]}): expected score {value:.6f}")
        print(f"{states} reachable score cards solved in {seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
