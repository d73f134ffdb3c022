"""An independent Shut the Box solver, written plainly for the tests.

It shares no code with games/shutbox or plugins/: tiles are frozensets, rolls are
enumerated face by face with itertools.product, moves are found by a plain recursive search,
and each scoring rule is written out again from its description.
"""

import functools
import itertools
from fractions import Fraction


def solve(tiles, dice=2, faces=6, one_die="max6", one_die_mode="choice", *, schedule=None,
          weights=None, max_flips=None, doubles=False, scoring="win", payout=None, minimize=None):
    """The exact optimal (or, minimizing, worst) value of a game of Shut the Box.

    ``schedule``: ``[(low, high, dice)]`` over the total of shut tiles (``high`` None: open).
    ``doubles``: when two dice show the same face, the player may shut one more open tile
    besides a set adding up to the total. ``max_flips``: at most that many tiles shut per
    roll, the extra tile of a double counted. ``payout``: ``{final score: amount}``.
    ``minimize`` defaults to the scoring rule's aim.
    """
    tiles = frozenset(tiles)
    weights = weights or [Fraction(1, faces)] * faces
    if minimize is None:
        minimize = scoring in ("score", "digital")
    best = min if minimize else max

    @functools.cache
    def roll(n):
        """``{(total, double): probability}``, every throw of the n dice counted."""
        distribution = {}
        for faces_up in itertools.product(range(1, faces + 1), repeat=n):
            p = Fraction(1)
            for face in faces_up:
                p *= weights[face - 1]
            if p:
                rolled = (sum(faces_up), doubles and n == 2 and faces_up[0] == faces_up[1])
                distribution[rolled] = distribution.get(rolled, 0) + p
        return distribution

    def final_value(open_tiles):
        score = sum(open_tiles)
        if scoring == "win":
            return Fraction(int(not open_tiles))
        if scoring == "score":
            return Fraction(score)
        if scoring == "digital":
            return Fraction(int("".join(str(t) for t in sorted(open_tiles)) or "0"))
        if scoring == "payout":
            return Fraction(payout.get(score, 0))
        raise ValueError(scoring)

    def usual_dice(open_tiles):
        if schedule is None:
            return dice
        shut = sum(tiles) - sum(open_tiles)
        for low, high, n in schedule:
            if low <= shut and (high is None or shut <= high):
                return n
        raise ValueError(f"no dice for shut total {shut}")

    def dice_choices(open_tiles):
        usual = usual_dice(open_tiles)
        allowed = {
            "never": False,
            "max6": max(open_tiles) <= 6,
            "sum6": sum(open_tiles) <= 6,
            "always": True,
        }[one_die]
        if usual == 1 or not allowed:
            return [usual]
        return [usual, 1] if one_die_mode == "choice" else [1]

    def moves(open_tiles, total):
        """Every set of open tiles adding up to total."""
        found = []

        def search(chosen, remaining, left):
            if left == 0:
                found.append(frozenset(chosen))
                return
            for i, tile in enumerate(remaining):
                if tile <= left:
                    search(chosen + [tile], remaining[i + 1:], left - tile)

        search([], sorted(open_tiles), total)
        return found

    @functools.cache
    def before_roll(open_tiles):
        if not open_tiles:
            return final_value(open_tiles)
        return best(
            sum(p * after_roll(open_tiles, total, double) for (total, double), p in roll(n).items())
            for n in dice_choices(open_tiles)
        )

    def after_roll(open_tiles, total, double=False):
        options = moves(open_tiles, total)
        if double:  # each move, and each move with one more open tile
            options = set(options) | {m | {extra} for m in options for extra in open_tiles - m}
        # the flip limit counts every tile shut in the roll, a double's extra one too
        options = [m for m in options if max_flips is None or len(m) <= max_flips]
        if not options:
            return final_value(open_tiles)
        return best(before_roll(open_tiles - shut) for shut in options)

    return before_roll(tiles)
