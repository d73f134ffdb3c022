"""Exploring a game: every reachable state, checked, ordered and compiled into arrays."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Rational
from typing import Any

import numpy as np

from mdp.errors import CycleError, MdpError, ModelError, TooLarge
from mdp.game import Game
from mdp.model import PROBABILITY_TOLERANCE, CompiledModel, offsets

DEFAULT_MAX_STATES = 50_000_000
"""The state limit unless the caller sets another; a model this large takes several GB."""


def explore(
    game: Game,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    batch: bool | None = None,
    progress: Callable[[str], None] | None = None,
) -> CompiledModel:
    """Visit every state reachable from the initial one and compile the model.

    A game that implements :func:`~mdp.hookspecs.mdp_expand` is explored a stage at a time
    through it, a stage at a time; ``batch=False`` uses its per-state hooks instead.
    ``max_states`` (``None``: no limit) refuses a model whose estimated size exceeds it
    before any work, and stops exploring once it is passed. ``progress``, if given, is
    called now and then with a short text saying how far exploration has got.
    """
    if max_states is not None:
        estimate = game.call("mdp_estimate_states")
        if estimate is not None and estimate > max_states:
            raise TooLarge(
                f"game {game.name}: about {estimate:,} states, over the limit of "
                f"{max_states:,}; raise it with --max-states (max_states= in Python)"
            )
    if batch is None:
        batch = bool(game.plugins.hook.mdp_expand.get_hookimpls())
    if batch:
        from mdp.batch import explore_batch

        return explore_batch(game, max_states=max_states, progress=progress)
    return _explore_states(game, max_states, progress)


def _explore_states(game: Game, max_states: int | None, progress) -> CompiledModel:
    """Depth-first search through the per-state hooks, checking each answer.

    It stops at the first cycle. A state's layer is its height: 0 for a terminal state,
    otherwise one more than its highest successor.
    """
    expander = _Expander(game)
    initial = game.call("mdp_initial_state")
    if initial is None:
        raise ModelError(f"game {game.name}: mdp_initial_state returned nothing")

    index: dict[Any, int] = {}
    states: list[Any] = []
    expansions: list[list[tuple[Any, list[tuple[int, Any]]]]] = []
    heights: list[int] = []  # -1 while a state is on the search stack
    stack: list[tuple[int, Any]] = []

    def discover(state: Any) -> None:
        if max_states is not None and len(states) >= max_states:
            raise TooLarge(f"game {game.name}: more than {max_states:,} states")
        if progress and len(states) % 50_000 == 0 and states:
            progress(f"explored {len(states):,} states")
        index[state] = len(states)
        states.append(state)
        expansion = expander.expand(state)
        expansions.append(expansion)
        heights.append(-1)
        stack.append((len(states) - 1, iter([nxt for _, outs in expansion for _, nxt in outs])))

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
    return _compile(game, expander, states, index, expansions, heights)


class _Expander:
    """Calls the per-state hooks for one state and checks their answers."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.probabilities: dict[Any, int] = {}
        self.inexact: str | None = None

    def _call(self, hook: str, where: str, **kwargs: Any) -> Any:
        try:
            result = self.game.call(hook, **kwargs)
        except MdpError:
            raise
        except Exception as error:
            raise ModelError(
                f"game {self.game.name}: {hook} raised {type(error).__name__}: {error} ({where})"
            ) from error
        if result is None:
            raise ModelError(f"game {self.game.name}: {hook} returned nothing ({where})")
        return result

    def _number(self, value: Any, what: str, where: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, (Rational, float)):
            raise ModelError(f"game {self.game.name}: {what} {value!r} is not a number ({where})")
        if isinstance(value, float) and self.inexact is None:
            self.inexact = f"{what} {value!r} ({where})"
        return value

    def expand(self, state: Any) -> list[tuple[Any, list[tuple[int, Any]]]]:
        where = f"state {state!r}"
        actions = list(self._call("mdp_actions", where, state=state))
        expansion = []
        for action in actions:
            here = f"state {state!r}, action {action!r}"
            outcomes = []
            total: Any = 0
            for item in self._call("mdp_outcomes", here, state=state, action=action):
                try:
                    probability, nxt = item
                    hash(nxt)
                except (TypeError, ValueError):
                    raise ModelError(
                        f"game {self.game.name}: mdp_outcomes gave {item!r}, "
                        f"not a (probability, hashable next state) pair ({here})"
                    ) from None
                probability = self._number(probability, "probability", here)
                if probability < 0:
                    raise ModelError(
                        f"game {self.game.name}: negative probability {probability} ({here})"
                    )
                total += probability
                if probability:
                    outcomes.append((self.probabilities.setdefault(probability, len(self.probabilities)), nxt))
            exact_sum = isinstance(total, Rational)
            if (total != 1) if exact_sum else abs(total - 1) > PROBABILITY_TOLERANCE:
                raise ModelError(
                    f"game {self.game.name}: probabilities sum to {total}, not 1 ({here})"
                )
            expansion.append((action, outcomes))
        return expansion

    def terminal_value(self, state: Any) -> Any:
        where = f"terminal state {state!r}"
        return self._number(self._call("mdp_terminal_value", where, state=state), "value", where)


def _raise_cycle(game: Game, states: list, stack: list[int], repeated: int) -> None:
    loop = stack[stack.index(repeated):] + [repeated]
    shown = " -> ".join(repr(states[s]) for s in loop[-6:])
    more = "... -> " if len(loop) > 6 else ""
    raise CycleError(
        f"game {game.name}: the states form a cycle ({more}{shown}); "
        "only acyclic, finite-horizon games can be solved"
    )


def _compile(game, expander, states, index, expansions, heights) -> CompiledModel:
    order = sorted(range(len(states)), key=heights.__getitem__)
    new_id = np.empty(len(states), dtype=np.int64)
    new_id[order] = np.arange(len(states))
    layer_sizes = np.bincount(np.asarray(heights, dtype=np.int64))

    actions, action_counts, outcome_counts, nexts, probs = [], [], [], [], []
    terminal_values = []
    for sid in order:
        expansion = expansions[sid]
        if not expansion:
            terminal_values.append(expander.terminal_value(states[sid]))
        action_counts.append(len(expansion))
        for action, outcomes in expansion:
            actions.append(action)
            outcome_counts.append(len(outcomes))
            for prob_id, nxt in outcomes:
                probs.append(prob_id)
                nexts.append(index[nxt])

    probabilities = sorted(expander.probabilities, key=expander.probabilities.__getitem__)
    return CompiledModel(
        game=game,
        states=[states[sid] for sid in order],
        actions=actions,
        layer_start=offsets(layer_sizes),
        action_start=offsets(action_counts),
        outcome_start=offsets(outcome_counts),
        outcome_next=new_id[np.asarray(nexts, dtype=np.int64)],
        outcome_prob=np.asarray(probs, dtype=np.int32),
        probabilities=tuple(probabilities),
        terminal_values=tuple(terminal_values),
        initial=int(new_id[0]),
        inexact=expander.inexact,
    )
