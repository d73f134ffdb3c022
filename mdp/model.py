"""The compiled model: a game's states and transitions as arrays, ready to be solved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 the float probabilities of one action may sum (rational ones must be 1)."""


@attrs.frozen(eq=False)
class CompiledModel:
    """Every reachable state of a game, numbered so that successors come first.

    States are grouped in *layers*: layer 0 holds the terminal states, and every transition
    leads from a state to one in a lower layer, so layers can be solved one after another.
    States ``layer_start[k]`` to ``layer_start[k + 1] - 1`` form layer ``k``.

    The transitions are stored in compressed rows: the actions of state ``s`` are numbered
    ``action_start[s]`` to ``action_start[s + 1] - 1``, the outcomes of action ``a`` are
    ``outcome_start[a]`` to ``outcome_start[a + 1] - 1``, and outcome ``o`` leads to state
    ``outcome_next[o]`` with probability ``probabilities[outcome_prob[o]]``.
    """

    game: Any = attrs.field(repr=False)
    """The :class:`mdp.Game` explored, for labels and hooks."""
    states: Sequence[Any] = attrs.field(repr=False)
    actions: Sequence[Any] = attrs.field(repr=False)
    layer_start: np.ndarray = attrs.field(repr=False)
    action_start: np.ndarray = attrs.field(repr=False)
    outcome_start: np.ndarray = attrs.field(repr=False)
    outcome_next: np.ndarray = attrs.field(repr=False)
    outcome_prob: np.ndarray = attrs.field(repr=False)
    probabilities: tuple = attrs.field(repr=False)
    """The distinct probabilities, as the game gave them (``int``, ``Fraction`` or ``float``)."""
    terminal_values: Sequence[Any] = attrs.field(repr=False)
    """The value of each terminal state, in state order (states ``0`` to ``n_terminal - 1``):
    a tuple of numbers, or a numeric array."""
    initial: int
    inexact: str | None = None
    """Where the game gave a float probability or value, if it did: exact solving refuses."""
    _ids: dict | None = attrs.field(default=None, init=False, repr=False)

    @property
    def n_states(self) -> int:
        """Number of states."""
        return len(self.action_start) - 1

    @property
    def n_actions(self) -> int:
        """Number of actions, over all states."""
        return len(self.outcome_start) - 1

    @property
    def n_outcomes(self) -> int:
        """Number of outcomes, over all actions."""
        return len(self.outcome_next)

    @property
    def n_terminal(self) -> int:
        """Number of terminal states (layer 0)."""
        return int(self.layer_start[1])

    @property
    def n_layers(self) -> int:
        """Number of layers."""
        return len(self.layer_start) - 1

    def state_id(self, state: Any) -> int:
        """The id of a state given as the game writes it; ``KeyError`` if unreachable."""
        if isinstance(self.states, np.ndarray):
            found = np.flatnonzero(self.states == state)
            if not len(found):
                raise KeyError(state)
            return int(found[0])
        if self._ids is None:
            object.__setattr__(self, "_ids", {s: i for i, s in enumerate(self.states)})
        return self._ids[state]

    def layer_of(self) -> np.ndarray:
        """The layer of every state, as an array."""
        return np.repeat(np.arange(self.n_layers, dtype=np.int32), np.diff(self.layer_start))

    def action_state(self) -> np.ndarray:
        """The state each action belongs to, as an array."""
        return np.repeat(np.arange(self.n_states), np.diff(self.action_start))


def ragged_arange(counts: np.ndarray) -> np.ndarray:
    """``[0, 1, .., counts[0] - 1, 0, 1, .., counts[1] - 1, ...]``: each item's position in
    its group, for groups of the given sizes (handy when building an :class:`mdp.Expansion`)."""
    ends = np.cumsum(counts, dtype=np.int64)
    return np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts, counts)


def offsets(counts) -> np.ndarray:
    """Start offsets of consecutive groups of the given sizes, with the total at the end."""
    result = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=result[1:])
    return result
