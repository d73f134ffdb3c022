"""How long a game lasts under a way of playing: the chance that it ends after each number
of moves (an action taken) or, in a game two players take in turns, of turns (the first
turn is 1; each transition that passes the turn starts the next).

The chance of every state, split by who is to move there (as :mod:`mdp.engine.flows`
splits it), is pushed one move at a time through every transition of the model; what
arrives at a terminal state ends there. Counting turns, the flow that passes the turn is
held back until the turn's own flow has ended or passed. A game without cycles ends within
as many moves as it has layers: the whole distribution, exactly in rationals where the play
is exact. A game whose states may come back has no longest game: its lengths are counted
until less than :data:`TAIL` of the games go on (or up to a length given), and the chance
of lasting longer is told apart. The mean is the expected number of moves, the sum of the
expected visits of the states where a player acts (:func:`mdp.engine.outcomes.visits`): a
linear solve, not a sum of the counted lengths.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

import numpy as np

from mdp.engine.arithmetic import objects
from mdp.engine.groups import ranks
from mdp.engine.model import CompiledModel
from mdp.engine.policy import Policy
from mdp.errors import ParamError

TAIL = 1e-9
"""A game whose states may come back is counted until less than this share of games go on."""

MOST_STEPS = 100_000
"""The most moves pushed, whatever is left: the rest is the chance of lasting longer."""

Count = Literal["moves", "turns"]


def lengths(model: CompiledModel, first: Policy, second: Policy, visits: np.ndarray, *,
            count: Count = "moves", up_to: int | None = None) -> tuple[list[Any], Any, Any]:
    """The chance that the game ends after 0, 1, 2, ... moves (or turns), the chance that
    it lasts longer than the last of them, and the mean: floats, or fractions where the
    policies are exact. ``first`` plays where the first player is to move, ``second``
    where the other is (the same policy in a game of one player); ``visits`` are the
    expected visits of every state under them (:func:`mdp.engine.outcomes.visits`)."""
    if count == "turns" and model.turns is None:
        raise ParamError(f"game {model.info.game} is played by one player, whose every move is "
                         "a turn of its own: count moves")
    exact, cyclic = first.exact, model.cyclic is not None
    if exact and cyclic and up_to is None:
        raise ParamError(f"game {model.info.game}: its states may come back, so that games of "
                         "every length can happen: count them exactly up to a length (up to), "
                         "or leave out exact")
    width = 2 if model.turns is not None else 1
    source, target, weight, passes = _transitions(model, [first, second][:width], exact)
    zero: Any = Fraction(0) if exact else 0.0
    ended = model.n_terminal * width
    if model.initial < model.n_terminal:  # over before it starts
        return [Fraction(1) if exact else 1.0], zero, zero
    flat = visits.reshape(-1)
    mean = flat[ended:].sum() if count == "moves" else \
        1 + (flat[source] * weight)[passes & (target >= ended)].sum()
    size = model.n_states * width

    def nothing() -> np.ndarray:
        return objects([zero] * size) if exact else np.zeros(size)

    def left(mass: np.ndarray, tail: float = TAIL) -> bool:
        return bool(mass.sum() != 0 if exact or not cyclic else mass.sum() > tail)

    every = _Edges(source, target, weight, size)
    passing = _Edges(source[passes], target[passes], weight[passes], size)
    staying = _Edges(source[~passes], target[~passes], weight[~passes], size)
    mass = nothing()
    mass[model.initial * width] = 1
    steps = MOST_STEPS if up_to is None else up_to
    chances: list[Any] = [zero]
    lost = zero  # counting turns: what a turn left under the tail's tail, never counted
    while len(chances) <= steps and left(mass):
        chances.append(zero)
        if count == "moves":
            mass = every.push(mass)
            chances[-1] += mass[:ended].sum()
            mass[:ended] = 0
            continue
        within, mass = mass, nothing()
        for _ in range(MOST_STEPS):  # the moves of one turn; the next turn's are held back
            mass += passing.push(within)
            within = staying.push(within)
            chances[-1] += within[:ended].sum() + mass[:ended].sum()
            within[:ended] = mass[:ended] = 0
            if not left(within, TAIL * TAIL):
                break
        lost += within.sum()
    return chances, mass.sum() + lost, mean


class _Edges:
    """Transitions, each from ``source`` to ``target`` with chance ``weight``, that push a
    flow of chance from the states that hold some (a turn's flow holds few)."""

    def __init__(self, source: np.ndarray, target: np.ndarray, weight: np.ndarray, size: int) -> None:
        order = np.argsort(source, kind="stable")
        self.source, self.target, self.weight = source[order], target[order], weight[order]
        self.starts = np.searchsorted(self.source, np.arange(size + 1))
        self.size = size

    def push(self, mass: np.ndarray) -> np.ndarray:
        held = np.flatnonzero(mass != 0)
        counts = self.starts[held + 1] - self.starts[held]
        edges = np.repeat(self.starts[held], counts) + ranks(counts)
        moving = mass[self.source[edges]] * self.weight[edges]
        if moving.dtype != object:
            return np.bincount(self.target[edges], moving, minlength=self.size).astype(np.float64, copy=False)
        pushed = objects([Fraction(0)] * self.size)
        np.add.at(pushed, self.target[edges], moving)
        return pushed


def _transitions(model: CompiledModel, plays: list[Policy],
                 exact: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every transition taken with some chance, from each column of who is to move: where
    it leaves from and arrives (``state * width + column``), its chance, and whether it
    passes the turn."""
    action, successor, probability = model.edges()
    table = objects([Fraction(p) for p in model.probabilities]) if exact else \
        np.array([float(p) for p in model.probabilities])
    chance = probability >= 0
    p = objects([Fraction(1)] * len(action)) if exact else np.ones(len(action))
    p[chance] = table[probability[chance]]
    passes = model.turns.along(action, probability) if model.turns is not None else \
        np.zeros(len(action), dtype=bool)
    state = model.action_state().astype(np.int64)[action]
    width = len(plays)
    parts = []
    for column, play in enumerate(plays):
        weight = play.probabilities[action] * p
        taken = np.flatnonzero(weight != 0)
        arrive = np.where(passes, 1 - column, column) if width == 2 else np.zeros(len(action), dtype=np.int64)
        parts.append((state[taken] * width + column, successor[taken] * width + arrive[taken],
                      weight[taken], passes[taken]))
    return tuple(np.concatenate([part[i] for part in parts]) for i in range(4))  # type: ignore[return-value]
