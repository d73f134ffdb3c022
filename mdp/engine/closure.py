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

from mdp.engine import batch_answers, checks
from mdp.engine.budget import Budget, Lengthening
from mdp.engine.expansion import Block, Discovery
from mdp.engine.stages import rising
from mdp.errors import ModelError
from mdp.game.load import Game, describe


def by_closure(game: Game, budget: Budget,
               answered: tuple[np.ndarray, np.ndarray] | None = None) -> Discovery:
    """Every reachable state, then one block per stage (see the module's text). Each state is
    expanded twice, and the answers compared
    (:meth:`~mdp.engine.expansion.Expansion.prints`); ``answered``: the keys and prints of a
    stage expanded before (:class:`~mdp.engine.stages.SameStage`)."""
    initial = checks.initial_state(game, batch=True)
    keys, stages, prints = _reachable(game, budget, initial)
    if answered is not None:
        _same(game, keys, prints, *answered)
    return Discovery(initial, _blocks(game, keys, stages, prints), cyclic=True)


def _same(game: Game, keys: np.ndarray, prints: np.ndarray, asked: np.ndarray,
          again: np.ndarray) -> None:
    """Refuse an answer of ``mdp_expand`` about the states ``asked`` whose prints ``again``
    differ from those it gave before (``prints``, of the sorted ``keys``)."""
    at = np.minimum(np.searchsorted(keys, asked), len(keys) - 1)
    other = np.flatnonzero((keys[at] != asked) | (prints[at] != again))  # (one not found again too)
    if len(other):
        raise ModelError(f"game {game.name}: mdp_expand answered otherwise for "
                         f"{describe(game, int(asked[other[0]]))} when asked again (other actions, "
                         "next states, chances or terminal value); a game gives the same answer each "
                         "time it is asked, whatever other states are asked with it")


def _reachable(game: Game, budget: Budget,
               initial: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every state reachable from ``initial`` (sorted keys), its stage and the print of its
    expansion."""

    keys = np.array([initial], dtype=np.int64)
    stages = batch_answers.stages_of(game, keys).astype(np.int64)
    prints = np.zeros(1, dtype=np.uint64)
    frontier, frontier_stages = keys, stages
    lengthening, rounds = Lengthening(budget), 0
    while len(frontier):
        rounds += 1
        lengthening.look(budget.count, rounds)
        budget.take(len(frontier), note=" (states that may come back)")
        expansion = batch_answers.expand(game, frontier, labels=False)
        prints[np.searchsorted(keys, frontier)] = expansion.prints()
        nexts = expansion.next_states.astype(np.int64)
        budget.take(0, len(nexts))
        found = np.unique(nexts)
        new = found[~_among(found, keys)]
        new_stages = batch_answers.stages_of(game, new).astype(np.int64)
        merged = np.concatenate([keys, new])
        order = np.argsort(merged, kind="stable")
        keys, stages = merged[order], np.concatenate([stages, new_stages])[order]
        prints = np.concatenate([prints, np.zeros(len(new), dtype=np.uint64)])[order]
        after = stages[np.searchsorted(keys, nexts)]
        before = np.repeat(frontier_stages, expansion.outcomes_per_state())
        up = np.flatnonzero(after > before)
        if len(up):
            outcome = int(up[0])
            raise rising(game, frontier, expansion, nexts, int(after[outcome]), outcome,
                         int(before[outcome]))
        frontier, frontier_stages = new, new_stages
    return keys, stages, prints


def _among(found: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Whether each of ``found`` is one of the sorted ``keys``."""
    at = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
    return keys[at] == found


def _blocks(game: Game, keys: np.ndarray, stages: np.ndarray,
            prints: np.ndarray) -> Iterator[Block]:
    order = np.argsort(-stages, kind="stable")  # keys stay sorted within a stage
    bounds = np.flatnonzero(np.diff(stages[order])) + 1
    for part in np.split(order, bounds):
        if len(part):
            stage_keys = keys[part]
            expansion = batch_answers.expand(game, stage_keys, labels=False)
            _same(game, keys, prints, stage_keys, expansion.prints())
            yield Block(int(stages[part[0]]), stage_keys, expansion)
