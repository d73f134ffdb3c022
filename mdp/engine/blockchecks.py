"""The checks of a block's numbers, beside discovery, for both ways of discovering alike:
its probabilities are numbers, not negative, and each action's sum to 1, its terminal values
are finite numbers a float holds (of 0 to 1 where they are probabilities). A pass over every
outcome: what is cheap to check as a hook answers (the sizes of an expansion's arrays among
it) is :mod:`mdp.engine.checks`'s."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine import numeric
from mdp.engine.checks import not_a_chance, shown
from mdp.engine.expansion import Expansion
from mdp.engine.groups import starts
from mdp.engine.numeric import fault, first_fault, first_float, first_past_float, quoted, written
from mdp.engine.places import Finding, Place, place
from mdp.engine.sums import PROBABILITY_TOLERANCE, action_sums


@attrs.define
class BlockChecks:
    """The checks of a block's arrays (their types were seen to where the hook was called):
    which hook gave the probabilities and which the terminal values, and the first float of
    each met so far."""

    game: str
    probability_hook: str
    value_hook: str
    chances: bool = False
    """Whether the objective says the values are probabilities: terminal values of 0 to 1
    (every value is then a mean of them), never shown as a chance of 150%."""
    inexact: tuple[str, Place] | None = None
    inexact_value: tuple[str, Place] | None = None
    tiny: tuple[str, Place] | None = None
    """The first exact number not 0 that a float makes 0 or loses digits of (below about
    2.2e-308): a solve in floats is then refused (:func:`mdp.engine.terminal.check_terminal`)."""

    def check(self, keys: np.ndarray, e: Expansion) -> tuple[int, int]:
        """Check a block; return its number of actions, and how many of them have one
        outcome of probability 1 (choices). It calls no hook: a fault is raised as a
        :class:`Finding`."""
        n_actions = int(np.sum(e.action_counts))  # (the sizes agree: batch_answers.expand)
        certain = self.probabilities(keys, e)
        self.terminal_values(keys, e)
        return n_actions, certain

    def probabilities(self, keys: np.ndarray, e: Expansion) -> int:
        """Check that each action's probabilities are numbers, non-negative and sum to 1;
        return how many actions have one outcome of probability 1 (choices)."""
        counts, ids, table = e.outcome_counts, e.probabilities, e.probability_table
        if counts is None:
            return len(e.next_states)
        assert ids is not None  # both or neither (Expansion.choices)
        if not len(counts):
            return 0
        hook = self.probability_hook
        is_one = np.array([fault(p) is None and p == 1 for p in table] or [False], dtype=bool)
        if counts.min() == counts.max() == 1 and len(ids) and ids.min() >= 0 \
                and ids.max() < len(table) and is_one[ids].all():
            return len(counts)  # every action a choice: nothing more to check
        bounds = starts(counts)  # each action's first outcome, and the end of the last
        ends = bounds[1:]

        def culprit(index: int, problem: str, *, outcome: bool = True) -> Finding:
            action = int(np.searchsorted(ends, index, side="right")) if outcome else index
            return Finding(hook, problem, place(keys, e, action=action))

        empty = np.flatnonzero(counts < 1)
        if len(empty):
            raise culprit(int(empty[0]), "probabilities sum to 0, not 1", outcome=False)
        if len(ids) and (ids.min() < 0 or ids.max() >= len(table)):
            outside = np.flatnonzero((ids < 0) | (ids >= len(table)))
            raise culprit(int(outside[0]), f"probability id {int(ids[outside[0]])}, outside its "
                          f"probability_table of {len(table)}")
        used = np.zeros(len(table), dtype=bool)
        used[ids] = True
        for i in np.flatnonzero(used).tolist():
            p = table[i]
            problem = fault(p)
            if problem or p < 0:
                shown = f"probability {quoted(p)} {problem}" if problem else \
                    f"negative probability {written(p)}"
                raise culprit(_first_use(ids, i), shown)
            if self.tiny is None and numeric.below_floats(p):
                self.tiny = (f"probability {quoted(p)}", _use_place(keys, e, ids, ends, i))
            if self.inexact is None and first_float([p]) is not None:
                self.inexact = (f"probability {p!r}", _use_place(keys, e, ids, ends, i))
        sums, one = action_sums(table, ids, counts, bounds)
        exact = not isinstance(one, float)  # rational: integers over their common denominator
        wrong = np.flatnonzero(sums != one if exact else np.abs(sums - 1) > PROBABILITY_TOLERANCE)
        if len(wrong):
            total = written(Fraction(int(sums[wrong[0]]), one)) if isinstance(one, int) \
                else f"{sums[wrong[0]]:.12g}"
            raise culprit(int(wrong[0]), f"probabilities sum to {total}, not 1", outcome=False)
        return int(np.count_nonzero((counts == 1) & is_one[ids[bounds[:-1]]]))

    def terminal_values(self, keys: np.ndarray, e: Expansion) -> None:
        values = e.terminal_values
        if isinstance(values, np.ndarray) and values.dtype.kind not in "iuf":
            values = values.tolist()
        bad = first_fault(values)
        if bad is None:  # a game's own values are printed and summed in floats too
            huge = first_past_float(values)
            if huge is not None:
                bad = (huge[0], huge[1], "is past what a float holds (about 1.8e308)")
        if bad is None and self.tiny is None and not (isinstance(values, np.ndarray)
                                                      and values.dtype.kind in "iuf"):
            small = next((i for i, v in enumerate(values) if numeric.below_floats(v)), None)
            if small is not None:
                self.tiny = (f"value {quoted(values[small])}", _terminal_place(keys, e, small))
        if bad is None and self.inexact_value is None:
            inexact = first_float(values)
            if inexact is not None:
                self.inexact_value = (f"value {inexact[1]!r}",
                                      _terminal_place(keys, e, inexact[0]))
        if bad is not None:
            position, value, problem = bad
            raise Finding(self.value_hook, f"terminal value {shown(value)} {problem}",
                          _terminal_place(keys, e, position))
        if self.chances:
            self._chances(keys, e, values)

    def _chances(self, keys: np.ndarray, e: Expansion, values: Any) -> None:
        """Refuse a terminal value outside 0 to 1 where the values are probabilities."""
        if isinstance(values, np.ndarray):
            outside = np.flatnonzero((values < 0) | (values > 1))
            position = int(outside[0]) if len(outside) else None
        else:
            position = next((i for i, v in enumerate(values) if not 0 <= v <= 1), None)
        if position is not None:
            value = values[position]
            value = value.item() if isinstance(value, np.generic) else value
            raise Finding(self.value_hook, f"terminal value {written(value)} is not from 0 to 1, "
                          "though mdp_objective says the values are probabilities",
                          _terminal_place(keys, e, position), not_a_chance)


def _first_use(probabilities: np.ndarray, table_id: int) -> int:
    """The first outcome whose probability is ``table_id``."""
    return int(np.flatnonzero(probabilities == table_id)[0])


def _use_place(keys: np.ndarray, e: Expansion, probabilities: np.ndarray, ends: np.ndarray,
               table_id: int) -> Place:
    """The place (its action's) of the first outcome whose probability is ``table_id``;
    ``ends``, where each action's outcomes end."""
    action = int(np.searchsorted(ends, _first_use(probabilities, table_id), side="right"))
    return place(keys, e, action=action)


def _terminal_place(keys: np.ndarray, e: Any, position: int) -> Place:
    """The place of an expansion's ``position``-th terminal state."""
    return place(keys, e, state=int(np.flatnonzero(np.asarray(e.action_counts) == 0)[position]))
