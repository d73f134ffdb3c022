"""A state that comes back to itself, solved in floats from the chances of leaving it.

An action that returns to its own state with chance ``p`` (the same player to move) is worth
``q = c + p * v``, its other outcomes ``c``. Where the state plays it, ``v = q``, so
``v = c / (1 - p)``; where it plays another, ``q <= v`` exactly when ``c / (1 - p) <= v``. So
the best of the actions is the best of ``c / (1 - p)``, and the loop is gone from the system
that value iteration sweeps. Formed in floats, ``1 - p`` would lose the digits that matter
where ``p`` is close to 1 (a chance of staying of 1 - 1e-12 left the value 3e-4 off, and the
sweeps' bound said nothing of it): it is summed exactly from the chances of the outcomes that
leave, as the game gave them. A state played by a strategy's weights ``w`` is worth
``sum(w * c) / sum(w * (1 - p))`` over its actions alike. An action (or a state's play)
that never leaves is left as it is: value iteration says what a play that never ends is
worth (:mod:`mdp.engine.cycles`)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.cycles_ending import arcs

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel


def left_loops(model: CompiledModel, layer: int, system: Any, starts: np.ndarray,
               policy: np.ndarray | None) -> Any:
    """``system`` (a cyclic layer's :class:`~mdp.engine.cycles._System`, in floats) with
    each return of an action to its own state solved as the module says: its ``const``,
    ``rows``, ``cols`` and ``weights``; ``system`` itself where no action comes back to its
    state. ``starts``: each state's first action in the layer; ``policy``: the layer's
    actions' weights of a strategy, or ``None`` for the best play."""
    state_of = np.searchsorted(starts, np.arange(system.na), side="right") - 1
    own = system.inside & ~system.flip & (system.successor - system.lo == state_of[system.row])
    if not own.any():
        return system
    way = arcs(model, layer)
    exact = [Fraction(1)] * len(way.row)
    tables = model.outcome_prob[way.o0:way.o1].tolist()
    for at, index in zip(np.flatnonzero(way.outcome).tolist(), tables):
        exact[at] = Fraction(model.probabilities[index])
    looping = np.unique(system.row[own])
    leave = {int(a): Fraction(0) for a in looping}
    for at in np.flatnonzero(np.isin(system.row, looping) & ~own).tolist():
        leave[int(system.row[at])] += exact[at]
    divide = np.ones(system.na)
    if policy is None:
        for action, chance in leave.items():
            if chance:
                divide[action] = float(chance)
    else:  # a state's play: its actions' weights times their chances of leaving
        weights = policy.astype(np.float64)
        for state in np.unique(state_of[looping]).tolist():
            actions = np.flatnonzero(state_of == state)
            leaving = sum(float(weights[a]) * float(leave.get(int(a), 1)) for a in actions)
            if leaving > 0:
                divide[actions] = leaving
    keep = ~own[system.inside] | (divide[system.rows] == 1)  # the returns not solved stay
    return SimpleNamespace(const=system.const / divide, rows=system.rows[keep],
                           cols=system.cols[keep], weights=system.weights[keep] / divide[system.rows[keep]])
