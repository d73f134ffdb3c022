"""The hook of a game that two players take in turns (group 7 of :mod:`mdp.hookspecs.game`,
which holds it among a game's hooks: this module only keeps that one's length in bounds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mdp.hookspecs import hookspec

if TYPE_CHECKING:
    import mdp


@hookspec(firstresult=True)
def mdp_turns(params: Mapping[str, Any], game: mdp.Game) -> mdp.Turns | None:
    """Return how two players take turns: an :class:`mdp.Turns`, or ``None`` for a game of
    one player (the default).

    A game of two players describes each state as the player to move sees it (``me`` and
    ``opponent``, not first and second player), so that one state stands for both players'
    positions, and its value is the mover's: the engine maximizes for whoever is to move.
    ``Turns.passes`` says which transitions hand the move to the other player; the
    successor's value ``v`` is then the other player's, and counts for the mover as
    ``Turns.total - v``: one less the other's chance of winning (``total=1``), or minus the
    other's score in a zero-sum game (``total=0``); where the objective is a probability,
    any total but 1, and anywhere one no float holds, is refused. Terminal values are the mover's too:
    the player who made the last move, unless that move passed the turn. Such a game may
    come back to a state it has been in (see :func:`mdp_stage`); advice, the policy table
    and exact solving work as for any game.

    .. code-block:: python

        @hookimpl
        def mdp_turns():        # states are (me, opponent, turn total); a 0 turn total
            return mdp.Turns(   # is where the other player starts theirs
                lambda states, nexts: [n[2] == 0 for n in nexts], total=1)
    """
