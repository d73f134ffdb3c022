"""Numbering a compiled game's states and joining its blocks into the model's arrays: terminal
states first, then level by level upwards, each block dropped as soon as it is copied."""

from __future__ import annotations

import threading
from typing import Any

import attrs
import numpy as np

from mdp.engine.groups import narrow
from mdp.engine.keys import KeyIndex
from mdp.engine.memory import LARGE, release
from mdp.engine.parallel import side_by_side, slices


@attrs.frozen(eq=False)
class Stage:
    """A checked block, kept compact (narrow integer types) until the model is compiled."""

    level: int
    keys: np.ndarray | None
    """``None`` once copied into the model's keys."""
    terminal: np.ndarray
    action_counts: np.ndarray
    outcome_counts: np.ndarray | None
    """``None`` (with ``probabilities``) when every action is certain: not needed then."""
    next_states: np.ndarray
    probabilities: np.ndarray | None
    terminal_values: Any
    certain: int
    """How many of its actions have one outcome of probability 1."""
    n_actions: int

    @property
    def kept_keys(self) -> np.ndarray:
        """Its keys, which are there until copied into the model's keys."""
        assert self.keys is not None, "the keys of a stage read after they were copied"
        return self.keys


def number(stages: list[Stage], lookup: Lookup,
           index: type) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """The model's keys in id order, and each stage's ``(first terminal id, terminal count,
    first other id, other count)``, the last stage's first. A stage's terminal states take
    the next ids of layer 0, its others the next ids above: two runs of ids per stage, in
    the order of its (sorted) keys, which go straight to their places in the model's keys.
    Each stage's keys are let go once copied, and handed back as the model fills up."""
    n_terminal = sum(int(s.terminal.sum()) for s in stages)
    keys = np.empty(sum(len(s.kept_keys) for s in stages),
                    dtype=np.result_type(*(s.kept_keys for s in stages)))
    runs: list[tuple[int, int, int, int]] = []
    next_terminal, next_id, freed = 0, n_terminal, 0
    for i in reversed(range(len(stages))):
        stage = stages[i]
        stage_keys = stage.kept_keys
        count = int(stage.terminal.sum())
        run = (next_terminal, count, next_id, len(stage_keys) - count)
        parted(stage_keys, stage.terminal, keys, run[0], run[2])
        for first, size in ((run[0], run[1]), (run[2], run[3])):
            lookup.add(keys[first:first + size], np.arange(first, first + size, dtype=index))
        freed += stage_keys.nbytes
        stages[i] = attrs.evolve(stage, keys=None)
        if freed >= LARGE:
            release(freed)
            freed = 0
        runs.append(run)
        next_terminal, next_id = next_terminal + run[1], next_id + run[3]
    runs.reverse()
    return keys, runs


class Transitions:
    """The model's transition arrays, filled a stage at a time (:meth:`add`), in the order
    of the states' ids."""

    def __init__(self, stages: list[Stage], sizes: tuple[int, int, int, int], index: type,
                 table: dict[Any, int]) -> None:
        n_states, n_actions, n_chance, n_outcomes = sizes
        self.index = index
        self.is_one = np.array([p == 1 for p in table] or [False], dtype=bool)
        self.action_counts = np.zeros(n_states, dtype=np.result_type(*(s.action_counts for s in stages)))
        self.action_next: np.ndarray = np.empty(n_actions, dtype=index)
        self.chance_start: np.ndarray = np.zeros(n_chance + 1, dtype=index)  # counts, summed at the end
        self.outcome_next: np.ndarray = np.empty(n_outcomes, dtype=index)
        self.outcome_prob = np.empty(n_outcomes, dtype=narrow(np.array([len(table)])).dtype)
        self.terminal_values: list[Any] = []
        self.layer_sizes: list[int] = []
        self.layer_actions: list[int] = []
        self.a = self.c = self.o = 0  # the next action, chance action and outcome

    def add(self, stage: Stage, first: int, count: int, lookup: Lookup) -> None:
        """A stage's states: ``count`` non-terminal ones, numbered from ``first``."""
        self.action_counts[first:first + count] = stage.action_counts
        a, c, o, na = self.a, self.c, self.o, stage.n_actions
        if stage.certain == na:  # choices only: one successor id each, looked up in place
            lookup(stage.next_states, out=self.action_next[a:a + na])
            nc = no = 0
        elif stage.certain == 0:  # chance only: the successors looked up in place too
            nc, no = na, len(stage.next_states)
            lookup(stage.next_states, out=self.outcome_next[o:o + no])
            self.action_next[a:a + na] = -1 - np.arange(c, c + nc, dtype=self.index)
            self.chance_start[c + 1:c + 1 + nc] = stage.outcome_counts
            self.outcome_prob[o:o + no] = stage.probabilities
        else:  # both: each action's first outcome, where it is certain, is its successor
            successors = lookup(stage.next_states)
            assert stage.outcome_counts is not None and stage.probabilities is not None
            counts = stage.outcome_counts.astype(np.int64)
            firsts = np.cumsum(counts) - counts
            certain = (counts == 1) & self.is_one[stage.probabilities[firsts]]
            chance = ~certain
            nc = na - stage.certain
            targets: np.ndarray = np.empty(na, dtype=self.index)
            targets[certain] = successors[firsts[certain]]
            targets[chance] = -1 - np.arange(c, c + nc, dtype=self.index)
            self.action_next[a:a + na] = targets
            self.chance_start[c + 1:c + 1 + nc] = counts[chance]
            kept = np.repeat(chance, counts)
            no = int(counts[chance].sum())
            self.outcome_next[o:o + no] = successors[kept]
            self.outcome_prob[o:o + no] = stage.probabilities[kept]
        self.a, self.c, self.o = a + na, c + nc, o + no
        self.terminal_values.append(stage.terminal_values)
        if not stage.terminal.all():
            self.layer_sizes.append(int((~stage.terminal).sum()))
            self.layer_actions.append(na)


def parted(values: np.ndarray, chosen: np.ndarray, out: np.ndarray, first: int, rest: int) -> None:
    """``values[chosen]`` to ``out`` from ``first`` on, and the others from ``rest`` on, in
    their order: a slice at a time, side by side."""
    parts = slices(len(values))
    before = np.cumsum([0] + [int(np.count_nonzero(chosen[part])) for part in parts])

    def piece(slice_: tuple[int, slice]) -> None:
        j, part = slice_
        taken, n = int(before[j]), int(before[j + 1] - before[j])
        picked = chosen[part]
        out[first + taken:first + taken + n] = values[part][picked]
        others = part.start - taken
        out[rest + others:rest + others + part.stop - part.start - n] = values[part][~picked]

    side_by_side(piece, enumerate(parts))


def block_bytes(stage: Stage) -> int:
    """The memory of a stage's arrays (freed when it is dropped)."""
    return sum(getattr(stage, name).nbytes for name in (
        "keys", "terminal", "action_counts", "outcome_counts", "next_states",
        "probabilities")
        if isinstance(getattr(stage, name), np.ndarray))


class Lookup:
    """Maps state keys to ids: by a direct table when keys are dense, else by binary search."""

    def __init__(self, stages: list[Stage], n_states: int, index: type) -> None:
        low = min(int(s.kept_keys[0]) for s in stages)
        high = max(int(s.kept_keys[-1]) for s in stages)
        self.direct: np.ndarray | None = None
        self.buffers = threading.local()
        if low >= 0 and high < 4 * n_states + 1024:
            # Not filled: only reachable keys are looked up, and the pages of keys never
            # added are then never touched (nor zeroed by the kernel).
            self.direct = np.empty(high + 1, dtype=index)
        self.parts: list[tuple[np.ndarray, np.ndarray]] = []
        self.index: KeyIndex | None = None

    def add(self, keys: np.ndarray, ids: np.ndarray) -> None:
        if self.direct is not None:
            direct = self.direct

            def fill(part: slice) -> None:
                direct[keys[part]] = ids[part]

            side_by_side(fill, slices(len(keys)))
        else:
            self.parts.append((keys, ids))

    def __call__(self, keys: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The ids of ``keys`` (of reachable states), written to ``out`` if given."""
        direct = self.direct
        if direct is not None:
            if out is None:
                out = np.empty(len(keys), dtype=direct.dtype)

            def piece(part: slice) -> None:
                # Through a buffer of 64-bit indices, one per thread: numpy would make them of
                # the keys, a temporary twice their size, in fresh memory at every stage.
                size = part.stop - part.start
                buffer = getattr(self.buffers, "index", None)
                if buffer is None or len(buffer) < size:
                    buffer = self.buffers.index = np.empty(size, dtype=np.intp)
                index = buffer[:size]
                index[:] = keys[part]
                np.take(direct, index, out=out[part], mode="clip")  # "raise" would copy

            side_by_side(piece, slices(len(keys)))
            return out
        if self.parts:
            self.index = KeyIndex(np.concatenate([k for k, _ in self.parts]),
                                  np.concatenate([i for _, i in self.parts]))
            self.parts = []
        assert self.index is not None
        return self.index.ids_of(keys, out=out)


def join(parts: list[Any]) -> np.ndarray | tuple[Any, ...]:
    """Numeric arrays stay one array; anything else becomes a tuple of numbers."""
    parts = [p for p in parts if len(p)]  # an empty np.array([]) would make it all float
    if not parts:
        return np.zeros(0, dtype=np.int64)
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" for p in parts):
        return np.concatenate(parts)
    return tuple(v for p in parts for v in (p.tolist() if isinstance(p, np.ndarray) else p))
