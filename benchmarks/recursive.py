"""Solve Shut the Box with a plain memoized recursion, as puzzle columns publish it.

Usage:
    python benchmarks/recursive.py --tiles 1-9 --dice 2 --one-die max6 [--exact]

prints one JSON line: value, states (the number of memoized positions, i.e. sets of
open tiles before a roll), seconds. With --exact the value is a "p/q" string computed
with Fractions (value_float holds its float).

This is the baseline the benchmark compares against: the textbook solution, written
independently of mdp (it imports neither mdp nor games), one Python function with
functools.lru_cache over a bitmask of open tiles.
"""

import json
import os
import sys
import time
from fractions import Fraction
from functools import cache
from itertools import combinations


def dice_totals(dice, faces, one):
    """{total: probability} of the sum of `dice` fair dice (`one` is 1 or Fraction(1))."""
    dist = {0: one}
    for _ in range(dice):
        nxt = {}
        for total, p in dist.items():
            for face in range(1, faces + 1):
                nxt[total + face] = nxt.get(total + face, 0) + p / faces
        dist = nxt
    return dist


def solve(tiles, dice=2, faces=6, one_die="never", one_die_mode="choice", exact=False):
    """Chance of shutting the box with `tiles` under optimal play; returns (value, positions).

    one_die: when a single die may be rolled (never, max6: every open tile is 6 or less,
    sum6: the open tiles sum to 6 or less, always); one_die_mode: "choice" (the player
    picks one or `dice` dice) or "forced" (one die must be used).
    """
    one = Fraction(1) if exact else 1.0
    zero = one - one
    n = len(tiles)
    full = (1 << n) - 1

    # Every way to shut tiles for each total: the bitmasks of subsets with that sum.
    ways = {}
    for size in range(1, n + 1):
        for subset in combinations(range(n), size):
            total = sum(tiles[i] for i in subset)
            ways.setdefault(total, []).append(sum(1 << i for i in subset))

    normal = dice_totals(dice, faces, one)
    single = dice_totals(1, faces, one)

    def open_tiles(mask):
        return [tiles[i] for i in range(n) if mask >> i & 1]

    def single_allowed(mask):
        if one_die == "never" or dice == 1:
            return False
        if one_die == "always":
            return True
        if one_die == "max6":
            return max(open_tiles(mask)) <= 6
        return sum(open_tiles(mask)) <= 6  # sum6

    @cache
    def win(mask):
        """Chance of shutting the box from the open tiles `mask`, before rolling."""
        if mask == 0:
            return one

        def after_roll(dist):
            expected = zero
            for total, p in dist.items():
                best = zero  # no legal move: the game is over and lost
                for shut in ways.get(total, ()):
                    if shut & mask == shut:
                        best = max(best, win(mask & ~shut))
                expected += p * best
            return expected

        if not single_allowed(mask):
            return after_roll(normal)
        if one_die_mode == "forced":
            return after_roll(single)
        return max(after_roll(normal), after_roll(single))

    value = win(full)
    return value, win.cache_info().currsize


def main(argv=None):
    # Runs as a plain script (python benchmarks/recursive.py) from the repo root.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from benchmarks.options import rule_parser

    ap = rule_parser(__doc__.splitlines()[0])
    args = ap.parse_args(argv)

    tiles = args.tiles
    sys.setrecursionlimit(max(1000, 10 * len(tiles) + 100))
    start = time.perf_counter()
    value, positions = solve(tiles, args.dice, args.faces, args.one_die, args.one_die_mode,
                             exact=args.exact)
    seconds = time.perf_counter() - start

    if args.exact:
        out = {"value": f"{value.numerator}/{value.denominator}", "value_float": float(value)}
    else:
        out = {"value": value}
    out.update(states=positions, seconds=seconds)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
