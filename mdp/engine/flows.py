"""The chance of reaching each state of a model whose states may come back, or that two
players take in turns, under a policy: the forward twin of :mod:`mdp.engine.cycles`.

Layers are taken from the initial state's down. A layer's states first receive what flows
in from the layers above; where the layer is cyclic, what its own transitions bring back is
added again and again, all at once, until no chance changes by more than the residual (the
expected visits of a state, for a state a play may come back to, is then its total inflow);
then the layer's flow goes on to the layers below. In a game of two players, each state's
chance is split by who is to move there (two columns), and a transition that passes the
turn moves its flow from one column to the other."""

from __future__ import annotations

import numpy as np

from mdp.engine.cycles import RESIDUAL, _System, settle
from mdp.engine.model import CompiledModel
from mdp.engine.sweep import top_down


def reach_returning(model: CompiledModel, chances: np.ndarray,
                    residual: float = RESIDUAL) -> np.ndarray:
    """The expected visits of each state playing with ``chances`` (one float per action):
    for a terminal state, the chance of ending there. One column, or, in a game of two
    players, two: the first player to move there, the second."""
    width = 2 if model.turns is not None else 1
    reach = np.zeros((model.n_states, width))
    reach[model.initial, 0] = 1.0
    table = np.array([float(p) for p in model.probabilities])
    empty = np.zeros(model.n_states)
    for layer, lo, hi in top_down(model):
        a0, a1 = model.layer_actions(layer)
        one = _System(model, layer, empty, table, 0.0)
        state = np.repeat(np.arange(hi - lo), model.action_counts[lo:hi].astype(np.int64))
        weight = chances[a0:a1][one.row] * one.probability  # per transition, from its state
        source = state[one.row]
        inside, out = one.inside, ~one.inside
        # The column each transition's flow arrives in, from each column it leaves.
        arrive = [np.where(one.flip, 1 - c, c) if width == 2 else np.zeros(len(one.row), dtype=int)
                  for c in range(width)]
        inflow = reach[lo:hi].copy()
        if model.cyclic is not None and model.cyclic[layer]:
            n = hi - lo
            # Flat: state s, column c at s * width + c; each transition from each column.
            into = np.concatenate([(one.successor[inside] - lo) * width + arrive[c][inside]
                                   for c in range(width)])
            start = np.concatenate([source[inside] * width + c for c in range(width)])
            carried = np.concatenate([weight[inside]] * width)
            fixed = inflow.ravel()

            def sweep(visits: np.ndarray, into: np.ndarray = into, start: np.ndarray = start,
                      carried: np.ndarray = carried, fixed: np.ndarray = fixed) -> np.ndarray:
                return fixed + np.bincount(into, visits[start] * carried, minlength=len(fixed))

            visits, _ = settle(sweep, fixed.copy(), residual, (0.0, np.inf),
                               f"{model.info.game}: the chance of reaching the states of layer "
                               f"{layer}")
            reach[lo:hi] = visits.reshape(n, width)
        flat = reach.reshape(-1)  # a view: the flow out goes straight into reach
        for c in range(width):
            mass = reach[lo + source[out], c] * weight[out]
            flat += np.bincount(one.successor[out] * width + arrive[c][out], mass,
                                minlength=len(flat))
    return reach
