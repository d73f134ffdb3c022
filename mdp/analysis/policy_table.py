"""The policy as a Polars DataFrame: every decision, each action's value, regret, optimality."""

from __future__ import annotations

import numpy as np
import polars as pl

from mdp.analysis.labels import action_labels
from mdp.engine.rounds import one_model
from mdp.engine.solution import Solution
from mdp.game.columns import row_columns, to_frame
from mdp.game.load import Game


def policy(solution: Solution, game: Game | None = None) -> pl.DataFrame:
    """One row per action of every non-terminal state, the initial state's first.

    Columns: the game's state and action columns when ``game`` is given (see
    :func:`~mdp.hookspecs.game.mdp_state_columns`; else ``state``, as the model holds it, and
    ``action``, the action's place among its state's actions from 0), then ``value`` (the
    action's value when the rest is played optimally),
    ``value_exact`` (``"p/q"``, exact mode only), ``optimal`` (every action tied for best is
    marked) and ``regret`` (the value lost against the best action, never negative).
    """
    one_model("a policy table", solution)
    model = solution.model
    per_action = solution.action_values()
    # Highest layers first (the initial state leads), each state's actions in their order:
    # the rows are put in order before any text is made. A policy has millions of rows, so
    # each array is let go as soon as it is used.
    order = model.actions_of_states(np.arange(model.n_states)[::-1])
    state = per_action.state[order]
    metrics = {"value": per_action.value[order]}
    if per_action.exact is not None:
        metrics["value_exact"] = [str(per_action.exact[i]) for i in order.tolist()]
    metrics["optimal"] = per_action.optimal[order]
    metrics["regret"] = per_action.regret[order]
    del per_action
    states = _take(model.states, state)
    del state
    if game is None:  # no game to name the actions: their place among the state's actions
        labels = {"state": [str(s) for s in states], "action": model.action_rank()[order]}
    else:
        labels = row_columns(game, states, _take(action_labels(game, model), order))
    return to_frame({**labels, **metrics})


def _take(items, ids: np.ndarray):
    return items[ids] if isinstance(items, np.ndarray) else [items[i] for i in ids.tolist()]
