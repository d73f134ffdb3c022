"""Discovering a game's states one at a time: the per-state hooks walked depth-first from the
initial state, each state given a height (0 for a terminal state, else one more than its
highest successor), and handed to :func:`mdp.compile` as one :class:`Block` per height,
in the same arrays the batch way gives. What the hooks return is checked where it is
called for (:mod:`mdp.engine.checks`); what the walk itself checks is only a cycle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from mdp.engine import checks
from mdp.engine.budget import Budget, Deepening
from mdp.engine.expansion import Block, Discovery, Expansion
from mdp.errors import CycleError
from mdp.game.columns import SameColumns
from mdp.game.load import Game


def walk(game: Game, budget: Budget) -> Discovery:
    """Depth-first search through the per-state hooks; it stops at the first cycle."""
    initial = checks.initial_state(game)
    index: dict[Any, int] = {}
    states: list[Any] = []
    expansions: list[list[tuple[Any, list[tuple[Any, Any]]]]] = []
    heights: list[int] = []  # -1 while a state is on the search stack
    prints: list[int] = []  # of each state's labels: see label_print
    stack: list[tuple[int, Iterator[Any]]] = []
    same_columns = SameColumns(game)
    deepening, deepest, look_at = Deepening(budget), 0, 64 * Deepening.EVERY

    def discover(state: Any) -> None:
        nonlocal deepest, look_at
        index[state] = len(states)
        states.append(state)
        expansion = [(action, checks.outcomes_of(game, state, action))
                     for action in checks.actions_of(game, state)]
        same_columns(state)
        budget.take(1, sum(len(outcomes) for _, outcomes in expansion))
        expansions.append(expansion)
        prints.append(label_print([action for action, _ in expansion]))
        heights.append(-1)
        stack.append((len(states) - 1, iter([nxt for _, outs in expansion for _, nxt in outs])))
        deepest = max(deepest, len(stack))
        if len(states) % Deepening.EVERY == 0 or budget.outcomes >= look_at:
            look_at = budget.outcomes + 64 * Deepening.EVERY
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
    blocks = _blocks_by_height(game, budget, states, index, expansions, heights)
    return Discovery(0, blocks, states, prints)


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


def _raise_cycle(game: Game, states: list[Any], stack: list[int], repeated: int) -> None:
    loop = stack[stack.index(repeated):] + [repeated]
    shown = " -> ".join(repr(states[s]) for s in loop[-6:])
    more = "... -> " if len(loop) > 6 else ""
    raise CycleError(
        f"game {game.name}: the states form a cycle ({more}{shown}); "
        "only acyclic, finite-horizon games can be solved"
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
                terminal.append(checks.terminal_value_of(game, states[key]))
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
