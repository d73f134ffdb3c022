"""Two players taking turns at one game, each state seen from the player to move: a game says
which transitions pass the turn (:func:`~mdp.hookspecs.game.mdp_turns`), and the value of a
state is the mover's. Where a transition passes the turn, its successor's value ``v`` is the
other player's, and counts as ``total - v`` for the mover: ``total`` is 1 where values are
chances of winning, 0 for a zero-sum score. The compile asks the game
(:func:`passed_turns`, which checks the answer) and :meth:`mdp.CompiledModel.backup` applies it;
nothing else in the engine needs to know whose turn it is."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.engine.numeric import FLOAT_MOST, quoted
from mdp.errors import ModelError, said

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.game.load import Game


def _total(value: Any) -> int | Fraction:
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


def passed_turns(game: Game, model: CompiledModel) -> PassedTurns | None:
    """Ask the game which of a compiled model's transitions pass the turn; ``None`` for a
    game of one player (no :func:`~mdp.hookspecs.game.mdp_turns`). Refused: a ``total`` that
    takes a chance of winning out of 0 to 1 (any but 1, where the objective is a
    probability) or that no float holds, and an answer of ``passes`` other than one boolean
    per transition, naming the first transition without one."""
    turns = game.call("mdp_turns") if game.implements("mdp_turns") else None
    if turns is None:
        return None
    if not isinstance(turns, Turns):
        raise ModelError(f"game {game.name}: mdp_turns returned {turns!r}, not an mdp.Turns")
    if game.objective.probability and turns.total != 1:
        raise ModelError(f"game {game.name}: mdp_turns gave total={quoted(turns.total)}, but mdp_objective "
                         "says the values are probabilities: the mover's chance is one less the "
                         "other's, total=1")
    if abs(Fraction(turns.total)) > FLOAT_MOST:
        raise ModelError(f"game {game.name}: mdp_turns gave total={quoted(turns.total)}, past "
                         "what a float holds (about 1.8e308)")
    action, successor, _ = model.edges()
    state = model.action_state()[action]
    states = model.states
    if isinstance(states, np.ndarray):
        before, after = states[state], states[successor]
    else:
        before = [states[i] for i in state.tolist()]
        after = [states[i] for i in successor.tolist()]
    try:
        answer = turns.passes(before, after)
        flags = np.asarray(answer)
    except Exception as error:  # noqa: BLE001 - the game's fault, said in one line
        raise ModelError(f"game {game.name}: mdp_turns: passes raised "
                         f"{type(error).__name__}: {error}") from None
    if flags.shape != (len(action),) or flags.dtype != bool:
        raise ModelError(f"game {game.name}: mdp_turns: passes gave {flags.dtype} of shape "
                         f"{flags.shape}, not a boolean per transition ({len(action)})"
                         f"{_first_wrong(flags, before, after)}")
    certain = model.action_next >= 0
    counts = np.ones(model.n_actions, dtype=np.int64)
    counts[~certain] = np.diff(model.chance_start)
    of_outcome = np.repeat(~certain, counts)
    by_action = np.zeros(model.n_actions, dtype=bool)
    by_action[certain] = flags[~of_outcome]
    return PassedTurns(turns.total, by_action, flags[of_outcome])


def _first_wrong(flags: np.ndarray, before: Any, after: Any) -> str:
    """Where the answer of ``passes`` goes wrong first, in words: the first transition with
    no boolean (``"; the first: 'a' -> 'b' gave 2"``), or nothing where none is known."""
    if flags.ndim != 1:
        return ""
    at = next((i for i, flag in enumerate(flags.tolist()[:len(before)])
               if not isinstance(flag, bool)), min(len(flags), len(before)))
    if at >= len(before):
        return ""
    got = f"gave {quoted(flags[at].item() if isinstance(flags[at], np.generic) else flags[at])}" \
        if at < len(flags) else "has no answer"
    return f"; the first wrong: {said(before[at])} -> {said(after[at])} {got}"
