"""The chance of reaching each state of a model whose states may come back, or that two
players take in turns, under a way of playing: the forward twin of :mod:`mdp.engine.cycles`.

Layers are taken from the initial state's down. A layer's states first receive what flows
in from the layers above; where the layer is cyclic, what its own transitions bring back is
added again and again, all at once, until no chance changes by more than the residual (the
expected visits of a state, for a state a play may come back to, is then its total inflow),
or, exactly, by solving that linear system in rationals (:mod:`mdp.engine.linear`); then
the layer's flow goes on to the layers below. In a game of two players, each state's chance
is split by who is to move there (two columns, each player with a policy of their own), and
a transition that passes the turn moves its flow from one column to the other."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from mdp.engine.arithmetic import objects
from mdp.engine.cycles import _System, settle
from mdp.engine.linear import Singular, solve_exactly
from mdp.engine.model import CompiledModel
from mdp.engine.rings import MOST_ELIMINATED, gth_flow
from mdp.engine.sweep import top_down
from mdp.errors import ModelError, Named, said
from mdp.limits import RESIDUAL


def reach_returning(model: CompiledModel, chances: np.ndarray, residual: float = RESIDUAL,
                    second: np.ndarray | None = None) -> np.ndarray:
    """The expected visits of each state playing with ``chances`` (one per action: floats,
    or fractions in an object array for exact visits); for a terminal state, the chance of
    ending there. One column, or, in a game of two players, two: the first player to move
    there (playing ``chances``), the second (playing ``second``, else ``chances`` too)."""
    width = 2 if model.turns is not None else 1
    plays = [chances, chances if second is None else second][:width]
    exact = any(p.dtype == object for p in plays)
    if exact:
        table = objects([Fraction(p) for p in model.probabilities])
        reach = objects([Fraction(0)] * (model.n_states * width)).reshape(model.n_states, width)
        reach[model.initial, 0] = Fraction(1)
    else:
        table = np.array([float(p) for p in model.probabilities])
        reach = np.zeros((model.n_states, width))
        reach[model.initial, 0] = 1.0
    empty = np.zeros(model.n_states)
    for layer, lo, hi in top_down(model):
        a0, a1 = model.layer_actions(layer)
        one = _System(model, layer, empty, table, 0.0)
        state = np.repeat(np.arange(hi - lo), model.action_counts[lo:hi].astype(np.int64))
        # Per transition and column, from its state: the chance its player takes it.
        weights = [play[a0:a1][one.row] * one.probability for play in plays]
        source = state[one.row]
        inside, out = one.inside, ~one.inside
        # The column each transition's flow arrives in, from each column it leaves.
        arrive = [np.where(one.flip, 1 - c, c) if width == 2 else np.zeros(len(one.row), dtype=int)
                  for c in range(width)]
        if model.cyclic is not None and model.cyclic[layer]:
            # Flat: state s, column c at s * width + c; each transition from each column.
            into = np.concatenate([(one.successor[inside] - lo) * width + arrive[c][inside]
                                   for c in range(width)])
            start = np.concatenate([source[inside] * width + c for c in range(width)])
            carried = np.concatenate([w[inside] for w in weights])
            fixed = reach[lo:hi].ravel()
            def what(i: int, lo: int = lo) -> Named:
                key = model.states[lo + i // width]
                return Named(f"game {model.info.game}: the chance of reaching state {said(key)}",
                             key, model.info)

            small = width == 1 and hi - lo <= MOST_ELIMINATED
            if exact:
                visits = _exactly(fixed, into, start, carried, what)
            elif small and (solved := _by_elimination(hi - lo, into, start, carried, source[out],
                                                  weights[0][out], fixed)) is not None:
                visits = solved
            else:
                def sweep(visits: np.ndarray, into: np.ndarray = into, start: np.ndarray = start,
                          carried: np.ndarray = carried, fixed: np.ndarray = fixed) -> np.ndarray:
                    return fixed + np.bincount(into, visits[start] * carried, minlength=len(fixed))

                visits, _ = settle(sweep, fixed.copy(), residual, (0.0, np.inf), what)
            reach[lo:hi] = visits.reshape(hi - lo, width)
        flat = reach.reshape(-1)  # a view: the flow out goes straight into reach
        for c in range(width):
            mass = reach[lo + source[out], c] * weights[c][out]
            at = one.successor[out] * width + arrive[c][out]
            if exact:
                np.add.at(flat, at, mass)
            else:
                flat += np.bincount(at, mass, minlength=len(flat))
    if not exact and model.cyclic is not None:
        # Every play followed ends (checked before: outcomes.playing), so the chances of its
        # ends add up to 1: what the sweeps fell short by (within the residual, the visits
        # rising toward their limit) is shared out, lest 1 - 1e-13 read as a chance of no end.
        ended = float(reach[:model.n_terminal].sum())
        if ended > 0:
            reach[:model.n_terminal] /= ended
    return reach


def _by_elimination(n: int, into: np.ndarray, start: np.ndarray, carried: np.ndarray,
                leaves: np.ndarray, left: np.ndarray, fixed: np.ndarray) -> np.ndarray | None:
    """The visits of a small cyclic layer of one player, by elimination from the chances of
    leaving (:func:`mdp.engine.rings.gth_flow`), as its values are solved: a ring left with a
    chance of 1e-6 a step settles in a million sweeps. ``leaves`` and ``left``: the states and
    chances of the transitions out of the layer; ``None`` where a state never leaves."""
    matrix = np.zeros((n, n))
    np.add.at(matrix, (start, into), carried)
    return gth_flow(matrix, fixed, np.bincount(leaves, left, minlength=n))


def _exactly(fixed: np.ndarray, into: np.ndarray, start: np.ndarray, carried: np.ndarray,
             what: Callable[[int], Named]) -> np.ndarray:
    """The exact visits ``x = fixed + M x``, ``M[into, start]`` the sum of ``carried``."""
    rows: list[dict[int, Fraction]] = [{} for _ in range(len(fixed))]
    for i, j, w in zip(into.tolist(), start.tolist(), carried.tolist()):
        if w:
            rows[i][j] = rows[i].get(j, Fraction(0)) + w
    try:
        return objects(solve_exactly(list(fixed), rows))
    except Singular as error:  # checked before (outcomes.playing): a play that never ends
        named = what(error.unknown)
        raise ModelError(f"{named} has no end: some play never ends").at(named.state, named.info) from None

