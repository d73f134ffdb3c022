"""The rules of Pig in force, and its states as integer keys.

A state is seen from the player to move: ``me`` (the mover's banked score), ``opponent``
and ``turn`` (the turn total so far), each below the goal, with ``me + turn`` below it too
(a roll that reaches the goal wins at once: holding then is never worse). Its key is
``(me * goal + opponent) * goal + turn``; the one terminal state, the mover has won, is
``goal ** 3``.
"""

from __future__ import annotations

from fractions import Fraction

import attrs
import numpy as np

import mdp

ROLL, HOLD = 0, 1
ACTIONS = ("roll", "hold")


@attrs.frozen
class Rules:
    goal: int
    faces: int
    dice: int

    @property
    def won(self) -> int:
        """The key of the terminal state: the player who just rolled has reached the goal."""
        return self.goal ** 3

    @property
    def outcomes(self) -> int:
        """What a throw's chances are counted in: ``faces ** dice``."""
        return self.faces ** self.dice

    def table(self) -> tuple[Fraction, ...]:
        """Probability ``k / outcomes`` has id ``k``."""
        return tuple(Fraction(k, self.outcomes) for k in range(self.outcomes + 1))

    def key(self, me, opponent, turn):
        return (me * self.goal + opponent) * self.goal + turn

    def split(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``me``, ``opponent`` and ``turn`` of keys that are not the terminal state."""
        rest, turn = np.divmod(keys, self.goal)
        me, opponent = np.divmod(rest, self.goal)
        return me, opponent, turn

    def describe(self) -> str:
        dice = "one die" if self.dice == 1 else "two dice (a 1 loses the turn, two 1s the score)"
        return f"Pig to {self.goal}, {dice} of {self.faces} faces"

    def throws(self) -> list[tuple[str, int, int]]:
        """What a throw can do, with its count of ``outcomes``: ``("pass", 0, n)`` loses the
        turn total, ``("reset", 0, n)`` the whole score, ``("add", points, n)`` adds."""
        if self.dice == 1:
            return [("pass", 0, 1)] + [("add", r, 1) for r in range(2, self.faces + 1)]
        sums: dict[int, int] = {}
        for d1 in range(2, self.faces + 1):
            for d2 in range(2, self.faces + 1):
                sums[d1 + d2] = sums.get(d1 + d2, 0) + 1
        return [("reset", 0, 1), ("pass", 0, 2 * (self.faces - 1))] + \
            [("add", s, n) for s, n in sorted(sums.items())]


def rules(game: mdp.Game) -> Rules:
    params = game.params
    return game.memo("rules", lambda: Rules(params["goal"], params["faces"], params["dice"]))
