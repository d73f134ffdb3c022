"""The rules of a loaded game of Shut the Box: its :class:`~.box.Box`, with the moves and the
scoring rules that the game and its rule plugins give (see :mod:`.hookspecs`)."""

from __future__ import annotations

import functools

import numpy as np

import mdp

from .box import Box


def box(game: mdp.Game) -> Box:
    """The rules of a loaded game, with their lookup tables (made once per rule set)."""
    return game.memo("shutbox.box", lambda: Box.of(
        game.params, scoring=scoring_rules(game)[game.params["scoring"]], moves=_moves(game)))


def _moves(game: mdp.Game):
    """``total -> masks`` from the shutbox_moves hook (which plugins wrap), once per total,
    in the game's order of moves: the highest tile first (masks descending: 9, 1 8, 2 7, 3 6,
    1 2 6, ...). Where several moves are optimal, the engine's default tie rule takes the first."""

    @functools.cache
    def moves(total: int) -> np.ndarray:
        return np.sort(np.array(game.call("shutbox_moves", total=total), dtype=np.int64))[::-1]

    return moves


def scoring_rules(game: mdp.Game) -> dict:
    """Every scoring rule on offer, the game's own first (pluggy answers newest first)."""
    groups = reversed(game.plugins.hook.shutbox_scoring_rules())
    return {rule.name: rule for group in groups for rule in group}
