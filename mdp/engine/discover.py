"""Discovering a game's states, the two ways a game can describe itself.

- :func:`walk` calls the per-state hooks, depth-first from the initial state, and orders the
  states by height (0 for a terminal state, else one more than its highest successor).
- :func:`by_stages` calls the batch hooks a stage at a time, from the highest stage down: every
  transition lowers the stage, so no state is met twice.

Both hand what they find to :func:`mdp.compile` as :class:`Block` s: the states of one level
with their :class:`Expansion`, exactly as the game gave it. Checking the numbers and numbering
the states is the compile step's work, not theirs; what each checks here is only what its
own way of walking needs (a cycle; a stage that does not decrease).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

from mdp.engine.parallel import side_by_side, slices
from mdp.errors import CycleError, ModelError, TooLarge
from mdp.game.columns import SameColumns
from mdp.game.load import Game, describe


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
    probability_table: tuple
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


@attrs.frozen(eq=False)
class Block:
    """States of one level and their expansion; every transition leads to a lower level."""

    level: int
    keys: np.ndarray
    """The states' keys: sorted, distinct 64-bit integers."""
    expansion: Expansion


WALK_BYTES = (400, 250)
"""Memory a walk takes, per state and per outcome, until compiled: Python objects (measured:
about 1.4 kB for a state with two actions of two outcomes each)."""
STAGE_BYTES = (38, 1)
"""Memory the batch way takes, per state and per outcome, up to the solved model (measured,
whole process, on the benchmark's large cases: 986 MB for 23 million states and 118
million outcomes, 3.8 GB for 92 million states and 482 million outcomes, 13.9 GB for 369
million states and about 1.9 billion outcomes; these figures estimate 1.0 GB, 4.0 GB and
16 GB)."""


class Budget:
    """The state limit and the memory budget, and progress on a terminal: one place for both
    ways of walking. ``costs`` is the bytes per state and per outcome of the way used."""

    def __init__(self, game: Game, max_states: int | None, max_memory: int | None,
                 costs: tuple[int, int], progress: Callable[[str], None] | None):
        self.game, self.max_states, self.max_memory = game, max_states, max_memory
        self.costs, self.progress = costs, progress
        self.count = self.outcomes = 0

    def check(self, states: int, outcomes: int = 0) -> None:
        """Refuse, with one line saying how to raise the limit, if this many states and
        outcomes would pass the state limit or the memory budget."""
        if self.max_states is not None and states > self.max_states:
            raise TooLarge(f"game {self.game.name}: more than {self.max_states:,} states; raise "
                           "the limit with --max-states (max_states= in Python)")
        need = states * self.costs[0] + outcomes * self.costs[1]
        if self.max_memory is not None and need > self.max_memory:
            raise TooLarge(f"game {self.game.name}: the model would need more than {size(need)} "
                           f"of memory ({states:,} states so far), past the budget of "
                           f"{size(self.max_memory)}; raise it with --max-memory (max_memory= "
                           "in Python)")

    def take(self, states: int, outcomes: int = 0, note: str = "") -> None:
        """Count ``states`` and ``outcomes`` more; ``note`` says where (a stage), and shows
        progress at once."""
        before = self.count
        self.count, self.outcomes = self.count + states, self.outcomes + outcomes
        self.check(self.count, self.outcomes)
        if self.progress and (note or before // 50_000 != self.count // 50_000):
            self.progress(f"explored {self.count:,} states{note}")


ENDLESS_AFTER = 5.0
"""Seconds of walking after which a game whose paths still grow deeper is said to perhaps
have no end, once (:class:`UnboundedWarning`): else it would run silently until the state
limit, minutes later."""


class UnboundedWarning(UserWarning):
    """Warned, once, while :func:`mdp.compile` walks a game one state at a time, when after
    a few seconds its paths still grow deeper: a game with no end on some path (Pig without
    a cap on the score) runs until the state limit. The command line prints it as one line,
    ``mdp: warning: ...``."""


class _Deepening:
    """Watches how deep a walk's paths go: every :data:`ENDLESS_AFTER` / 2 seconds (looked at
    every 1,024 states) it notes the deepest path so far, and warns once if that grew since
    the last look once :data:`ENDLESS_AFTER` seconds have passed. A game with an end on
    every path reaches its depth within its first descent and then stops deepening."""

    EVERY = 1024

    def __init__(self, game: Game) -> None:
        self.game, self.start = game, time.perf_counter()
        self.last: int | None = None  # the depth at the last look
        self.next = self.start + ENDLESS_AFTER / 2

    def look(self, states: int, depth: int) -> None:
        now = time.perf_counter()
        if now < self.next:
            return
        self.next = now + ENDLESS_AFTER / 2
        if self.last is not None and depth > self.last and now - self.start >= ENDLESS_AFTER:
            warnings.warn(UnboundedWarning(
                f"game {self.game.name}: {states:,} states so far, on paths {depth - 1:,} moves "
                "deep and growing: the game may have no end; make every path end (a cap on a "
                "score, a limit on turns), or stop sooner with --max-states N (max_states= in "
                "Python)"), stacklevel=5)  # at the caller of mdp.compile: look, discover, walk, compile
            self.next = float("inf")
        self.last = depth


def size(n: float) -> str:
    """Bytes for people: ``1.5 GB``, ``300 MB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{int(n)} bytes"


@attrs.frozen(eq=False)
class Discovery:
    """What a walk found: the initial state's key, the blocks (an iterator: the batch way
    yields each stage as it is expanded), and the state objects that the keys index, for a
    game whose states are not integers."""

    initial: int
    blocks: Iterator[Block]
    objects: list | None = None
    label_prints: list[int] | None = None
    """Per key, :func:`label_print` of the state's actions, where the walk met their labels."""

    def state(self, key: int) -> Any:
        """The state that ``key`` stands for, as the game wrote it."""
        return self.objects[key] if self.objects is not None else key


def _required(game: Game, hook: str, **kwargs: Any) -> Any:
    """Call a hook every game needs; one that no plugin implements (an empty file, a hook
    misspelt or not marked) is said so, rather than that it returned nothing."""
    answer = game.call(hook, **kwargs)
    if answer is None and not game.implements(hook):
        raise ModelError(f"game {game.name}: no {hook} hook; a game implements "
                         "mdp_initial_state, mdp_actions, mdp_outcomes and mdp_terminal_value, "
                         "each marked @mdp.hookimpl")
    return answer


def _initial(game: Game) -> Any:
    initial = _required(game, "mdp_initial_state")
    if initial is None:
        raise ModelError(f"game {game.name}: mdp_initial_state returned nothing")
    try:
        hash(initial)
    except TypeError:
        raise ModelError(f"game {game.name}: the initial state {initial!r} is not hashable; "
                         "states must be (use a tuple or a frozenset, not a list or a set)") from None
    return initial


# The per-state way.


def walk(game: Game, budget: Budget) -> Discovery:
    """Depth-first search through the per-state hooks; it stops at the first cycle."""
    initial = _initial(game)
    index: dict[Any, int] = {}
    states: list[Any] = []
    expansions: list[list[tuple[Any, list[tuple[Any, Any]]]]] = []
    heights: list[int] = []  # -1 while a state is on the search stack
    prints: list[int] = []  # of each state's labels: see label_print
    stack: list[tuple[int, Iterator]] = []
    same_columns = SameColumns(game)
    deepening, deepest = _Deepening(game), 0

    def discover(state: Any) -> None:
        nonlocal deepest
        index[state] = len(states)
        states.append(state)
        expansion = _expand_one(game, state)
        same_columns(state)
        budget.take(1, sum(len(outcomes) for _, outcomes in expansion))
        expansions.append(expansion)
        prints.append(label_print([action for action, _ in expansion]))
        heights.append(-1)
        stack.append((len(states) - 1, iter([nxt for _, outs in expansion for _, nxt in outs])))
        deepest = max(deepest, len(stack))
        if len(states) % _Deepening.EVERY == 0:
            deepening.look(len(states), deepest)

    discover(initial)
    while stack:
        sid, children = stack[-1]
        for child in children:
            cid = index.get(child)
            if cid is None:
                discover(child)
                break
            if heights[cid] < 0:
                _raise_cycle(game, states, [s for s, _ in stack], cid)
        else:
            stack.pop()
            heights[sid] = 1 + max(
                (heights[index[nxt]] for _, outs in expansions[sid] for _, nxt in outs),
                default=-1,
            )
    return Discovery(0, _blocks_by_height(game, states, index, expansions, heights), states, prints)


def label_print(actions: list) -> int:
    """A 64-bit fingerprint of a state's action labels in their order, kept with the model
    so that a game that gives them in another order when asked again is found
    (:func:`mdp.action_labels`). A label equal only to itself (an object of a class with no
    ``__eq__``) counts by its class: asked again, the game makes another."""
    try:
        return hash(tuple(a if type(a).__hash__ is not object.__hash__ else type(a).__qualname__
                          for a in actions))
    except TypeError:  # an unhashable label
        return hash(repr(actions))


def actions_of(game: Game, state: Any) -> list:
    """The game's actions in ``state`` (:func:`~mdp.hookspecs.game.mdp_actions`), checked
    to be a list."""
    return _listed(game, "mdp_actions", _required(game, "mdp_actions", state=state), f"state {state!r}")


def _expand_one(game: Game, state: Any) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    actions = actions_of(game, state)
    seen: set = set()
    for action in actions:
        try:
            twice = action in seen
        except TypeError:
            raise ModelError(f"game {game.name}: mdp_actions gave the action {action!r}, which is "
                             f"not hashable (state {state!r}); actions must be (use a tuple or a "
                             "frozenset, not a list or a set)") from None
        if twice:
            raise ModelError(f"game {game.name}: mdp_actions gave the action {action!r} twice "
                             f"(state {state!r}); each action once")
        seen.add(action)
    expansion = []
    for action in actions:
        where = f"state {state!r}, action {action!r}"
        outcomes = _listed(game, "mdp_outcomes",
                           _required(game, "mdp_outcomes", state=state, action=action), where)
        for item in outcomes:
            try:
                _, nxt = item
                hash(nxt)
            except (TypeError, ValueError):
                raise ModelError(
                    f"game {game.name}: mdp_outcomes gave {item!r}, "
                    f"not a (probability, hashable next state) pair ({where})"
                ) from None
        expansion.append((action, outcomes))
    return expansion


def _listed(game: Game, hook: str, result: Any, where: str) -> list:
    if result is None:
        raise ModelError(f"game {game.name}: {hook} returned nothing ({where})")
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        raise ModelError(f"game {game.name}: {hook} returned {result!r}, not a list ({where})")
    return list(result)


def _raise_cycle(game: Game, states: list, stack: list[int], repeated: int) -> None:
    loop = stack[stack.index(repeated):] + [repeated]
    shown = " -> ".join(repr(states[s]) for s in loop[-6:])
    more = "... -> " if len(loop) > 6 else ""
    raise CycleError(
        f"game {game.name}: the states form a cycle ({more}{shown}); "
        "only acyclic, finite-horizon games can be solved"
    )


def _blocks_by_height(game, states, index, expansions, heights) -> Iterator[Block]:
    """The walk's findings as one block per height, in the same arrays the batch way gives."""
    by_height: dict[int, list[int]] = {}
    for key, height in enumerate(heights):
        by_height.setdefault(height, []).append(key)
    for height in sorted(by_height, reverse=True):
        keys = by_height[height]
        table: dict[Any, int] = {}
        counts, actions, outcome_counts, nexts, probs, terminal = [], [], [], [], [], []
        for key in keys:
            counts.append(len(expansions[key]))
            if not expansions[key]:
                terminal.append(_required(game, "mdp_terminal_value", state=states[key]))
            for action, outcomes in expansions[key]:
                actions.append(action)
                outcome_counts.append(len(outcomes))
                for probability, nxt in outcomes:
                    probs.append(_table_id(table, probability))
                    nexts.append(index[nxt])
        yield Block(height, np.asarray(keys, dtype=np.int64), Expansion(
            action_counts=np.asarray(counts, dtype=np.int64),
            actions=actions,
            outcome_counts=np.asarray(outcome_counts, dtype=np.int64),
            next_states=np.asarray(nexts, dtype=np.int64),
            probabilities=np.asarray(probs, dtype=np.int64),
            probability_table=tuple(table),
            terminal_values=terminal,
        ))


def _table_id(table: dict, probability: Any) -> int:
    """The id of a probability in the block's table; an unhashable one gets an id of its own
    (the compile step then says it is not a number)."""
    try:
        return table.setdefault(probability, len(table))
    except TypeError:
        table[_Unhashable(probability)] = len(table)
        return len(table) - 1


class _Unhashable:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


# The batch way.


def by_stages(game: Game, budget: Budget) -> Discovery:
    """Expand the states a stage at a time through :func:`~mdp.hookspecs.game.mdp_expand`."""
    initial = _initial(game)
    if isinstance(initial, bool) or not isinstance(initial, (int, np.integer)):
        raise ModelError(f"game {game.name}: a game with mdp_expand needs an int initial state, "
                         f"not {initial!r}")
    return Discovery(int(initial), _stages(game, budget, int(initial)))


def _stages(game: Game, budget: Budget, initial: int) -> Iterator[Block]:
    pending: dict[int, list[np.ndarray]] = {}  # each stage's keys, as they were found
    rough: set[int] = set()  # stages some of whose keys may repeat or be out of order
    distinct = _Distinct()
    keys = np.array([initial], dtype=np.int64)
    _schedule(pending, keys, _stage_of(game, keys))
    while pending:
        stage = max(pending)
        parts = pending.pop(stage)
        # Keys found by one stage alone are sorted and distinct already (a chance layer's
        # states, often): only keys from several stages, or unsorted, are merged.
        keys = parts[0] if len(parts) == 1 and stage not in rough \
            else distinct(np.concatenate(parts))
        keys = keys.astype(np.int64)
        del parts
        budget.take(len(keys), note=f" (stage {stage})")
        expansion = expand(game, keys, labels=False)
        budget.take(0, len(expansion.next_states))
        yield Block(stage, keys, expansion)  # compile checks it before we go on
        next_states = np.asarray(expansion.next_states)
        if next_states.dtype.kind not in "iu":
            next_states = next_states.astype(np.int64)
        # Many outcomes lead to the same state: their stages are asked for, checked and filed
        # once per distinct state where the keys are dense enough for a bitmap.
        found = distinct(next_states, sort_sparse=False)
        if found is None:  # too sparse for the bitmap: sorted when their stage is reached
            found = next_states
        next_stages = _stage_of(game, found)
        rising = np.flatnonzero(next_stages >= stage)
        if len(rising):
            outcome = int(np.flatnonzero(next_states == found[rising[0]])[0])
            raise _rising(game, keys, expansion, next_states, int(next_stages[rising[0]]),
                          outcome, stage)
        filed = _schedule(pending, found, next_stages)
        if found is next_states:
            rough.update(filed)
        # Drop this stage's arrays before the next is expanded; their pages are kept for
        # the next stage's (handed back here, they were faulted in again at every stage:
        # 180,000 page faults at 20/4, and the peak comes later, in the solve).
        del expansion, next_states, next_stages, keys, found


def expand(game: Game, keys: np.ndarray, labels: bool) -> Expansion:
    """The game's :func:`~mdp.hookspecs.game.mdp_expand` of ``keys``, checked to be an
    :class:`Expansion`."""
    expansion = game.call("mdp_expand", states=keys, labels=labels)
    if not isinstance(expansion, Expansion):
        raise ModelError(f"game {game.name}: mdp_expand returned {type(expansion).__name__}, "
                         "not an mdp.Expansion")
    return expansion


def _stage_of(game: Game, keys: np.ndarray) -> np.ndarray:
    if not game.implements("mdp_stage"):
        raise ModelError(f"game {game.name}: a game with mdp_expand must implement mdp_stage")
    stages = np.asarray(game.call("mdp_stage", states=keys))
    if stages.shape != keys.shape or stages.dtype.kind not in "iu":
        raise ModelError(f"game {game.name}: mdp_stage gave {stages.shape[0] if stages.ndim else 1:,} "
                         f"values of type {stages.dtype} for {len(keys):,} states; expected one "
                         "integer per state")
    return stages


def _rising(game, keys, expansion, next_states, next_stage, outcome, stage) -> ModelError:
    action = outcome if expansion.all_choices else \
        int(np.searchsorted(np.cumsum(expansion.outcome_counts), outcome, side="right"))
    state = keys[np.searchsorted(np.cumsum(expansion.action_counts), action, side="right")]
    return ModelError(
        f"game {game.name}: the stage does not decrease: "
        f"{describe(game, next_states[outcome])} has stage {next_stage}, "
        f"not below {stage} ({describe(game, state, action_label(game, keys, expansion, action))})")


def action_label(game: Game, keys: np.ndarray, expansion: Expansion, action: int) -> Any:
    """The label of action number ``action`` of an expansion of ``keys``: as the game gave
    it, or, where it gave none, asked of it again for that action's state alone."""
    key, label, number = action_place(keys, expansion, action)
    return label if expansion.actions is not None else label_again(game, key, number)


def action_place(keys: np.ndarray, expansion: Expansion, action: int) -> tuple[int, Any, int]:
    """Action number ``action`` of an expansion of ``keys``: its state's key, its label as the
    game gave it (``None`` if it gave none) and its number among its state's actions."""
    ends = np.cumsum(expansion.action_counts)
    state = int(np.searchsorted(ends, action, side="right"))
    label = None if expansion.actions is None else expansion.actions[action]
    return int(keys[state]), label, action - int(ends[state] - expansion.action_counts[state])


def label_again(game: Game, key: int, number: int) -> Any:
    """The label of action number ``number`` of the state ``key``, asked of the game again."""
    return expand(game, np.array([key], dtype=np.int64), labels=True).actions[number]


def _schedule(pending: dict, keys: np.ndarray, stages: np.ndarray) -> list[int]:
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
    found: list = [None] * len(parts)

    def piece(slice_: tuple[int, slice]) -> None:
        j, part = slice_
        found[j] = (int(keys[part].min()), int(keys[part].max()))

    side_by_side(piece, enumerate(parts))
    return min(low for low, _ in found), max(high for _, high in found)


def narrow(values) -> np.ndarray:
    """The same integers in the narrowest type that holds them (memory is the limit)."""
    values = np.asarray(values)
    if values.dtype.kind not in "iu":
        return values
    if not len(values):
        return values.astype(np.uint8)
    low, high = values.min(), values.max()
    for kind, smallest, largest in _NARROW_TYPES:
        if smallest <= low and high <= largest:
            return values.astype(kind, copy=False)
    return values.astype(np.int64, copy=False)


_NARROW_TYPES = [(kind, np.iinfo(kind).min, np.iinfo(kind).max)
                 for kind in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32)]
