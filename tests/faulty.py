"""Hooks that misbehave on demand, for the property test of tests/game/test_properties.py.

A hook decorated with :func:`injectable` behaves until :data:`ACTIVE` names it; then, from
its call number ``after + 1`` on, it does what the fault's kind says: raises (an exception,
``SystemExit``, ``KeyboardInterrupt``, ``MemoryError``), answers with an object of no use,
answers with a number that is not finite where it gives numbers, or gives its answer in
another order where it gives a list. The games: tests/faulty_dice.py (per-state hooks) and
tests/faulty_ladder.py (batch hooks).
"""

import functools
import math
from collections import Counter
from typing import NamedTuple

import attrs
import numpy as np

import mdp
from mdp.engine.groups import ranks as ragged_arange
from mdp.engine.groups import starts as offsets

KINDS = ("raise", "exit", "interrupt", "memory", "type", "nan", "reorder")


class Fault(NamedTuple):
    hook: str
    kind: str
    after: int
    """Calls of the hook that behave before the fault starts."""


ACTIVE: Fault | None = None
CALLS: Counter = Counter()
"""The calls of each hook (by name) since the last :func:`inject`."""


def inject(fault: Fault | None) -> None:
    """Make ``fault`` the one fault of the hooks from now on (``None``: none), the calls of
    every hook counted afresh (:data:`CALLS`)."""
    global ACTIVE
    ACTIVE = fault
    CALLS.clear()


def injectable(hook):
    """The hook, with the fault :data:`ACTIVE` names done to it (apply under ``hookimpl``)."""

    @functools.wraps(hook)
    def misbehaving(*args, **kwargs):
        fault = ACTIVE
        CALLS[hook.__name__] += 1
        if fault is None or fault.hook != hook.__name__ or CALLS[fault.hook] <= fault.after:
            return hook(*args, **kwargs)
        if fault.kind == "raise":
            raise RuntimeError("injected")
        if fault.kind == "exit":
            raise SystemExit(0)
        if fault.kind == "interrupt":
            raise KeyboardInterrupt
        if fault.kind == "memory":
            raise MemoryError
        if fault.kind == "type":
            return Useless()
        answer = hook(*args, **kwargs)
        return (not_finite if fault.kind == "nan" else reordered)(answer)

    return misbehaving


class Useless:
    """An answer of no kind a hook gives."""

    def __repr__(self) -> str:
        return "Useless()"


def not_finite(answer):
    """The answer with its first number made NaN, where the engine reads it as a number: a
    probability, a terminal value, a stage, a count of states."""
    if isinstance(answer, mdp.Expansion):
        return attrs.evolve(answer, probability_table=(math.nan, *answer.probability_table[1:]))
    if isinstance(answer, np.ndarray):
        return np.where(np.arange(len(answer)) == 0, np.nan, answer)
    if isinstance(answer, list) and answer and isinstance(answer[0], tuple):  # outcomes
        return [(math.nan, answer[0][1]), *answer[1:]]
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return math.nan
    return answer  # no number the engine reads: as it was


def reordered(answer):
    """The answer in another order, where it is a list of actions or outcomes; an expansion
    with each state's actions (and their outcomes) in reverse order."""
    if isinstance(answer, list):
        return answer[::-1]
    if isinstance(answer, mdp.Expansion):
        counts = np.asarray(answer.action_counts, dtype=np.int64)
        order = np.repeat(offsets(counts)[1:] - 1, counts) - ragged_arange(counts)
        actions = None if answer.actions is None else np.asarray(answer.actions)[order]
        if answer.all_choices:
            return mdp.Expansion.choices(counts, actions, np.asarray(answer.next_states)[order],
                                         answer.terminal_values)
        outcome_counts = np.asarray(answer.outcome_counts, dtype=np.int64)[order]
        outcomes = np.repeat(offsets(answer.outcome_counts)[:-1][order], outcome_counts) \
            + ragged_arange(outcome_counts)
        return attrs.evolve(answer, actions=actions, outcome_counts=outcome_counts,
                            next_states=np.asarray(answer.next_states)[outcomes],
                            probabilities=np.asarray(answer.probabilities)[outcomes])
    return answer
