"""The optimal policy as a Polars DataFrame."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from mdp.errors import ModelError
from mdp.model import ragged_arange

if TYPE_CHECKING:
    from mdp.solve import Solution

FLOAT_TIE = 1e-12
"""In float mode, actions within this relative distance of the best are all optimal."""


def policy_frame(solution: Solution) -> pl.DataFrame:
    """One row per action of every non-terminal state, starting from the initial layers.

    Columns: the game's state columns and action columns (see
    :func:`~mdp.hookspecs.mdp_state_columns`), then ``value`` (the action's value when the
    rest is played optimally), ``value_exact`` (``"p/q"``, exact mode only), ``optimal``
    (every action tied for best is marked) and ``regret`` (the value lost against the best
    action, never negative).
    """
    model, numbers = solution.model, solution.numbers
    action_state = model.action_state()
    q = solution.q_values()
    best = solution.raw_values[action_state]
    gap = best - q if solution.sense == "max" else q - best
    if solution.exact:
        scales = np.array([numbers.scale(k) for k in range(model.n_layers)], dtype=object)
        scale = scales[numbers.layer[action_state]]
        metrics = {
            "value": np.asarray(q / scale, dtype=np.float64),
            "value_exact": [str(Fraction(n, d)) for n, d in zip(q, scale)],
            "optimal": np.asarray(gap == 0, dtype=bool),
            "regret": np.asarray(gap / scale, dtype=np.float64),
        }
    else:
        metrics = {
            "value": q,
            "optimal": gap <= FLOAT_TIE * np.maximum(1.0, np.abs(best)),
            "regret": np.maximum(gap, 0.0),
        }
    frame = pl.DataFrame({**_game_columns(model, action_state), **metrics}, strict=False)
    # Highest layers first (the initial state leads), each state's actions in their order.
    counts = np.diff(model.action_start)[::-1]
    order = np.repeat(model.action_start[:-1][::-1], counts) + ragged_arange(counts)
    return frame[order]



def _game_columns(model, action_state: np.ndarray) -> dict[str, list]:
    game = model.game
    if game.implements("mdp_columns"):
        states = model.states
        if isinstance(states, np.ndarray):
            states = states[action_state]
        else:
            states = [states[s] for s in action_state]
        return dict(game.call("mdp_columns", states=states, actions=model.actions))
    columns: dict[str, list] = {}
    names: list[str] | None = None
    for s in range(model.n_terminal, model.n_states):
        state = model.states[s]
        state_columns = game.call("mdp_state_columns", state=state) or {"state": str(state)}
        for a in range(model.action_start[s], model.action_start[s + 1]):
            action = model.actions[a]
            row = {**state_columns}
            row.update(
                game.call("mdp_action_columns", state=state, action=action)
                or {"action": str(action)}
            )
            if names is None:
                names = list(row)
                columns = {name: [] for name in names}
            elif list(row) != names:
                raise ModelError(
                    f"game {game.name}: columns {list(row)} differ from {names} "
                    f"(state {state!r}, action {action!r})"
                )
            for name, value in row.items():
                columns[name].append(value)
    return columns
