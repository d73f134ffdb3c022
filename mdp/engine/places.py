"""Places in a game's words: where a check of a batch game's answer found something (a
state's key and an action's label, asked of the game again where it gave none), named as the
game names its states and actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from mdp.engine.batch_answers import expand
from mdp.engine.expansion import Expansion, action_place
from mdp.game.load import Game, describe


def where(game: Game, keys: np.ndarray, e: Expansion, *, outcome: int | None = None,
          action: int | None = None) -> str:
    """Outcome number ``outcome`` (or action number ``action``) of an expansion of
    ``keys``, in the game's words."""
    if action is None:
        assert outcome is not None, "an outcome or an action to name"
        action = outcome if e.outcome_counts is None else \
            int(np.searchsorted(np.cumsum(e.outcome_counts), outcome, side="right"))
    return describe(game, *place(keys, e, action=action).named(game))


def label_again(game: Game, key: int, number: int) -> Any:
    """The label of action number ``number`` of the state ``key``, asked of the game again."""
    actions = expand(game, np.array([key], dtype=np.int64), labels=True).actions
    if actions is None or not 0 <= number < len(actions):
        return number
    return actions[number]


class Place(NamedTuple):
    """Where a check found something: a state's key and, for an action, the label the game
    gave it, or else its number among its state's actions (to ask the game again). (A named
    tuple: an attrs class costs half a millisecond of every start.)"""

    key: int
    label: Any = None
    number: int | None = None

    def named(self, game: Game) -> tuple[int, Any]:
        """The key and the action's label (asked of the game again where it gave none)."""
        label = self.label if self.number is None else label_again(game, self.key, self.number)
        return self.key, label


class Finding(Exception):
    """A fault a check found (``what``, in ``hook``'s answer) and its place, to be named in
    the game's words on the thread that calls the game."""

    def __init__(self, hook: str, what: str, place: Place,
                 faulty: Callable[[Any], bool] | None = None) -> None:
        super().__init__(what)
        self.hook, self.what, self.place, self.faulty = hook, what, place, faulty


def place(keys: np.ndarray, e: Any, *, action: int | None = None, state: int | None = None) -> Place:
    """The place of action number ``action`` of an expansion of ``keys``, or of its
    ``state``-th state."""
    if action is None:
        return Place(int(keys[state]))
    key, label, number = action_place(keys, e, action)
    return Place(key, label) if e.actions is not None else Place(key, number=number)
