"""From a game to a :class:`~mdp.CompiledModel`: the one place that checks what a game says
and numbers its states, whichever way the states were discovered."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import attrs
import numpy as np

from mdp.checks import CALLBACK, GAME, MAX_MEMORY, MAX_STATES, OPTIONAL_FLAG, arguments
from mdp.engine.discover import (
    STAGE_BYTES,
    WALK_BYTES,
    Block,
    Budget,
    Discovery,
    action_place,
    by_stages,
    label_again,
    narrow,
    walk,
)
from mdp.engine.memory import LARGE, release
from mdp.engine.model import (
    OUTCOMES_AT_A_TIME,
    PROBABILITY_TOLERANCE,
    CompiledModel,
    ModelInfo,
    offsets,
    pieces,
)
from mdp.engine.numeric import fault, first_fault, first_float, first_past_float, quoted
from mdp.engine.parallel import beside, side_by_side, slices, threads
from mdp.errors import ModelError
from mdp.game.columns import state_columns
from mdp.game.load import Game, describe
from mdp.limits import DEFAULT_MAX_STATES, default_max_memory

if TYPE_CHECKING:
    from concurrent.futures import Future

    from mdp.engine.parallel import Done



def check_size(game: Game, *, max_states: int | None = DEFAULT_MAX_STATES,
               max_memory: int | None | Literal["default"] = "default") -> None:
    """Refuse, as :func:`compile` does first, a game whose own count of states
    (:func:`~mdp.hookspecs.game.mdp_estimate_states`) already passes ``max_states`` or
    ``max_memory``: work that compiles several games (every variant, a table over rule sets)
    checks them all before the first is compiled."""
    if max_memory == "default":
        max_memory = default_max_memory()
    batch = game.implements("mdp_expand")
    _check_estimate(game, Budget(game, max_states, max_memory,
                                 STAGE_BYTES if batch else WALK_BYTES, None))


def _check_estimate(game: Game, budget: Budget) -> None:
    at_least = game.call("mdp_estimate_states")
    if at_least is not None:
        if not isinstance(at_least, (int, np.integer)) or isinstance(at_least, bool) or at_least < 0:
            raise ModelError(f"game {game.name}: mdp_estimate_states returned {at_least!r}, not "
                             "a whole number of states (0 or more)")
        budget.check(int(at_least))


def compile(
    game: Game,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    max_memory: int | None | Literal["default"] = "default",
    batch: bool | None = None,
    progress: Callable[[str], None] | None = None,
) -> CompiledModel:
    """Discover every state reachable from the initial one, check it, and compile the model.

    A game that implements :func:`~mdp.hookspecs.game.mdp_expand` is discovered a stage at a
    time through it; ``batch=False`` uses its per-state hooks instead. ``max_states`` and
    ``max_memory`` (bytes; by default three quarters of the memory this process may use,
    :func:`mdp.limits.memory_limit`) bound the work: discovery stops with
    :class:`mdp.TooLarge` as soon as either would be passed, and before any work when the
    game's count of states already passes them (``None``: no bound). ``progress``, if given,
    is called now and then with a short text saying how far the work has got. A game walked
    one state at a time whose paths still grow deeper after a few seconds may have no end:
    an :class:`mdp.UnboundedWarning` says so, once.
    """
    arguments("compile", game=(game, GAME), max_states=(max_states, MAX_STATES),
              max_memory=(max_memory, MAX_MEMORY), batch=(batch, OPTIONAL_FLAG),
              progress=(progress, CALLBACK))
    start = time.perf_counter()
    threads()  # a wrong MDP_THREADS is refused before any work
    if max_memory == "default":
        max_memory = default_max_memory()
    if batch is None:
        batch = game.implements("mdp_expand")
    budget = Budget(game, max_states, max_memory, STAGE_BYTES if batch else WALK_BYTES, progress)
    _check_estimate(game, budget)
    discovery = by_stages(game, budget) if batch else walk(game, budget)
    intake = _Intake(game, discovery)
    check = None  # of the last block, run beside the discovery of the next
    try:
        for block in discovery.blocks:
            if check is not None:
                done, check = check, None
                intake.finished(done)
            check = beside(len(block.expansion.next_states), intake.add, block)
            del block  # else the expansion's arrays live on while the next stage is expanded
    except Exception:
        if check is not None:  # a fault in a block comes before what discovery met after it
            intake.finished(check)
        raise
    if check is not None:
        intake.finished(check)
    if progress:
        progress(f"compiling {budget.count:,} states")
    model = intake.compile(start)
    first = game.round_start
    if first is None:
        return model
    from mdp.engine.rounds import compile_rounds  # here: most games are not played in rounds

    return compile_rounds(game, model, first, max_states=max_states, max_memory=max_memory,
                          progress=progress)


@attrs.frozen(eq=False)
class _Stage:
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


class _Intake:
    """Checks each block as it arrives, merges its probabilities into one table, and keeps it
    compact; then numbers the states and joins the blocks into a model."""

    def __init__(self, game: Game, discovery: Discovery) -> None:
        self.game, self.discovery = game, discovery
        self.table: dict[Any, int] = {}
        self.stages: list[_Stage] = []
        # The first float probability and terminal value, if any, and where they were found.
        self.inexact: tuple[str, _Place] | None = None
        self.inexact_value: tuple[str, _Place] | None = None

    def name(self, place: _Place) -> str:
        """The game's words for a place a check found (on the thread that calls the game)."""
        label = place.label if place.number is None else label_again(self.game, place.key, place.number)
        return describe(self.game, self.discovery.state(place.key), label)

    def finished(self, check: Future | Done) -> None:
        """Wait for a block's check (see :meth:`add`); raise what it found, in the game's words."""
        try:
            check.result()
        except _Finding as finding:
            raise ModelError(f"game {self.game.name}: {finding.what} ({self.name(finding.place)})") from None

    def _named(self, found: tuple[str, _Place] | None) -> str | None:
        return None if found is None else f"{found[0]} ({self.name(found[1])})"

    def add(self, block: Block) -> None:
        """Check a block and keep it compact. It runs beside discovery, which calls the game
        meanwhile: it calls no game hook itself, and says where a fault is as a :class:`_Place`,
        named once it is raised by :meth:`finished`."""
        e, keys = block.expansion, block.keys
        n_actions = self._check_sizes(keys, e)
        self._check_keys(keys, e)
        certain = self._check_probabilities(keys, e)
        self._check_terminal_values(keys, e)
        # An entry that is no number was checked above if used; unused, it stays out of the
        # model's table (exact solving reads every entry there).
        ids = np.array([self.table.setdefault(p, len(self.table)) if fault(p) is None else -1
                        for p in e.probability_table], dtype=np.int64)
        terminal = np.asarray(e.action_counts) == 0
        choices_only = certain == n_actions  # then one successor per action is all it takes
        if not choices_only:
            probabilities = np.asarray(e.probabilities)
            probabilities = narrow(ids[probabilities] if len(ids) else probabilities)
        self.stages.append(_Stage(
            block.level, narrow(keys), terminal, narrow(np.asarray(e.action_counts)[~terminal]),
            None if choices_only else narrow(e.outcome_counts),
            narrow(np.asarray(e.next_states)),  # integers: _check_keys saw to it
            None if choices_only else probabilities,
            e.terminal_values, certain, n_actions))

    def _check_keys(self, keys, e) -> None:
        """The next states are integer keys of 64 bits: a float or a key past 2**63 - 1
        would be cast silently into another state."""
        values = np.asarray(e.next_states)
        if not len(values):
            return
        if values.dtype.kind == "u" and values.max() > np.iinfo(np.int64).max:
            at = int(np.argmax(values > np.iinfo(np.int64).max))
            action = at if e.outcome_counts is None else \
                int(np.searchsorted(np.cumsum(e.outcome_counts), at, side="right"))
            raise _Finding(f"next state {int(values[at])} is past 2**63 - 1; state keys are "
                           "64-bit signed integers", _place(keys, e, action=action))
        if values.dtype.kind not in "iu":
            raise _Finding(f"mdp_expand gave next_states of type {values.dtype}; state keys are "
                           "64-bit integers", _place(keys, e, action=0))

    def _check_probabilities(self, keys, e) -> int:
        """Check that each action's probabilities are numbers, non-negative and sum to 1;
        return how many actions have one outcome of probability 1 (choices)."""
        if e.all_choices:
            return len(e.next_states)
        counts, ids, table = np.asarray(e.outcome_counts), np.asarray(e.probabilities), e.probability_table
        if not len(counts):
            return 0
        is_one = np.array([fault(p) is None and p == 1 for p in table] or [False], dtype=bool)
        if counts.min() == counts.max() == 1 and len(ids) and ids.min() >= 0 \
                and ids.max() < len(table) and is_one[ids].all():
            return len(counts)  # every action a choice: nothing more to check
        bounds = offsets(counts)  # each action's first outcome, and the end of the last
        ends = bounds[1:]

        def culprit(index: int, problem: str, *, outcome: bool = True) -> _Finding:
            action = int(np.searchsorted(ends, index, side="right")) if outcome else index
            return _Finding(problem, _place(keys, e, action=action))

        empty = np.flatnonzero(counts < 1)
        if len(empty):
            raise culprit(int(empty[0]), "probabilities sum to 0, not 1", outcome=False)
        if len(ids) and (ids.min() < 0 or ids.max() >= len(table)):
            raise ModelError(f"game {self.game.name}: mdp_expand gave probability ids outside "
                             f"its probability_table of {len(table)}")
        used = np.zeros(len(table), dtype=bool)
        used[ids] = True
        for i in np.flatnonzero(used).tolist():
            p = table[i]
            problem = fault(p)
            if problem or p < 0:
                shown = f"probability {quoted(p)} {problem}" if problem else f"negative probability {p}"
                raise culprit(_first_use(ids, i), shown)
            if self.inexact is None and first_float([p]) is not None:
                action = int(np.searchsorted(ends, _first_use(ids, i), side="right"))
                self.inexact = (f"probability {p!r}", _place(keys, e, action=action))
        sums, one = _sums(table, ids, counts, bounds)
        wrong = np.flatnonzero(sums != one if one != 1.0 else np.abs(sums - 1) > PROBABILITY_TOLERANCE)
        if len(wrong):
            total = Fraction(int(sums[wrong[0]]), one) if one != 1.0 else f"{sums[wrong[0]]:.12g}"
            raise culprit(int(wrong[0]), f"probabilities sum to {total}, not 1", outcome=False)
        return int(np.count_nonzero((counts == 1) & is_one[ids[bounds[:-1]]]))

    def _check_sizes(self, keys, e) -> int:
        """Check that the arrays' sizes agree; return the number of actions."""
        counts = np.asarray(e.action_counts)
        if counts.ndim != 1 or counts.dtype.kind not in "iu":
            raise ModelError(f"game {self.game.name}: mdp_expand gave action_counts of type "
                             f"{counts.dtype}; expected integers")
        n_actions = int(np.sum(counts))
        n_outcomes = n_actions if e.all_choices else int(np.sum(e.outcome_counts))
        n_terminal = int(np.count_nonzero(counts == 0))
        sizes = [(len(counts), len(keys), "action_counts", "states"),
                 (n_actions if e.actions is None else len(e.actions), n_actions, "actions",
                  "actions counted"),
                 (len(e.next_states), n_outcomes, "next_states", "outcomes counted"),
                 (len(e.terminal_values), n_terminal, "terminal_values", "terminal states")]
        if not e.all_choices:
            sizes[2:2] = [(len(e.outcome_counts), n_actions, "outcome_counts", "actions counted"),
                          (len(e.probabilities), n_outcomes, "probabilities", "outcomes counted")]
        for got, expected, what, of in sizes:
            if got != expected:
                raise ModelError(f"game {self.game.name}: mdp_expand gave {got:,} {what} for "
                                 f"{expected:,} {of}")
        return n_actions

    def _check_terminal_values(self, keys, e) -> None:
        values = e.terminal_values
        if isinstance(values, np.ndarray) and values.dtype.kind not in "iuf":
            values = values.tolist()
        bad = first_fault(values)
        if bad is None:  # a game's own values are printed and summed in floats too
            huge = first_past_float(values)
            if huge is not None:
                bad = (huge[0], huge[1], "is past what a float holds (about 1.8e308)")
        if bad is None and self.inexact_value is None and first_float(values) is not None:
            position, value = first_float(values)
            self.inexact_value = (f"value {value!r}", _terminal_place(keys, e, position))
        if bad is not None:
            position, value, problem = bad
            raise _Finding(f"terminal value {quoted(value)} {problem}", _terminal_place(keys, e, position))

    def compile(self, start: float) -> CompiledModel:
        """Number the states (terminal ones first, then level by level upwards) and join the
        blocks. Each block is dropped as soon as it is copied: the joined arrays and the
        blocks do not both fit in memory for the largest models."""
        stages = self.stages
        stages.sort(key=lambda s: -s.level)
        n_states = sum(len(s.keys) for s in stages)
        n_certain = sum(s.certain for s in stages)
        n_actions = sum(s.n_actions for s in stages)
        sizes = (n_states, n_actions, n_actions - n_certain,
                 sum(len(s.next_states) for s in stages) - n_certain)
        index = np.int32 if max(sizes[0], sizes[2], sizes[3]) < 2**31 - 1 else np.int64
        lookup = _Lookup(stages, n_states, index)
        keys, runs = _number(stages, lookup, index)
        initial = int(lookup(np.array([self.discovery.initial]))[0])
        n_terminal = sum(run[1] for run in runs)
        transitions = _Transitions(stages, sizes, index, self.table)
        freed = LARGE  # so the first trim hands back discovery's free pages too
        while stages:
            stage = stages.pop()
            release(freed)
            _, _, first, count = runs.pop()
            transitions.add(stage, first, count, lookup)
            freed = _bytes(stage)
        states = keys if self.discovery.objects is None \
            else tuple(self.discovery.objects[k] for k in keys.tolist())
        prints = self.discovery.label_prints
        terminal = _join(transitions.terminal_values)
        if isinstance(terminal, np.ndarray):
            terminal = narrow(terminal)  # integers in the fewest bytes
        del lookup  # the key table is done with: free it before the columns are made
        release(LARGE)
        game = self.game
        return CompiledModel(
            states=states,
            layer_start=offsets([n_terminal, *transitions.layer_sizes]),
            action_counts=transitions.action_counts,
            layer_action_start=offsets([0, *transitions.layer_actions]),
            action_next=transitions.action_next,
            chance_start=np.cumsum(transitions.chance_start, out=transitions.chance_start),
            outcome_next=transitions.outcome_next,
            outcome_prob=transitions.outcome_prob,
            probabilities=tuple(self.table),
            initial=initial,
            terminal_values=terminal,
            terminal_columns={
                name: narrow(values) if isinstance(values, np.ndarray) else values
                for name, values in state_columns(game, states[:n_terminal], lazy=True).items()},
            info=ModelInfo(game.name, game.variant, game.shown_params(), game.describe(),
                           game.objective),
            inexact=self._named(self.inexact),
            inexact_values=self._named(self.inexact_value),
            label_prints=None if prints is None else np.array(prints, dtype=np.int64)[keys],
            seconds=time.perf_counter() - start,
        )


def _number(stages: list[_Stage], lookup: _Lookup, index: type) -> tuple[np.ndarray, list]:
    """The model's keys in id order, and each stage's ``(first terminal id, terminal count,
    first other id, other count)``, the last stage's first. A stage's terminal states take
    the next ids of layer 0, its others the next ids above: two runs of ids per stage, in
    the order of its (sorted) keys, which go straight to their places in the model's keys.
    Each stage's keys are let go once copied, and handed back as the model fills up."""
    n_terminal = sum(int(s.terminal.sum()) for s in stages)
    keys = np.empty(sum(len(s.keys) for s in stages), dtype=np.result_type(*(s.keys for s in stages)))
    next_terminal, next_id, runs, freed = 0, n_terminal, [], 0
    for i in reversed(range(len(stages))):
        stage = stages[i]
        count = int(stage.terminal.sum())
        run = (next_terminal, count, next_id, len(stage.keys) - count)
        _parted(stage.keys, stage.terminal, keys, run[0], run[2])
        for first, size in ((run[0], run[1]), (run[2], run[3])):
            lookup.add(keys[first:first + size], np.arange(first, first + size, dtype=index))
        freed += stage.keys.nbytes
        stages[i] = attrs.evolve(stage, keys=None)
        if freed >= LARGE:
            release(freed)
            freed = 0
        runs.append(run)
        next_terminal, next_id = next_terminal + run[1], next_id + run[3]
    runs.reverse()
    return keys, runs


class _Transitions:
    """The model's transition arrays, filled a stage at a time (:meth:`add`), in the order
    of the states' ids."""

    def __init__(self, stages: list[_Stage], sizes: tuple[int, int, int, int], index: type,
                 table: dict) -> None:
        n_states, n_actions, n_chance, n_outcomes = sizes
        self.index = index
        self.is_one = np.array([p == 1 for p in table] or [False], dtype=bool)
        self.action_counts = np.zeros(n_states, dtype=np.result_type(*(s.action_counts for s in stages)))
        self.action_next = np.empty(n_actions, dtype=index)
        self.chance_start = np.zeros(n_chance + 1, dtype=index)  # counts, summed at the end
        self.outcome_next = np.empty(n_outcomes, dtype=index)
        self.outcome_prob = np.empty(n_outcomes, dtype=narrow(np.array([len(table)])).dtype)
        self.terminal_values: list = []
        self.layer_sizes: list[int] = []
        self.layer_actions: list[int] = []
        self.a = self.c = self.o = 0  # the next action, chance action and outcome

    def add(self, stage: _Stage, first: int, count: int, lookup: _Lookup) -> None:
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
            counts = stage.outcome_counts.astype(np.int64)
            firsts = np.cumsum(counts) - counts
            certain = (counts == 1) & self.is_one[stage.probabilities[firsts]]
            chance = ~certain
            nc = na - stage.certain
            targets = np.empty(na, dtype=self.index)
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


class _Place(NamedTuple):
    """Where a check found something: a state's key and, for an action, the label the game
    gave it, or else its number among its state's actions (to ask the game again). (A named
    tuple: an attrs class costs half a millisecond of every start.)"""

    key: int
    label: Any = None
    number: int | None = None


class _Finding(Exception):
    """A fault a check found (``what``) and its place, named in the game's words by
    :meth:`_Intake.finished`."""

    def __init__(self, what: str, place: _Place) -> None:
        super().__init__(what)
        self.what, self.place = what, place


def _place(keys: np.ndarray, e: Any, *, action: int | None = None, state: int | None = None) -> _Place:
    """The place of action number ``action`` of an expansion of ``keys``, or of its
    ``state``-th state."""
    if action is None:
        return _Place(int(keys[state]))
    key, label, number = action_place(keys, e, action)
    return _Place(key, label) if e.actions is not None else _Place(key, number=number)


def _terminal_place(keys: np.ndarray, e: Any, position: int) -> _Place:
    """The place of an expansion's ``position``-th terminal state."""
    return _place(keys, e, state=int(np.flatnonzero(np.asarray(e.action_counts) == 0)[position]))


def _parted(values: np.ndarray, chosen: np.ndarray, out: np.ndarray, first: int, rest: int) -> None:
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


def _bytes(stage: _Stage) -> int:
    """The memory of a stage's arrays (freed when it is dropped)."""
    return sum(getattr(stage, name).nbytes for name in (
        "keys", "terminal", "action_counts", "outcome_counts", "next_states",
        "probabilities")
        if isinstance(getattr(stage, name), np.ndarray))


def _first_use(probabilities: np.ndarray, table_id: int) -> int:
    """The first outcome whose probability is ``table_id``."""
    return int(np.flatnonzero(probabilities == table_id)[0])


def _sums(table: tuple, probabilities: np.ndarray, counts: np.ndarray, bounds: np.ndarray):
    """Each action's sum of probabilities, and what a sum of 1 reads as; ``bounds`` are
    the actions' first outcomes, with the end of the last at the end.

    Rational probabilities are summed exactly, as integers over their common denominator
    (which a sum of 1 then equals); any float makes the sums floats, checked within
    :data:`PROBABILITY_TOLERANCE`. The outcomes are weighed about
    :data:`~mdp.engine.model.OUTCOMES_AT_A_TIME` at a time (a stage may have hundreds of millions).
    """
    if not all(isinstance(p, Rational) for p in table):
        weights, one = np.array([float(p) for p in table]), 1.0
    else:
        one = math.lcm(*(Fraction(p).denominator for p in table))
        weights = [int(Fraction(p) * one) for p in table]
        fits = max(weights, default=0) * int(np.max(counts)) < 2**62
        weights = np.array(weights, dtype=np.int64 if fits else object)
    sums = np.empty(len(counts), dtype=weights.dtype)
    for a0, a1 in pieces(bounds, OUTCOMES_AT_A_TIME):
        o0 = bounds[a0]
        np.add.reduceat(weights[probabilities[o0:bounds[a1]]], bounds[a0:a1] - o0, out=sums[a0:a1])
    return sums, one


class _Lookup:
    """Maps state keys to ids: by a direct table when keys are dense, else by binary search."""

    def __init__(self, stages: list[_Stage], n_states: int, index: type) -> None:
        low = min(int(s.keys[0]) for s in stages)
        high = max(int(s.keys[-1]) for s in stages)
        self.direct = None
        self.buffers = threading.local()
        if low >= 0 and high < 4 * n_states + 1024:
            # Not filled: only reachable keys are looked up, and the pages of keys never
            # added are then never touched (nor zeroed by the kernel).
            self.direct = np.empty(high + 1, dtype=index)
        self.parts: list[tuple[np.ndarray, np.ndarray]] = []

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
        if self.direct is not None:
            if out is None:
                out = np.empty(len(keys), dtype=self.direct.dtype)

            def piece(part: slice) -> None:
                # Through a buffer of 64-bit indices, one per thread: numpy would make them of
                # the keys, a temporary twice their size, in fresh memory at every stage.
                size = part.stop - part.start
                buffer = getattr(self.buffers, "index", None)
                if buffer is None or len(buffer) < size:
                    buffer = self.buffers.index = np.empty(size, dtype=np.intp)
                index = buffer[:size]
                index[:] = keys[part]
                np.take(self.direct, index, out=out[part], mode="clip")  # "raise" would copy

            side_by_side(piece, slices(len(keys)))
            return out
        if self.parts:
            all_keys = np.concatenate([k for k, _ in self.parts])
            order = np.argsort(all_keys, kind="stable")
            self.keys, self.ids = all_keys[order], np.concatenate([i for _, i in self.parts])[order]
            self.parts = []
        return np.take(self.ids, np.searchsorted(self.keys, keys), out=out, mode="clip")


def _join(parts: list) -> np.ndarray | tuple:
    """Numeric arrays stay one array; anything else becomes a tuple of numbers."""
    parts = [p for p in parts if len(p)]  # an empty np.array([]) would make it all float
    if not parts:
        return np.zeros(0, dtype=np.int64)
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" for p in parts):
        return np.concatenate(parts)
    return tuple(v for p in parts for v in (p.tolist() if isinstance(p, np.ndarray) else p))
