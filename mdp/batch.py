"""Exploring a game a frontier at a time, through its batch hooks.

A game that implements :func:`~mdp.hookspecs.mdp_expand` describes the transitions of many
states at once as arrays, and gives each state a *stage* that every transition lowers. The
engine then expands the states of one stage together, from the highest stage down, and
compiles the whole model without a Python call per state.
"""

from __future__ import annotations

from numbers import Rational
from typing import Any

import attrs
import numpy as np

from mdp.errors import MdpError, ModelError, TooLarge
from mdp.model import CompiledModel, offsets

PROBABILITY_TOLERANCE = 1e-9


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


def explore_batch(game, *, max_states: int | None = None) -> CompiledModel:
    """Explore a game through its batch hooks, a stage at a time from the highest."""
    initial = game.call("mdp_initial_state")
    if not isinstance(initial, (int, np.integer)):
        raise ModelError(f"game {game.name}: a game with mdp_expand needs an int initial state, "
                         f"not {initial!r}")
    pending: dict[int, list[np.ndarray]] = {}
    keys = np.array([initial], dtype=np.int64)
    _schedule(pending, keys, _stages(game, keys))
    table: dict[Any, int] = {}
    stages, frontiers, expansions = [], [], []
    explored = 0
    while pending:
        stage = max(pending)
        keys = np.unique(np.concatenate(pending.pop(stage)))
        explored += len(keys)
        if max_states is not None and explored > max_states:
            raise TooLarge(f"game {game.name}: more than {max_states:,} states")
        expansion = _expand(game, keys)
        next_stages = _stages(game, expansion.next_states)
        _check(game, keys, expansion, stage, next_stages)
        prob_ids = _merge_probabilities(table, expansion.probability_table)
        expansion = attrs.evolve(expansion, probabilities=prob_ids[expansion.probabilities])
        _schedule(pending, expansion.next_states, next_stages)
        stages.append(stage)
        frontiers.append(keys)
        expansions.append(expansion)
    return _compile(game, table, stages[::-1], frontiers[::-1], expansions[::-1])


def _stages(game, keys: np.ndarray) -> np.ndarray:
    stages = game.call("mdp_stage", states=keys)
    if stages is None:
        raise ModelError(f"game {game.name}: a game with mdp_expand must implement mdp_stage")
    return np.asarray(stages, dtype=np.int64)


def _schedule(pending: dict, keys: np.ndarray, stages: np.ndarray) -> None:
    for stage in np.unique(stages):
        pending.setdefault(int(stage), []).append(np.unique(keys[stages == stage]))


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

    action_state = np.repeat(keys, e.action_counts)

    def culprit(action_index: int, problem: str) -> ModelError:
        where = _describe(game, action_state[action_index], e.actions[action_index])
        return ModelError(f"game {game.name}: {problem} ({where})")

    empty = np.flatnonzero(e.outcome_counts < 1)
    if len(empty):
        raise culprit(empty[0], "probabilities sum to 0, not 1")
    for value in e.probability_table:
        if isinstance(value, bool) or not isinstance(value, (Rational, float)):
            raise ModelError(f"game {game.name}: probability {value!r} is not a number")
    if n_outcomes == 0:
        return
    outcome_action = np.repeat(np.arange(n_actions), e.outcome_counts)
    negative = np.array([p < 0 for p in e.probability_table], dtype=bool)[e.probabilities]
    if negative.any():
        first = np.flatnonzero(negative)[0]
        raise culprit(outcome_action[first],
                      f"negative probability {e.probability_table[e.probabilities[first]]}")
    starts = offsets(e.outcome_counts)[:-1]
    sums = np.add.reduceat(np.array([float(p) for p in e.probability_table])[e.probabilities], starts)
    wrong = np.flatnonzero(np.abs(sums - 1) > PROBABILITY_TOLERANCE)
    if len(wrong):
        raise culprit(wrong[0], f"probabilities sum to {sums[wrong[0]]:.12g}, not 1")
    rising = np.flatnonzero(next_stages >= stage)
    if len(rising):
        first = rising[0]
        raise culprit(outcome_action[first],
                      f"the stage does not decrease: {_describe(game, e.next_states[first])} "
                      f"has stage {next_stages[first]}, not below {stage}")


def _describe(game, state, action=None) -> str:
    """A state (and action) in the game's own words, from its policy columns if it has them."""
    columns = game.call("mdp_policy_columns", states=[state], actions=[action])
    if not columns:
        return f"state {state!r}" + ("" if action is None else f", action {action!r}")
    return ", ".join(f"{name} {values[0]}" for name, values in columns.items()
                     if values[0] is not None)


def _merge_probabilities(table: dict, given: tuple) -> np.ndarray:
    return np.array([table.setdefault(p, len(table)) for p in given], dtype=np.int32)


def _compile(game, table, stages, frontiers, expansions) -> CompiledModel:
    """Number the states (terminal ones first, then by stage) and join the arrays."""
    terminal = [e.action_counts == 0 for e in expansions]
    n_terminal = sum(int(t.sum()) for t in terminal)
    # ids: all terminal states first (layer 0), then the other states stage by stage.
    ids, next_id, next_terminal = [], n_terminal, 0
    for is_terminal in terminal:
        stage_ids = np.empty(len(is_terminal), dtype=np.int64)
        count = int(is_terminal.sum())
        stage_ids[is_terminal] = np.arange(next_terminal, next_terminal + count)
        stage_ids[~is_terminal] = np.arange(next_id, next_id + len(is_terminal) - count)
        next_terminal += count
        next_id += len(is_terminal) - count
        ids.append(stage_ids)
    n_states = next_id
    lookup = _Lookup(frontiers, ids)

    states = np.empty(n_states, dtype=np.int64)
    for keys, stage_ids in zip(frontiers, ids):
        states[stage_ids] = keys
    # Terminal ids were handed out stage by stage, in the order the values come in.
    terminal_values = _join([e.terminal_values for e in expansions])
    layer_sizes = [n_terminal] + [int((~t).sum()) for t in terminal if (~t).any()]
    id_dtype = np.int32 if n_states < 2**31 else np.int64
    return CompiledModel(
        game=game,
        states=states,
        actions=np.concatenate([e.actions for e in expansions]),
        layer_start=offsets(layer_sizes),
        action_start=offsets(np.concatenate(
            [np.zeros(n_terminal, dtype=np.int64)]
            + [e.action_counts[e.action_counts > 0] for e in expansions])),
        outcome_start=offsets(np.concatenate([e.outcome_counts for e in expansions])),
        outcome_next=np.concatenate([lookup(e.next_states).astype(id_dtype) for e in expansions]),
        outcome_prob=np.concatenate([e.probabilities for e in expansions]),
        probabilities=tuple(sorted(table, key=table.__getitem__)),
        terminal_values=terminal_values,
        initial=int(ids[-1][0]),
        inexact=_inexact(table, terminal_values),
    )


class _Lookup:
    """Maps state keys to ids: by a direct table when keys are dense, else by binary search."""

    def __init__(self, frontiers, ids) -> None:
        keys = np.concatenate(frontiers)
        order = np.argsort(keys, kind="stable")
        self.keys, self.ids = keys[order], np.concatenate(ids)[order]
        low, high = int(self.keys[0]), int(self.keys[-1])
        self.direct = None
        if 0 <= low and high < 4 * len(keys) + 1024:
            self.direct = np.full(high + 1, -1, dtype=np.int64)
            self.direct[self.keys] = self.ids

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        if self.direct is not None:
            return self.direct[keys]
        return self.ids[np.searchsorted(self.keys, keys)]


def _join(parts: list) -> np.ndarray | tuple:
    """Numeric arrays stay one array; anything else becomes a tuple of numbers."""
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
