"""An independent Shut the Box solver, written plainly for the tests.

It shares no code with games/shutbox: tiles are frozensets, rolls are enumerated face by
face with itertools.product, and moves are found with itertools.combinations.
"""

import functools
import itertools
from fractions import Fraction


def solve(tiles, dice=2, faces=6, one_die="max6", one_die_mode="choice", minimize=False):
    """The exact chance of shutting the box under optimal (or, minimizing, worst) play."""
    best = min if minimize else max

    @functools.cache
    def roll(n):
        counts = {}
        for faces_up in itertools.product(range(1, faces + 1), repeat=n):
            counts[sum(faces_up)] = counts.get(sum(faces_up), 0) + 1
        return {total: Fraction(count, faces**n) for total, count in counts.items()}

    def dice_choices(open_tiles):
        allowed = {
            "never": False,
            "max6": max(open_tiles) <= 6,
            "sum6": sum(open_tiles) <= 6,
            "always": True,
        }[one_die]
        if dice == 1 or not allowed:
            return [dice]
        return [dice, 1] if one_die_mode == "choice" else [1]

    @functools.cache
    def before_roll(open_tiles):
        if not open_tiles:
            return Fraction(1)
        return best(
            sum(p * after_roll(open_tiles, total) for total, p in roll(n).items())
            for n in dice_choices(open_tiles)
        )

    def after_roll(open_tiles, total):
        moves = [
            set(shut)
            for size in range(1, len(open_tiles) + 1)
            for shut in itertools.combinations(sorted(open_tiles), size)
            if sum(shut) == total
        ]
        if not moves:
            return Fraction(0)
        return best(before_roll(open_tiles - frozenset(shut)) for shut in moves)

    return before_roll(frozenset(tiles))
