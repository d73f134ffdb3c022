"""A game's parameters left as they were: a hook is handed them to read, and one that
changes a value it was handed (appends to a list, writes into an array) would have another
game solved than the one asked for, and JSON record what no one set. What the parameters
show (:meth:`~mdp.game.load.Game.shown_params`) is kept as the game loads, before any hook
runs, and compared where control comes back from the game's code."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from mdp.errors import PLUGIN_FAULTS, ModelError, said
from mdp.game.params import alike

if TYPE_CHECKING:
    from mdp.game.load import Game

KEPT = "params shown"
"""The key of the game's memo that keeps its parameters as they showed as it loaded."""


def keep_shown(game: Game) -> None:
    """Keep the parameters as ``game`` shows them, a copy of each (one that cannot be copied
    is not kept, nor compared), before any of its hooks runs."""
    kept: dict[str, Any] = {}
    for name, value in game.shown_params().items():
        try:
            kept[name] = copy.deepcopy(value)
        except PLUGIN_FAULTS:
            continue
    game.memo(KEPT, dict).update(kept)


def check_params(game: Game) -> None:
    """Refuse, in one line that names the game and the parameter, a value of a parameter
    that the game's code changed since :func:`keep_shown`: compared as the parameters show."""
    kept = game.memo(KEPT, dict)
    if not kept:
        return
    now = game.shown_params()
    for name, was in kept.items():
        if alike(now[name], was) is False:
            raise ModelError(f"game {game.name}: parameter {name} was {said(was):.60} as the "
                             f"game loaded and is {said(now[name]):.60} now: its code changed "
                             "it; a hook reads its parameters and leaves them as they are")
