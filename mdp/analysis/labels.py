"""The labels of a model's actions, asked of the game again: the model keeps none."""

from __future__ import annotations

from typing import Any

import numpy as np

from mdp.engine.model import CompiledModel
from mdp.errors import ModelError
from mdp.game.columns import describe
from mdp.game.load import Game


def action_labels(game: Game, model: CompiledModel, states: np.ndarray | None = None) -> Any:
    """The game's label of every action of ``states`` (ids of non-terminal states, ascending;
    by default all of them), in action order, as the game wrote them.

    The model keeps no labels (in a large model they would be a third of its memory): they
    are asked of the game again, a layer at a time through
    :func:`~mdp.hookspecs.game.mdp_expand` for a model discovered that way (its states are an
    integer array), else a state at a time through :func:`~mdp.hookspecs.game.mdp_actions`.
    A game must give the same actions in the same order each time it is asked.
    """
    if states is None:
        states = np.arange(model.n_terminal, model.n_states)
    states = np.asarray(states, dtype=np.int64)
    counts = model.action_count(states).astype(np.int64)
    if isinstance(model.states, np.ndarray):
        parts = []
        layers = model.layers_of(states)
        bounds = np.flatnonzero(np.diff(layers)) + 1
        for part in np.split(np.arange(len(states)), bounds) if len(states) else []:
            expansion = game.call("mdp_expand", states=model.states[states[part]].astype(np.int64),
                                  labels=True)
            _same_count(game, model, states[part], counts[part], expansion.action_counts)
            if expansion.actions is None:
                raise ModelError(f"game {game.name}: mdp_expand gave no actions when asked for "
                                 "their labels")
            parts.append(expansion.actions)
        if all(isinstance(p, np.ndarray) for p in parts):
            return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return [a for p in parts for a in p]
    labels = []
    for state_id, count in zip(states.tolist(), counts.tolist()):
        actions = list(game.call("mdp_actions", state=model.states[state_id]))
        _same_count(game, model, [state_id], [count], [len(actions)])
        labels += actions
    return labels


def _same_count(game: Game, model: CompiledModel, states, expected, got) -> None:
    wrong = np.flatnonzero(np.asarray(expected) != np.asarray(got))
    if len(wrong):
        state = model.states[states[wrong[0]]]
        raise ModelError(f"game {game.name}: asked again, it gave {got[wrong[0]]} actions where it "
                         f"gave {expected[wrong[0]]} before ({describe(game, state)}); a game must "
                         "give the same actions each time")
