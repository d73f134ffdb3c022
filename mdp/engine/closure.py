"""Discovering the states of a batch game whose states may come back: some transitions keep
the stage (:func:`~mdp.hookspecs.game.mdp_stage`) as it is, so a stage cannot be expanded
once and left. Every state is found first, a frontier of new states at a time whatever their
stage (as many rounds as the longest shortest path, not one per stage), then each stage is
expanded again, from the highest down, and handed to :func:`mdp.compile` as one
:class:`Block`: a layer of the model whose transitions may stay in it
(:mod:`mdp.engine.cycles`). A transition to a higher stage is refused, as on the way of
:mod:`mdp.engine.stages`, which hands a game over to this one at the first transition that
keeps its stage (:class:`~mdp.engine.stages.SameStage`)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mdp.engine import checks
from mdp.engine.budget import Budget, Lengthening
from mdp.engine.expansion import Block, Discovery, Expansion
from mdp.engine.stages import rising
from mdp.game.load import Game


def by_closure(game: Game, budget: Budget) -> Discovery:
    """Every reachable state, then one block per stage (see the module's text)."""
    initial = checks.initial_state(game, batch=True)
    keys, stages = _reachable(game, budget, initial)
    return Discovery(initial, _blocks(game, keys, stages), cyclic=True)


def _reachable(game: Game, budget: Budget, initial: int) -> tuple[np.ndarray, np.ndarray]:
    """Every state reachable from ``initial`` (sorted keys) and its stage."""

    keys = np.array([initial], dtype=np.int64)
    stages = checks.stages_of(game, keys).astype(np.int64)
    frontier, frontier_stages = keys, stages
    lengthening, rounds = Lengthening(budget), 0
    while len(frontier):
        rounds += 1
        lengthening.look(budget.count, rounds)
        budget.take(len(frontier), note=" (states that may come back)")
        expansion = checks.expand(game, frontier, labels=False)
        nexts = expansion.next_states.astype(np.int64)
        budget.take(0, len(nexts))
        found = np.unique(nexts)
        new = found[~_among(found, keys)]
        new_stages = checks.stages_of(game, new).astype(np.int64)
        merged = np.concatenate([keys, new])
        order = np.argsort(merged, kind="stable")
        keys, stages = merged[order], np.concatenate([stages, new_stages])[order]
        after = stages[np.searchsorted(keys, nexts)]
        before = np.repeat(frontier_stages, _outcomes_per_state(expansion))
        up = np.flatnonzero(after > before)
        if len(up):
            outcome = int(up[0])
            raise rising(game, frontier, expansion, nexts, int(after[outcome]), outcome,
                         int(before[outcome]))
        frontier, frontier_stages = new, new_stages
    return keys, stages


def _among(found: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Whether each of ``found`` is one of the sorted ``keys``."""
    at = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
    return keys[at] == found


def _outcomes_per_state(expansion: Expansion) -> np.ndarray:
    counts = expansion.action_counts.astype(np.int64)
    per_action = np.ones(int(counts.sum()), dtype=np.int64) if expansion.outcome_counts is None \
        else expansion.outcome_counts.astype(np.int64)
    ends = np.cumsum(per_action)
    last = np.cumsum(counts)
    totals = np.concatenate(([0], ends))[last]
    return np.diff(np.concatenate(([0], totals)))


def _blocks(game: Game, keys: np.ndarray, stages: np.ndarray) -> Iterator[Block]:
    order = np.argsort(-stages, kind="stable")  # keys stay sorted within a stage
    bounds = np.flatnonzero(np.diff(stages[order])) + 1
    for part in np.split(order, bounds):
        if len(part):
            stage_keys = keys[part]
            yield Block(int(stages[part[0]]), stage_keys,
                        checks.expand(game, stage_keys, labels=False))
