"""What discovery hands to the compile step: blocks of states of one level with their
:class:`Expansion`, as the game gave it (both ways of discovering give the same arrays)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import attrs
import numpy as np


@attrs.frozen(eq=False)
class Expansion:
    """The transitions of a batch of states, as arrays (see :func:`~mdp.hookspecs.game.mdp_expand`).

    Rows follow the order of the states expanded; the actions of one state, and the outcomes
    of one action, are consecutive.
    """

    action_counts: np.ndarray
    """Per state: how many actions it has; 0 makes it terminal."""
    actions: Any
    """Per action: an integer code the game decodes for tables (any labels, per state);
    ``None`` when the game was asked for no labels (see :func:`~mdp.hookspecs.game.mdp_expand`)."""
    outcome_counts: np.ndarray | None
    """Per action: how many outcomes it has (at least one); ``None`` from :meth:`choices`."""
    next_states: np.ndarray
    """Per outcome: the key of the state it leads to."""
    probabilities: np.ndarray | None
    """Per outcome: an index into ``probability_table``; ``None`` from :meth:`choices`."""
    probability_table: tuple[Any, ...]
    """The distinct probabilities: ``int`` or ``Fraction`` (exact), or ``float``."""
    terminal_values: Any
    """Per terminal state, in order: its value (an integer or float array, or a sequence of
    ``int``/``Fraction``)."""

    @classmethod
    def choices(cls, action_counts: np.ndarray, actions: Any, next_states: np.ndarray,
                terminal_values: Any) -> Expansion:
        """An expansion in which every action leads to one state for certain (a choice, as
        against a throw of chance): one next state per action, and no outcome arrays."""
        return cls(action_counts, actions, None, next_states, None, (1,), terminal_values)

    @property
    def all_choices(self) -> bool:
        """Whether it was made by :meth:`choices`."""
        return self.outcome_counts is None

    def outcomes_per_state(self) -> np.ndarray:
        """How many outcomes each state has, over its actions."""
        counts = self.action_counts.astype(np.int64)
        ends = np.concatenate(([0], np.cumsum(self._per_action())))[np.cumsum(counts)]
        return np.diff(np.concatenate(([0], ends)))

    def prints(self) -> np.ndarray:
        """A 64-bit fingerprint of each state's answer: its actions, and each one's outcomes
        in order, their next states and chances (by value), or its terminal value (by value):
        to tell an answer asked again that is another."""
        counts, per_action = self.action_counts.astype(np.int64), self._per_action()
        action = np.repeat(np.arange(len(per_action)), per_action)  # of each outcome
        first_action = np.repeat(np.cumsum(counts) - counts, counts)  # of each action's state
        chances = np.zeros(len(action), dtype=np.int64)
        if self.probabilities is not None:  # an id past the table: one print (refused after)
            table = np.array([_value_print(p) for p in self.probability_table] + [1], dtype=np.int64)
            ids = self.probabilities.astype(np.int64)
            chances = table[np.where((ids >= 0) & (ids < len(table) - 1), ids, len(table) - 1)]
        mixed = (self.next_states.astype(np.int64).view(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
                 + chances.view(np.uint64) * np.uint64(0xBF58476D1CE4E5B9)
                 + (action - first_action[action] + 1).astype(np.uint64) * np.uint64(0x94D049BB133111EB)
                 + (np.arange(len(action)) - np.repeat(np.cumsum(per_action) - per_action, per_action)
                    ).astype(np.uint64))
        for shift, times in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):  # mixed each
            mixed = (mixed ^ (mixed >> np.uint64(shift))) * np.uint64(times)  # apart: no sums alike
        summed = np.concatenate(([np.uint64(0)], np.cumsum(mixed, dtype=np.uint64)))  # (wrapping)
        ends = np.cumsum(self.outcomes_per_state())
        prints = summed[ends] - summed[ends - self.outcomes_per_state()] ^ counts.astype(np.uint64)
        values = self.terminal_values
        values = values.tolist() if isinstance(values, np.ndarray) else list(values)
        terminal = np.flatnonzero(counts == 0)
        if len(values) == len(terminal):  # (else refused as the block is checked)
            prints[terminal] ^= np.array([_value_print(v) for v in values], dtype=np.int64
                                         ).view(np.uint64) * np.uint64(0xD6E8FEB86659FD93)
        return prints

    def _per_action(self) -> np.ndarray:
        return np.ones(int(self.action_counts.sum()), dtype=np.int64) if self.outcome_counts is None \
            else self.outcome_counts.astype(np.int64)


def _value_print(value: Any) -> int:
    """A number's print, by its exact value (``Fraction(1, 2)`` as ``0.5``; not Python's
    hash, which is -2 for -1 and -2 alike); by its text for inf and NaN; one for what is no
    number (refused as the block is checked)."""
    try:
        return hash(str(Fraction(value)))
    except Exception:  # noqa: BLE001  (inf, NaN, or a game's object whose methods may raise)
        try:
            return hash(repr(float(value)))
        except Exception:  # noqa: BLE001
            return 0


@attrs.frozen(eq=False)
class Block:
    """States of one level and their expansion; every transition leads to a lower level."""

    level: int
    keys: np.ndarray
    """The states' keys: sorted, distinct 64-bit integers."""
    expansion: Expansion


@attrs.frozen(eq=False)
class Discovery:
    """What a walk found: the initial state's key, the blocks (an iterator: the batch way
    yields each stage as it is expanded), and the state objects that the keys index, for a
    game whose states are not integers."""

    initial: int
    blocks: Iterator[Block]
    objects: list[Any] | None = None
    label_prints: list[int] | None = None
    """Per key, :func:`~mdp.engine.walk.label_print` of the state's actions, where the walk
    met their labels."""
    cyclic: bool = False
    """Whether some states may come back (:mod:`mdp.engine.cycles`)."""
    column_prints: list[int] | None = None
    """Per key, :func:`~mdp.game.columns.row_print` of the state's readable columns, where
    the walk asked for them."""

    def state(self, key: int) -> Any:
        """The state that ``key`` stands for, as the game wrote it."""
        return self.objects[key] if self.objects is not None else key


def action_place(keys: np.ndarray, expansion: Expansion, action: int) -> tuple[int, Any, int]:
    """Action number ``action`` of an expansion of ``keys``: its state's key, its label as the
    game gave it (``None`` if it gave none) and its number among its state's actions."""
    ends = np.cumsum(expansion.action_counts)
    state = int(np.searchsorted(ends, action, side="right"))
    label = None if expansion.actions is None else expansion.actions[action]
    return int(keys[state]), label, action - int(ends[state] - expansion.action_counts[state])
