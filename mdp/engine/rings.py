"""A small cyclic layer played in floats, solved as a linear system from the chances of
leaving, not by sweeps alone.

Value iteration settles on the values of the float form of the game: where states come back
to one another with a chance close to 1 (A to B with 1 - 1e-12, B back to A), that form is
ill-conditioned, each ``1 - p`` the sweeps imply holding few of its digits, and the values
were off by 3e-4 where the sweeps' bound said 2e-16. A return of a state to itself is solved
from its chances of leaving (:mod:`mdp.engine.loops`); a ring of several states is solved
here the same way, by Grassmann, Taksar and Heyman's elimination: the states are taken out
one at a time, each one's chance of leaving kept as a sum of chances (of leaving the layer,
and of going to the states still in), never as ``1 - p``, so that no digit is lost to a
subtraction (every number stays a sum of positive ones). For the best play, a play that
ends is solved, then improved where an action is better, a few rounds at most (policy
iteration), each new play taken where its values are better past their rounding
(:data:`ROUNDING`). A layer of more than :data:`MOST_ELIMINATED` states, or one where the
turn passes (the successor counting as ``total - v``: a subtraction), or whose play does
not end, is left to the sweeps alone; the sweeps check every layer solved so (from its
values), and bound the error left (:func:`mdp.engine.cycles.settle`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from mdp.engine.policy import Sense

MOST_ELIMINATED = 400
"""The most states of a cyclic layer solved by elimination (its work grows as the cube)."""

MOST_ROUNDS = 20
"""Rounds of improving the play of a layer solved by elimination, past which the sweeps'
values are kept."""

ROUNDING = 64
"""Units in the last place (of the largest value) by which a new play's values must beat the
last's, none falling short by as much, for the play to be improved."""


def eliminated(system: Any, starts: np.ndarray, values: np.ndarray, sense: Sense,
               policy: np.ndarray | None, first_play: Callable[[np.ndarray], np.ndarray]
               ) -> tuple[np.ndarray, bool]:
    """The values of a cyclic layer's states solved by elimination as the module says, and
    whether it applied (else ``values``, the sweeps', as they are). ``system``: the layer's
    :class:`~mdp.engine.cycles._System` as the game gave it (no loop taken out); ``starts``
    each state's first action; ``policy`` a strategy's weights of the layer's actions, or
    ``None`` for the best play, which starts from ``first_play(q)`` (an action per state,
    an index into ``q``, the actions' values)."""
    n, na = len(starts), system.na
    if n > MOST_ELIMINATED or bool(np.any(system.flip & system.inside)):
        return values, False
    counts = np.diff(np.append(starts, na))
    state = np.repeat(np.arange(n), counts)
    out = ~system.inside
    leaving = np.bincount(system.row[out], system.probability[out].astype(np.float64), minlength=na)
    const = np.asarray(system.const, dtype=np.float64)
    weights = np.asarray(system.weights, dtype=np.float64)

    def q_of(v: np.ndarray) -> np.ndarray:
        return const + np.bincount(system.rows, weights * v[system.cols], minlength=na)

    def solve(w: np.ndarray) -> np.ndarray | None:
        total = np.bincount(state, w, minlength=n)
        if not np.all(total > 0):
            return None
        matrix = np.zeros((n, n))
        np.add.at(matrix, (state[system.rows], system.cols), w[system.rows] * weights)
        return _gth(matrix / total[:, None], np.bincount(state, w * const, minlength=n) / total,
                    np.bincount(state, w * leaving, minlength=n) / total)

    if policy is not None:
        solved = solve(np.asarray(policy, dtype=np.float64))
        return (values, False) if solved is None else (solved, True)
    sign = 1.0 if sense == "max" else -1.0  # (the best is the largest of sign * value)
    chosen = first_play(q_of(values))
    play = np.zeros(na)
    play[chosen] = 1.0
    solved = solve(play)
    if solved is None:
        return values, False
    for _ in range(MOST_ROUNDS):
        rounding = ROUNDING * np.finfo(np.float64).eps * float(np.max(np.abs(solved), initial=1.0))
        q = sign * q_of(solved)
        trial = _improved(q, chosen, starts, state, 0.0)
        if trial is None:
            # None better by its one step: a gain that shows only once round the ring (each
            # step's of the order of the chance of leaving squared, below the rounding) is
            # found by the play of the actions within the rounding of the play's.
            trial = _improved(q, chosen, starts, state, rounding)
        if trial is None:
            return solved, True
        play = np.zeros(na)
        play[trial] = 1.0
        better = solve(play)
        if better is None:  # a play that does not end
            return solved, True
        # Taken where its values are better past their rounding, none worse: else what
        # improved was the rounding, and the play is the best.
        gain = sign * (better - solved)
        if not (gain.max() > rounding and gain.min() >= -rounding):
            return solved, True
        chosen, solved = trial, better
    return solved, True


def _improved(q: np.ndarray, chosen: np.ndarray, starts: np.ndarray, state: np.ndarray,
              within: float) -> np.ndarray | None:
    """The play ``chosen`` (an action per state, an index into ``q``, the actions' values
    with the best the largest) with each state whose best other action is worth more than
    its own less ``within`` playing that action (the first such best); ``None`` where none
    is. With ``within`` 0, every action better than the play's, by however little: a ring's
    improvement shows a step at a time, by the chance of leaving (1e-14)."""
    others = q.copy()
    if within:
        others[chosen] = -np.inf
    top = np.maximum.reduceat(others, starts)
    switch = np.flatnonzero(top > q[chosen] - within)
    if not len(switch):
        return None
    at = np.flatnonzero(others == top[state])  # each state's first best action
    firsts = np.full(len(starts), -1)
    firsts[state[at][::-1]] = at[::-1]
    trial = chosen.copy()
    trial[switch] = firsts[switch]
    return trial


def _gth(matrix: np.ndarray, const: np.ndarray, leaving: np.ndarray) -> np.ndarray | None:
    """``v = const + matrix @ v`` where each row of ``matrix`` and its chance of ``leaving``
    sum to 1, solved by elimination without a subtraction (the module's); ``None`` where a
    state left never leaves (a play that does not end)."""
    eliminated = _eliminated(matrix, leaving)
    if eliminated is None:
        return None
    matrix, divisor = eliminated
    const = const.copy()
    for k in range(len(const) - 1, 0, -1):  # the rows above take the part of the state out
        const[:k] += matrix[:k, k] / divisor[k] * const[k]
    values = np.empty(len(const))
    for k in range(len(const)):
        values[k] = (const[k] + matrix[k, :k] @ values[:k]) / divisor[k]
    return values


def gth_flow(matrix: np.ndarray, fixed: np.ndarray, leaving: np.ndarray) -> np.ndarray | None:
    """The expected visits ``x = fixed + matrix.T @ x`` of a small cyclic layer, forward
    (``matrix[j, i]`` the chance of going from state j to state i, each row and its chance of
    ``leaving`` the layer summing to 1), by the elimination of :func:`_gth`, the flow into each
    state taken out passed on to the states still in; ``None`` where a state left never
    leaves. The values' sweeps would take a million steps where the chance of leaving is
    1e-6."""
    eliminated = _eliminated(matrix, leaving)
    if eliminated is None:
        return None
    matrix, divisor = eliminated
    fixed = fixed.astype(np.float64)
    for k in range(len(fixed) - 1, 0, -1):  # where a visit of k goes on to, once it leaves k
        fixed[:k] += matrix[k, :k] / divisor[k] * fixed[k]
    visits = np.empty(len(fixed))
    for k in range(len(fixed)):
        visits[k] = (fixed[k] + matrix[:k, k] @ visits[:k]) / divisor[k]
    return visits


def _eliminated(matrix: np.ndarray, leaving: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The states of ``matrix`` (each row and its chance of ``leaving`` summing to 1) taken
    out one at a time, the last first, each one's chance of not coming straight back (its
    divisor) kept as a sum of chances, never ``1 - p``: the matrix as each state left it, and
    the divisors; ``None`` where a state left never leaves."""
    n = len(leaving)
    matrix, leaving = matrix.copy(), leaving.astype(np.float64)
    divisor = np.empty(n)
    for k in range(n - 1, -1, -1):
        divisor[k] = leaving[k] + matrix[k, :k].sum()
        if not divisor[k] > 0:
            return None
        share = matrix[:k, k] / divisor[k]
        if share.any():
            matrix[:k, :k] += np.outer(share, matrix[k, :k])
            leaving[:k] += share * leaving[k]
    return matrix, divisor

