"""Two players taking turns at one game, each state seen from the player to move: a game says
which transitions pass the turn (:func:`~mdp.hookspecs.game.mdp_turns`), and the value of a
state is the mover's. Where a transition passes the turn, its successor's value ``v`` is the
other player's, and counts as ``total - v`` for the mover: ``total`` is 1 where values are
chances of winning, 0 for a zero-sum score. The compile asks the game
(:func:`mdp.engine.compile.passed_turns`, which checks the answer) and
:meth:`mdp.CompiledModel.backup` applies it;
nothing else in the engine needs to know whose turn it is."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np


def _total(value: Any) -> int | Fraction:
    if isinstance(value, np.integer) and not isinstance(value, np.bool_):  # NumPy's: by its value
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"Turns: total must be an int or a Fraction (1 for chances of "
                        f"winning, 0 for a zero-sum score), not {value!r}")
    return value


@attrs.frozen
class Turns:
    """How two players take turns at a game whose states are seen from the player to move
    (:func:`~mdp.hookspecs.game.mdp_turns`).

    ``passes(states, next_states)`` says, for many transitions at once, whether each passes
    the turn to the other player: two parallel sequences (integer arrays for a batch game,
    lists of states for a game of per-state hooks), and a boolean per pair in return. A
    transition is known by its two states. ``total`` is what the two players' values add up
    to: 1 for chances of winning (the mover's chance is one less the other's), 0 for a
    zero-sum score."""

    passes: Callable[[Any, Any], Any]
    total: int | Fraction = attrs.field(default=1, converter=_total)


@attrs.frozen(eq=False)
class PassedTurns:
    """Where a compiled model's transitions pass the turn: ``certain`` per action (an action
    of one certain outcome), ``outcome`` per outcome of a chance action, and the ``total``
    the two players' values add up to."""

    total: int | Fraction
    certain: np.ndarray = attrs.field(repr=False)
    outcome: np.ndarray = attrs.field(repr=False)

    def along(self, action: np.ndarray, probability: np.ndarray) -> np.ndarray:
        """Whether each transition of :meth:`mdp.CompiledModel.edges` (its ``action`` and
        ``probability`` id, -1 for an action's one certain outcome) passes the turn."""
        passes = np.zeros(len(action), dtype=bool)
        chance = probability >= 0
        passes[~chance] = self.certain[action[~chance]]
        passes[chance] = self.outcome
        return passes

    def turned(self, values: np.ndarray, flip: np.ndarray) -> np.ndarray:
        """``values`` (a row per transition, gathered fresh) with the rows that pass the turn
        seen from the mover: ``total - v``; changed in place and returned."""
        if flip.any():
            values[flip] = self.total - values[flip]
        return values
