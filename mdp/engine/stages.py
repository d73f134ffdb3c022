"""Discovering a game's states a frontier at a time: the batch hooks called a stage at a time,
from the highest stage down (:func:`~mdp.hookspecs.game.mdp_stage`,
:func:`~mdp.hookspecs.game.mdp_expand`). Every transition lowers the stage, so no state is
met twice. Each stage is handed to :func:`mdp.compile` as a :class:`Block` as soon as it is
expanded; what the hooks return is checked where they are called (:mod:`mdp.engine.checks`),
and what the frontier itself checks is only that the stage decreases. At the first
transition that keeps its stage, the game is handed to :mod:`mdp.engine.closure`
(:class:`SameStage`): its states may come back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, overload

import numpy as np

from mdp.engine import batch_answers, checks, places
from mdp.engine.budget import Budget, Lengthening
from mdp.engine.expansion import Block, Discovery, Expansion
from mdp.engine.groups import narrow
from mdp.engine.parallel import side_by_side, slices
from mdp.errors import ModelError
from mdp.game.load import Game, describe


def by_stages(game: Game, budget: Budget) -> Discovery:
    """Expand the states a stage at a time through :func:`~mdp.hookspecs.game.mdp_expand`."""
    initial = checks.initial_state(game, batch=True)
    return Discovery(initial, _stages(game, budget, initial))


def _stages(game: Game, budget: Budget, initial: int) -> Iterator[Block]:
    pending: dict[int, list[np.ndarray]] = {}  # each stage's keys, as they were found
    rough: set[int] = set()  # stages some of whose keys may repeat or be out of order
    distinct = _Distinct()
    keys = np.array([initial], dtype=np.int64)
    _schedule(pending, keys, batch_answers.stages_of(game, keys))
    lengthening, walked = Lengthening(budget), 0
    while pending:
        walked += 1
        lengthening.look(budget.count, walked)
        stage = max(pending)
        parts = pending.pop(stage)
        # Keys found by one stage alone are sorted and distinct already (a chance layer's
        # states, often): only keys from several stages, or unsorted, are merged.
        keys = parts[0] if len(parts) == 1 and stage not in rough \
            else distinct(np.concatenate(parts))
        keys = keys.astype(np.int64)
        del parts
        budget.take(len(keys), note=f" (stage {stage})")
        expansion = batch_answers.expand(game, keys, labels=False)
        budget.take(0, len(expansion.next_states))
        yield Block(stage, keys, expansion)  # compile checks it before we go on
        next_states = expansion.next_states  # integers of 64 bits: batch_answers.expand saw to it
        # Many outcomes lead to the same state: their stages are asked for, checked and filed
        # once per distinct state where the keys are dense enough for a bitmap.
        found = distinct(next_states, sort_sparse=False)
        if found is None:  # too sparse for the bitmap: sorted when their stage is reached
            found = next_states
        next_stages = batch_answers.stages_of(game, found)
        up = np.flatnonzero(next_stages > stage)
        if len(up):
            outcome = int(np.flatnonzero(next_states == found[up[0]])[0])
            raise rising(game, keys, expansion, next_states, int(next_stages[up[0]]),
                         outcome, stage)
        if (next_stages == stage).any():  # states may come back: found another way
            raise SameStage(keys, expansion.prints())
        filed = _schedule(pending, found, next_stages)
        if found is next_states:
            rough.update(filed)
        # Drop this stage's arrays before the next is expanded; their pages are kept for
        # the next stage's (handed back here, they were faulted in again at every stage:
        # 180,000 page faults at 20/4, and the peak comes later, in the solve).
        del expansion, next_states, next_stages, keys, found


class SameStage(Exception):  # noqa: N818 - a signal between discoveries, not an error
    """A transition keeps its stage: the game is discovered again by
    :func:`mdp.engine.closure.by_closure`, which compares its answers about the stage's
    ``keys`` with theirs, ``prints`` (:meth:`~mdp.engine.expansion.Expansion.prints`)."""

    def __init__(self, keys: np.ndarray, prints: np.ndarray) -> None:
        super().__init__()
        self.keys, self.prints = keys, prints


def rising(game: Game, keys: np.ndarray, expansion: Expansion, next_states: np.ndarray,
            next_stage: int, outcome: int, stage: int) -> ModelError:
    """A transition to a higher stage, refused in the game's words."""
    return ModelError(
        f"game {game.name}: mdp_stage: the stage rises: "
        f"{describe(game, next_states[outcome])} has stage {next_stage}, "
        f"above {stage} ({places.where(game, keys, expansion, outcome=outcome)})")


def _schedule(pending: dict[Any, Any], keys: np.ndarray, stages: np.ndarray) -> list[int]:
    """File ``keys`` under their stages, in their order: one stable sort by stage, then
    slices (not a pass over all keys per distinct stage). Returns the stages filed under."""
    if not len(stages):
        return []
    low, high = int(stages.min()), int(stages.max())
    if low == high:
        pending.setdefault(low, []).append(narrow(keys))
        return [low]
    stages = narrow(stages - low)
    order = np.argsort(stages, kind="stable")  # a radix sort for small integer types
    counts = np.bincount(stages, minlength=high - low + 1)
    ends = np.cumsum(counts)
    filed = (np.flatnonzero(counts) + low).tolist()
    for stage in filed:
        part = order[ends[stage - low] - counts[stage - low]:ends[stage - low]]
        pending.setdefault(stage, []).append(narrow(keys[part]))
    return filed


class _Distinct:
    """Distinct keys, sorted, through one bitmap kept from stage to stage: only the bits set
    are cleared after each use, so its pages are zeroed once, not at every stage (a fresh
    bitmap per stage cost more in the kernel's page zeroing than in the work itself)."""

    def __init__(self) -> None:
        self.bits = np.zeros(0, dtype=bool)

    @overload
    def __call__(self, keys: np.ndarray, sort_sparse: Literal[True] = True) -> np.ndarray: ...
    @overload
    def __call__(self, keys: np.ndarray, sort_sparse: bool) -> np.ndarray | None: ...
    def __call__(self, keys: np.ndarray, sort_sparse: bool = True) -> np.ndarray | None:
        """The distinct keys; where they are too sparse for a bitmap, sorted (or ``None``
        when ``sort_sparse`` is false).

        (Not np.unique: it imports numpy.ma on first use, which nothing else of a solve needs.)
        """
        if not len(keys):
            return keys
        low, high = _bounds(keys)
        if low < 0 or high >= 16 * len(keys) + 4096:  # the bitmap runs from key 0
            if not sort_sparse:
                return None
            keys = np.sort(keys)
            return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
        if len(self.bits) <= high:
            self.bits = np.zeros(high + 1, dtype=bool)
        bits = self.bits

        def mark(part: slice) -> None:  # two threads that mark one key write the same byte
            bits[keys[part]] = True

        side_by_side(mark, slices(len(keys)))
        # The keys marked, read off a piece of the bitmap at a time straight into their
        # narrowest type: a 64-bit array of them would be fresh memory at every stage.
        parts = slices(high + 1, low)
        starts = np.cumsum([0] + [np.count_nonzero(bits[part]) for part in parts])
        found = np.empty(int(starts[-1]), dtype=narrow(np.array([low, high])).dtype)

        def read(piece: tuple[int, slice]) -> None:
            j, part = piece
            out = found[starts[j]:starts[j + 1]]
            out[:] = np.flatnonzero(bits[part])
            out += part.start
            bits[out] = False

        side_by_side(read, enumerate(parts))
        return found


def _bounds(keys: np.ndarray) -> tuple[int, int]:
    """The least and the greatest of ``keys``, a slice at a time side by side."""
    parts = slices(len(keys))
    found: list[Any] = [None] * len(parts)

    def piece(slice_: tuple[int, slice]) -> None:
        j, part = slice_
        found[j] = (int(keys[part].min()), int(keys[part].max()))

    side_by_side(piece, enumerate(parts))
    return min(low for low, _ in found), max(high for _, high in found)
