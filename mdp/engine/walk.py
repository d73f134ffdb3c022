"""Discovering a game's states one at a time: the per-state hooks walked depth-first from the
initial state, each state given a height (0 for a terminal state, else one more than its
highest successor), and handed to :func:`mdp.compile` as one :class:`Block` per height,
in the same arrays the batch way gives. What the hooks return is checked where it is
called for (:mod:`mdp.engine.checks`); what the walk itself checks is only a cycle that no
play leaves. States that can come back to one another share a height: a cyclic layer of the
model (:mod:`mdp.engine.cycles`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mdp.engine import checks
from mdp.engine.budget import Budget, Deepening
from mdp.engine.expansion import Block, Discovery, Expansion
from mdp.engine.same import mark, same
from mdp.errors import PLUGIN_FAULTS, CycleError, ModelError, fault, said
from mdp.game.columns import SameColumns
from mdp.game.load import Game


def walk(game: Game, budget: Budget) -> Discovery:
    """Depth-first search through the per-state hooks, finding the strongly connected
    components as it goes (Tarjan's algorithm, without recursion): states that can come back
    to one another share a component, and a component's height is one more than the highest
    of the components it leads to. A component that no play leaves is refused."""
    initial = checks.initial_state(game)
    index: dict[Any, int] = {}
    states: list[Any] = []
    marks: list[bytes | None] = []  # of each state: see mdp.engine.same
    expansions: list[list[tuple[Any, list[tuple[Any, Any]]]]] = []
    heights: list[int] = []  # -1 until a state's component is complete
    low: list[int] = []  # the lowest id the state's search reached, while it is open
    prints: list[int] = []  # of each state's labels: see label_print
    stack: list[tuple[int, Iterator[Any]]] = []
    open_states: list[int] = []  # Tarjan's stack: states whose component is not complete
    place: list[int] = []  # each state's place in it
    same_columns = SameColumns(game)
    column_prints: list[int] = []  # of each state's readable columns, where it has them
    deepening, deepest, look_at = Deepening(budget), 0, 64 * Deepening.EVERY
    cyclic = False  # whether a component has a cycle
    hashes: list[int] = []  # of each state as it was met: one changed since is refused

    def discover(state: Any) -> None:
        nonlocal deepest, look_at
        index[state] = len(states)
        states.append(state)
        marks.append(mark(state))
        kept = hash(state)  # (asked of it just now, as it was indexed)
        hashes.append(kept)
        actions = checks.actions_of(game, state)
        _unchanged(game, state, kept, "mdp_actions")
        expansion = []
        for action in actions:
            expansion.append((action, checks.outcomes_of(game, state, action)))
            _unchanged(game, state, kept, "mdp_outcomes", action)
        column_print = same_columns(state)
        _unchanged(game, state, kept, "its columns' hooks")
        if column_print is not None:
            column_prints.append(column_print)
        budget.take(1, sum(len(outcomes) for _, outcomes in expansion))
        expansions.append(expansion)
        prints.append(label_print([action for action, _ in expansion]))
        heights.append(-1)
        low.append(len(states) - 1)
        place.append(len(open_states))
        open_states.append(len(states) - 1)
        stack.append((len(states) - 1, iter([nxt for _, outs in expansion for _, nxt in outs])))
        deepest = max(deepest, len(stack))
        if len(states) % Deepening.EVERY == 0 or budget.outcomes >= look_at:
            look_at = budget.outcomes + 64 * Deepening.EVERY
            deepening.look(len(states), deepest)

    def successors(sid: int) -> set[int]:
        return {_kept_id(game, index, nxt, states[sid]) for _, outs in expansions[sid] for _, nxt in outs}

    def close(root: int) -> None:
        """The component whose first state is ``root``: all of it at one height."""
        members = open_states[place[root]:]
        del open_states[place[root]:]
        inside = set(members)
        leaving = [heights[c] for sid in members for c in successors(sid) if c not in inside]
        nonlocal cyclic
        if len(members) > 1 or root in successors(root):
            cyclic = True
            if not leaving:
                _raise_cycle(game, states, inside, root, successors)
        height = 1 + max(leaving, default=-1)
        for sid in members:
            heights[sid] = height

    discover(initial)
    while stack:
        sid, children = stack[-1]
        for child in children:
            cid = _looked_up(game, index, child, states[sid])
            if cid is None:
                discover(child)
                break
            known = marks[cid]
            if (known is None or mark(child) != known) and not same(child, states[cid]):
                _raise_merged(game, states[cid], child, states[sid], expansions[sid])
            if heights[cid] < 0:  # open: a way back to a state of the search
                low[sid] = min(low[sid], low[cid])
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                low[parent] = min(low[parent], low[sid])
            if low[sid] == sid:
                close(sid)
    changed = next((sid for sid, state in enumerate(states) if hash(state) != hashes[sid]), None)
    if changed is not None:  # a state object changed in place since, by a hook not handed it
        raise ModelError(f"game {game.name}: a hook changed a state in place after it was given, "
                         f"now {said(states[changed])} (its hash with it); a hook gives new states "
                         "and leaves those given as they are")
    blocks = _blocks_by_height(game, budget, states, index, expansions, heights)
    return Discovery(0, blocks, states, prints, cyclic,
                     column_prints if same_columns.active else None)


def _unchanged(game: Game, state: Any, kept: int, hook: str, action: Any = None) -> None:
    """Refuse a state that ``hook`` changed in place (a state object whose fields it set):
    kept by its hash, it would be taken for another, and another game solved."""
    if hash(state) != kept:
        at = "" if action is None else f", action {said(action)}"
        raise ModelError(f"game {game.name}: {hook} changed the state it was handed, now "
                         f"{said(state)}{at}; a hook reads a state and leaves it as it is (give "
                         "a new state instead)")


def _looked_up(game: Game, index: dict[Any, int], state: Any, parent: Any) -> int | None:
    """The id of a state met before, or ``None``: its ``__hash__`` or ``__eq__`` (asked of
    the states it is compared with) raising is refused, naming the game, hook and states."""
    try:
        return index.get(state)
    except PLUGIN_FAULTS as error:
        raise ModelError(f"game {game.name}: mdp_outcomes gave the next state {said(state)}, "
                         f"whose hash or == raised {fault(error)} as it was compared with the "
                         f"states met before (state {said(parent)}); a state's hash and == must "
                         "answer") from None


def _kept_id(game: Game, index: dict[Any, int], state: Any, parent: Any) -> int:
    """The id of a state found before, kept by its hash: one changed since (a game that
    changed the state object it gave, or was handed) is refused in one line."""
    try:
        return index[state]
    except KeyError:
        raise ModelError(f"game {game.name}: mdp_outcomes gave the state {said(state)} (after "
                         f"state {said(parent)}), which is no longer found where it was kept: "
                         "it changed after it was given (its hash with it); a state must not "
                         "change once given") from None


def label_print(actions: list[Any]) -> int:
    """A 64-bit fingerprint of a state's action labels in their order, kept with the model
    so that a game that gives them in another order when asked again is found
    (:func:`mdp.action_labels`). A label equal only to itself (an object of a class with no
    ``__eq__``) counts by its class: asked again, the game makes another."""
    try:
        # mypy takes the two __hash__ for different signatures that can never be one object.
        return hash(tuple(a if type(a).__hash__ is not object.__hash__  # type: ignore[comparison-overlap]
                          else type(a).__qualname__
                          for a in actions))
    except TypeError:  # an unhashable label
        return hash(repr(actions))


def label_prints(actions: Sequence[Any], counts: np.ndarray) -> np.ndarray:
    """Per state, :func:`label_print` of its labels: ``counts[i]`` of ``actions`` for state
    ``i``, in turn (a batch game's labels as it gave them)."""
    labels, ends = list(actions), np.cumsum(counts).tolist()
    return np.array([label_print(labels[end - count:end])
                     for end, count in zip(ends, np.asarray(counts).tolist())], dtype=np.int64)


def _raise_merged(game: Game, known: Any, found: Any, state: Any,
                  expansion: list[tuple[Any, list[tuple[Any, Any]]]]) -> None:
    """Refuse a state met again that Python takes as equal to a known one, but is not the
    same value (:func:`~mdp.engine.same.same`): a dict would take one for the other. Its
    action is the first of ``state``'s whose outcomes hold it."""
    action = next(action for action, outcomes in expansion for _, nxt in outcomes if nxt is found)
    raise ModelError(
        f"game {game.name}: mdp_outcomes gave the state {said(found)} (after state "
        f"{said(state)}, action {said(action)}), equal in Python to state {said(known)} but "
        "not the same value, so one would be taken for the other; write each state one way "
        "(not 1 in one place and True, 1.0 or Fraction(1) in another, nor 0.0 and -0.0), "
        "and let == hold only for the same value")


def _raise_cycle(game: Game, states: list[Any], inside: set[int], root: int,
                 successors: Any) -> None:
    """Refuse a component that no play leaves, naming a cycle in it."""
    path, seen, at = [root], {root: 0}, root
    while True:
        at = min(c for c in successors(at) if c in inside)
        if at in seen:
            loop = path[seen[at]:] + [at]
            break
        seen[at] = len(path)
        path.append(at)
    shown = " -> ".join(said(states[s]) for s in loop[-6:])
    more = "... -> " if len(loop) > 6 else ""
    raise CycleError(
        f"game {game.name}: the states form a cycle ({more}{shown}) that no play leaves, so "
        "the game would never end; give every cycle a way out"
    )


def _blocks_by_height(game: Game, budget: Budget, states: list[Any], index: dict[Any, int],
                      expansions: list[list[tuple[Any, list[tuple[Any, Any]]]]],
                      heights: list[int]) -> Iterator[Block]:
    """The walk's findings as one block per height, in the same arrays the batch way gives;
    the memory the process holds is looked at again at each height."""
    by_height: dict[int, list[int]] = {}
    for key, height in enumerate(heights):
        by_height.setdefault(height, []).append(key)
    for height in sorted(by_height, reverse=True):
        budget.check(budget.count, budget.outcomes, measure=True)
        keys = by_height[height]
        table: dict[Any, int] = {}
        counts, actions, outcome_counts, nexts, probs, terminal = [], [], [], [], [], []
        for key in keys:
            counts.append(len(expansions[key]))
            if not expansions[key]:
                kept = hash(states[key])
                terminal.append(checks.terminal_value_of(game, states[key]))
                _unchanged(game, states[key], kept, "mdp_terminal_value")
            for action, outcomes in expansions[key]:
                actions.append(action)
                outcome_counts.append(len(outcomes))
                for probability, nxt in outcomes:
                    probs.append(_table_id(table, probability))
                    nexts.append(_kept_id(game, index, nxt, states[key]))
        yield Block(height, np.asarray(keys, dtype=np.int64), Expansion(
            action_counts=np.asarray(counts, dtype=np.int64),
            actions=actions,
            outcome_counts=np.asarray(outcome_counts, dtype=np.int64),
            next_states=np.asarray(nexts, dtype=np.int64),
            probabilities=np.asarray(probs, dtype=np.int64),
            probability_table=tuple(table),
            terminal_values=terminal,
        ))


def _table_id(table: dict[Any, int], probability: Any) -> int:
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
