"""Exploring a game a frontier at a time, through its batch hooks.

A game that implements :func:`~mdp.hookspecs.mdp_expand` describes the transitions of many
states at once as arrays, and gives each state a *stage* that every transition lowers. The
engine then expands the states of one stage together, from the highest stage down, and
compiles the whole model without a Python call per state.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational
from typing import Any

import attrs
import numpy as np

from mdp.errors import MdpError, ModelError, TooLarge
from mdp.model import PROBABILITY_TOLERANCE, CompiledModel, offsets


@attrs.frozen(eq=False)
class Expansion:
    """The transitions of a batch of states, as arrays (see :func:`~mdp.hookspecs.mdp_expand`).

    Rows follow the order of the states expanded; the actions of one state, and the outcomes
    of one action, are consecutive.
    """

    action_counts: np.ndarray
    """Per state: how many actions it has; 0 makes it terminal."""
    actions: np.ndarray
    """Per action: an integer code the game decodes for policy tables."""
    outcome_counts: np.ndarray
    """Per action: how many outcomes it has (at least one)."""
    next_states: np.ndarray
    """Per outcome: the key of the state it leads to."""
    probabilities: np.ndarray
    """Per outcome: an index into ``probability_table``."""
    probability_table: tuple
    """The distinct probabilities: ``int`` or ``Fraction`` (exact), or ``float``."""
    terminal_values: Any
    """Per terminal state, in order: its value (an integer or float array, or a sequence of
    ``int``/``Fraction``)."""


def explore_batch(game, *, max_states: int | None = None, progress=None) -> CompiledModel:
    """Explore a game through its batch hooks, a stage at a time from the highest."""
    initial = game.call("mdp_initial_state")
    if not isinstance(initial, (int, np.integer)):
        raise ModelError(f"game {game.name}: a game with mdp_expand needs an int initial state, "
                         f"not {initial!r}")
    pending: dict[int, list[np.ndarray]] = {}
    keys = np.array([initial], dtype=np.int64)
    _schedule(pending, keys, _stages(game, keys))
    table: dict[Any, int] = {}
    stages: list[_Stage] = []  # highest stage first
    explored = 0
    while pending:
        stage = max(pending)
        keys = _distinct(np.concatenate(pending.pop(stage))).astype(np.int64)
        explored += len(keys)
        if max_states is not None and explored > max_states:
            raise TooLarge(f"game {game.name}: more than {max_states:,} states")
        expansion = _expand(game, keys)
        next_stages = _stages(game, expansion.next_states)
        _check(game, keys, expansion, stage, next_stages)
        _schedule(pending, expansion.next_states, next_stages)
        stages.append(_Stage.of(keys, expansion, _merge_probabilities(table, expansion)))
        if progress:
            progress(f"explored {explored:,} states (stage {stage})")
    if progress:
        progress(f"compiling {explored:,} states")
    return _compile(game, table, stages)


@attrs.frozen(eq=False)
class _Stage:
    """An expanded stage, kept compact (narrow integer types) until the model is compiled."""

    keys: np.ndarray
    terminal: np.ndarray
    action_counts: np.ndarray
    actions: np.ndarray
    outcome_counts: np.ndarray
    next_states: np.ndarray
    probabilities: np.ndarray
    terminal_values: Any

    @classmethod
    def of(cls, keys: np.ndarray, e: Expansion, probabilities: np.ndarray) -> _Stage:
        terminal = np.asarray(e.action_counts) == 0
        return cls(keys, terminal, _narrow(np.asarray(e.action_counts)[~terminal]),
                   _narrow(e.actions), _narrow(e.outcome_counts), _narrow(e.next_states),
                   _narrow(probabilities), e.terminal_values)


def _narrow(values) -> np.ndarray:
    """The same integers in the narrowest type that holds them (memory is the limit)."""
    values = np.asarray(values)
    if values.dtype.kind not in "iu":
        return values
    if not len(values):
        return values.astype(np.uint8)
    low, high = values.min(), values.max()
    for kind, smallest, largest in _NARROW_TYPES:
        if smallest <= low and high <= largest:
            return values.astype(kind)
    return values.astype(np.int64)


_NARROW_TYPES = [(kind, np.iinfo(kind).min, np.iinfo(kind).max)
                 for kind in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32)]


def _stages(game, keys: np.ndarray) -> np.ndarray:
    stages = game.call("mdp_stage", states=keys)
    if stages is None:
        raise ModelError(f"game {game.name}: a game with mdp_expand must implement mdp_stage")
    return np.asarray(stages, dtype=np.int64)


def _schedule(pending: dict, keys: np.ndarray, stages: np.ndarray) -> None:
    if not len(stages):
        return
    low = int(stages.min())
    for stage in np.flatnonzero(np.bincount(stages - low)) + low:
        pending.setdefault(int(stage), []).append(_narrow(keys[stages == stage]))


def _distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct keys, sorted: through a bitmap when they are dense, else by sorting.

    (Not np.unique: it imports numpy.ma on first use, 20 ms of start-up.)
    """
    if len(keys) and keys.min() >= 0 and keys.max() < 16 * len(keys) + 4096:
        present = np.zeros(int(keys.max()) + 1, dtype=bool)
        present[keys] = True
        return np.flatnonzero(present)
    keys = np.sort(keys)
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys


def _expand(game, keys: np.ndarray) -> Expansion:
    try:
        expansion = game.call("mdp_expand", states=keys)
    except MdpError:
        raise
    except Exception as error:
        raise ModelError(f"game {game.name}: mdp_expand raised {type(error).__name__}: {error} "
                         f"(expanding {len(keys):,} states from {_describe(game, keys[0])})") from error
    if not isinstance(expansion, Expansion):
        raise ModelError(f"game {game.name}: mdp_expand returned {type(expansion).__name__}, "
                         "not an mdp.Expansion")
    return expansion


def _check(game, keys, expansion: Expansion, stage: int, next_stages: np.ndarray) -> None:
    """Check an expansion's shape, probabilities and stages; name the first culprit."""
    e = expansion
    n_actions, n_outcomes = int(np.sum(e.action_counts)), int(np.sum(e.outcome_counts))
    n_terminal = int(np.count_nonzero(e.action_counts == 0))
    sizes = [(len(e.action_counts), len(keys), "action_counts", "states"),
             (len(e.actions), n_actions, "actions", "actions counted"),
             (len(e.outcome_counts), n_actions, "outcome_counts", "actions counted"),
             (len(e.next_states), n_outcomes, "next_states", "outcomes counted"),
             (len(e.probabilities), n_outcomes, "probabilities", "outcomes counted"),
             (len(e.terminal_values), n_terminal, "terminal_values", "terminal states")]
    for got, expected, what, of in sizes:
        if got != expected:
            raise ModelError(f"game {game.name}: mdp_expand gave {got:,} {what} for {expected:,} {of}")

    action_ends = np.cumsum(e.action_counts, dtype=np.int64)
    outcome_ends = np.cumsum(e.outcome_counts, dtype=np.int64)

    def culprit(action_index: int, problem: str) -> ModelError:
        state = keys[np.searchsorted(action_ends, action_index, side="right")]
        where = _describe(game, state, e.actions[action_index])
        return ModelError(f"game {game.name}: {problem} ({where})")

    def action_of(outcome_index: int) -> int:
        return int(np.searchsorted(outcome_ends, outcome_index, side="right"))

    empty = np.flatnonzero(np.asarray(e.outcome_counts) < 1)
    if len(empty):
        raise culprit(empty[0], "probabilities sum to 0, not 1")
    for value in e.probability_table:
        if isinstance(value, bool) or not isinstance(value, (Rational, float)):
            raise ModelError(f"game {game.name}: probability {value!r} is not a number")
    if n_outcomes == 0:
        return
    table = np.array([float(p) for p in e.probability_table])
    if (table < 0).any():
        first = np.flatnonzero(table[e.probabilities] < 0)[0]
        raise culprit(action_of(first),
                      f"negative probability {e.probability_table[e.probabilities[first]]}")
    sums, one = _sums(e.probability_table, e.probabilities, e.outcome_counts, outcome_ends)
    wrong = np.flatnonzero(sums != one if one != 1.0 else np.abs(sums - 1) > PROBABILITY_TOLERANCE)
    if len(wrong):
        total = Fraction(int(sums[wrong[0]]), one) if one != 1.0 else f"{sums[wrong[0]]:.12g}"
        raise culprit(wrong[0], f"probabilities sum to {total}, not 1")
    rising = np.flatnonzero(next_stages >= stage)
    if len(rising):
        first = rising[0]
        raise culprit(action_of(first),
                      f"the stage does not decrease: {_describe(game, e.next_states[first])} "
                      f"has stage {next_stages[first]}, not below {stage}")


def _sums(table: tuple, probabilities: np.ndarray, counts: np.ndarray, ends: np.ndarray):
    """Each action's sum of probabilities, and what a sum of 1 reads as.

    Rational probabilities are summed exactly, as integers over their common denominator
    (which a sum of 1 then equals); any float makes the sums floats, checked within
    :data:`PROBABILITY_TOLERANCE`.
    """
    starts = ends - counts
    if not all(isinstance(p, Rational) for p in table):
        return np.add.reduceat(np.array([float(p) for p in table])[probabilities], starts), 1.0
    common = math.lcm(*(Fraction(p).denominator for p in table))
    weights = [int(Fraction(p) * common) for p in table]
    fits = max(weights, default=0) * int(np.max(counts)) < 2**62
    return np.add.reduceat(np.array(weights, dtype=np.int64 if fits else object)[probabilities],
                           starts), common


def _describe(game, state, action=None) -> str:
    """A state (and action) in the game's own words, from its policy columns if it has them."""
    state, action = (x.item() if isinstance(x, np.generic) else x for x in (state, action))
    columns = game.call("mdp_columns", states=[state], actions=[action])
    if not columns:
        return f"state {state!r}" + ("" if action is None else f", action {action!r}")
    return ", ".join(f"{name} {values[0]}" for name, values in columns.items()
                     if values[0] is not None)


def _merge_probabilities(table: dict, expansion: Expansion) -> np.ndarray:
    """Add an expansion's probabilities to the model's table; return its outcomes' ids."""
    ids = np.array([table.setdefault(p, len(table)) for p in expansion.probability_table],
                   dtype=np.int64)
    return ids[expansion.probabilities]


def _compile(game, table: dict, stages: list[_Stage]) -> CompiledModel:
    """Number the states (terminal ones first, then by stage) and join the arrays.

    ``stages`` comes highest first; each is dropped as soon as it is copied, since the
    joined arrays and the stages do not both fit in memory for the largest models.
    """
    n_terminal = sum(int(s.terminal.sum()) for s in stages)
    n_states = sum(len(s.keys) for s in stages)
    n_actions = sum(len(s.actions) for s in stages)
    n_outcomes = sum(len(s.next_states) for s in stages)
    index = np.int32 if max(n_states, n_outcomes) < 2**31 else np.int64
    # ids: all terminal states first (layer 0), then the others, lowest stage first.
    lookup = _Lookup(stages, n_states)
    next_terminal, next_id = 0, n_terminal
    for stage in reversed(stages):
        ids = np.empty(len(stage.keys), dtype=index)
        count = int(stage.terminal.sum())
        ids[stage.terminal] = np.arange(next_terminal, next_terminal + count)
        ids[~stage.terminal] = np.arange(next_id, next_id + len(ids) - count)
        next_terminal, next_id = next_terminal + count, next_id + len(ids) - count
        lookup.add(stage.keys, ids)
    initial = int(lookup(stages[0].keys)[0])

    states = np.empty(n_states, dtype=np.int64)
    actions = np.empty(n_actions, dtype=np.result_type(*(s.actions for s in stages)))
    # Counts go where their offsets will be, turned into offsets in place at the end: a
    # separate array of counts would cost as much memory again.
    action_start = np.zeros(n_states + 1, dtype=index)
    outcome_start = np.zeros(n_actions + 1, dtype=index)
    outcome_next = np.empty(n_outcomes, dtype=index)
    outcome_prob = np.empty(n_outcomes, dtype=_narrow(np.array([len(table)])).dtype)
    terminal_values, layer_sizes = [], [n_terminal]
    a = o = 0
    while stages:
        stage = stages.pop()
        ids = lookup(stage.keys)
        states[ids] = stage.keys
        action_start[ids[~stage.terminal] + 1] = stage.action_counts
        actions[a:a + len(stage.actions)] = stage.actions
        outcome_start[a + 1:a + 1 + len(stage.actions)] = stage.outcome_counts
        outcome_next[o:o + len(stage.next_states)] = lookup(stage.next_states)
        outcome_prob[o:o + len(stage.next_states)] = stage.probabilities
        a, o = a + len(stage.actions), o + len(stage.next_states)
        terminal_values.append(stage.terminal_values)
        if not stage.terminal.all():
            layer_sizes.append(int((~stage.terminal).sum()))
    terminal_values = _join(terminal_values)
    np.cumsum(action_start, out=action_start)
    np.cumsum(outcome_start, out=outcome_start)
    return CompiledModel(
        game=game,
        states=states,
        actions=actions,
        layer_start=offsets(layer_sizes),
        action_start=action_start,
        outcome_start=outcome_start,
        outcome_next=outcome_next,
        outcome_prob=outcome_prob,
        probabilities=tuple(sorted(table, key=table.__getitem__)),
        terminal_values=terminal_values,
        initial=initial,
        inexact=_inexact(table, terminal_values),
    )


class _Lookup:
    """Maps state keys to ids: by a direct table when keys are dense, else by binary search."""

    def __init__(self, stages: list[_Stage], n_states: int) -> None:
        low = min(int(s.keys[0]) for s in stages)
        high = max(int(s.keys[-1]) for s in stages)
        self.direct = None
        if low >= 0 and high < 4 * n_states + 1024:
            self.direct = np.full(high + 1, -1, dtype=np.int64 if n_states >= 2**31 else np.int32)
        self.parts: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, keys: np.ndarray, ids: np.ndarray) -> None:
        if self.direct is not None:
            self.direct[keys] = ids
        else:
            self.parts.append((keys, ids))

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        if self.direct is not None:
            return self.direct[keys]
        if self.parts:
            all_keys = np.concatenate([k for k, _ in self.parts])
            order = np.argsort(all_keys, kind="stable")
            self.keys, self.ids = all_keys[order], np.concatenate([i for _, i in self.parts])[order]
            self.parts = []
        return self.ids[np.searchsorted(self.keys, keys)]


def _join(parts: list) -> np.ndarray | tuple:
    """Numeric arrays stay one array; anything else becomes a tuple of numbers."""
    parts = [p for p in parts if len(p)]  # an empty np.array([]) would make it all float
    if not parts:
        return np.zeros(0, dtype=np.int64)
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" for p in parts):
        return np.concatenate(parts)
    return tuple(v for p in parts for v in (p.tolist() if isinstance(p, np.ndarray) else p))


def _inexact(table: dict, terminal_values) -> str | None:
    for p in table:
        if isinstance(p, float):
            return f"probability {p!r}"
    if isinstance(terminal_values, np.ndarray):
        if terminal_values.dtype.kind == "f" and len(terminal_values):
            return f"value {terminal_values[0]!r}"
        return None
    for v in terminal_values:
        if isinstance(v, float):
            return f"value {v!r}"
    return None
