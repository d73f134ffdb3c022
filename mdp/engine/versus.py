"""A way of playing a game that two players take in turns, valued against another: the
player to move at the initial state follows one policy, the other player another, optimal
play where none is named (the first optimal action in each state,
:meth:`mdp.Solution.as_policy`). Each state then has two values, one with each player to
move; a transition that passes the turn leads from one to the other (and counts as
``total - v``, :mod:`mdp.engine.turns`). Every layer is solved as one system of both, as
:mod:`mdp.engine.cycles` solves a cyclic layer: by value iteration in floats, or exactly by
Gaussian elimination in rationals (both policies are fixed)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.arithmetic import Floats, Rationals, objects
from mdp.engine.cycles import _evaluate, _sums, _System, settle, share
from mdp.engine.cycles_ending import check_ends
from mdp.engine.model import CompiledModel
from mdp.engine.sweep import bottom_up
from mdp.errors import Named, said

if TYPE_CHECKING:
    from mdp.engine.policy import Policy


def against(model: CompiledModel, terminal: Any, *, exact: bool, policy: Policy,
            residual: float, progress: Callable[[str], None] | None,
            other: Policy) -> tuple[np.ndarray, Any, float | None, np.ndarray]:
    """The value of every state with the policy's player to move (raw, as
    :class:`mdp.Solution` keeps them), the arithmetic, a bound of value iteration's error
    (the sum of the layers'; ``None`` where exact) and the value of every state with the
    other player, who plays ``other``, to move."""
    assert model.turns is not None, "a policy of a game of two players"
    table: np.ndarray
    total: Any
    arithmetic: Any

    check_ends(model, policy.probabilities, f"playing {policy.name} against {other.name}",
               other.probabilities)
    mine, theirs = (p.probabilities if exact or not p.exact else p.as_floats()
                    for p in (policy, other))
    if exact:
        rationals = Rationals(model, terminal)
        both = np.concatenate([rationals.start()[:, None]] * 2, axis=1)
        table, total = rationals.probabilities, Fraction(model.turns.total)
        chances = objects([Fraction(p) for p in np.concatenate([mine, theirs]).tolist()])
        arithmetic = rationals
    else:
        arithmetic = Floats(model, terminal)
        both = np.repeat(arithmetic.start()[:, None], 2, axis=1)
        table, total = arithmetic.probabilities, float(model.turns.total)
        chances = np.concatenate([np.asarray(mine, dtype=np.float64),
                                  np.asarray(theirs, dtype=np.float64)])
    ends = np.asarray(both[:model.n_terminal, 0], dtype=np.float64)
    tolerance = residual * max(1.0, float(np.max(np.abs(ends), initial=0.0)), abs(float(total)))
    seen = np.concatenate([ends, float(total) - ends])
    bounds = float(np.min(seen, initial=0.0)), float(np.max(seen, initial=0.0))
    worst = 0.0
    for layer, lo, hi in bottom_up(model):
        if progress:
            progress(f"valuing layer {layer} of {model.n_layers - 1}")
        a0, a1 = model.layer_actions(layer)
        system = _stacked(_System(model, layer, both[:, 0], table, total), both, total)
        starts = model.action_offsets(lo, hi)[:-1] - a0
        starts = np.concatenate([starts, starts + (a1 - a0)])
        weights = np.concatenate([chances[a0:a1], chances[model.n_actions + a0:model.n_actions + a1]])
        if exact:
            values = _evaluate(model, layer, system, weights, starts, "playing the policies")
        else:
            values, last = _iterate(model, layer, system, weights, starts,
                                    share(model, tolerance), bounds)
            worst += last
        n = hi - lo
        both[lo:hi, 0], both[lo:hi, 1] = values[:n], values[n:]
    return both[:, 0].copy(), arithmetic, None if exact else worst, both[:, 1].copy()


def action_values(model: CompiledModel, raw: np.ndarray, turned: np.ndarray,
                  arithmetic: Any) -> np.ndarray:
    """Every action's value to the first player, who takes it and plays on as the policy
    says, the other as theirs: an outcome that passes the turn is worth ``total`` less the
    other's value there (``turned``, :func:`against`)."""
    assert model.turns is not None, "a game of two players"
    action, successor, probability = model.edges()
    table = arithmetic.probabilities
    p = objects([Fraction(1)] * len(action)) if table.dtype == object else np.ones(len(action))
    p[probability >= 0] = table[probability[probability >= 0]]
    passes = model.turns.along(action, probability)
    total = Fraction(model.turns.total) if table.dtype == object else float(model.turns.total)
    seen = np.where(passes, total - turned[successor], raw[successor])
    return _sums(action, p * seen, model.n_actions)


def _stacked(one: _System, both: np.ndarray, total: Any) -> SimpleNamespace:
    """A layer's system for its states with either player to move: rows and states of the
    policy's player first, then the other's; a transition that passes the turn leads to the
    other half."""
    n, na = one.n, one.na
    parts: dict[str, list[np.ndarray]] = {"const": [], "rows": [], "cols": [], "weights": []}
    for mover in (0, 1):
        to = np.where(one.flip, 1 - mover, mover)  # the half each transition leads to
        out, inside = ~one.inside, one.inside
        seen = both[one.successor[out], to[out]]
        seen = np.where(one.flip[out], total - seen, seen)
        const = _sums(one.row[out], one.probability[out] * seen, na)
        passing = inside & one.flip
        const += _sums(one.row[passing], one.probability[passing] * total, na)
        parts["const"].append(const)
        parts["rows"].append(one.row[inside] + mover * na)
        parts["cols"].append(one.successor[inside] - one.lo + to[inside] * n)
        parts["weights"].append(np.where(one.flip[inside], -one.probability[inside],
                                         one.probability[inside]))
    return SimpleNamespace(**{name: np.concatenate(part) for name, part in parts.items()})


def _iterate(model: CompiledModel, layer: int, system: SimpleNamespace, weights: np.ndarray,
             starts: np.ndarray, tolerance: float, bounds: tuple[float, float]) -> tuple[np.ndarray, float]:
    """Value iteration of a stacked layer, both policies fixed."""

    def sweep(values: np.ndarray) -> np.ndarray:
        # Not in place: a layer with no move that stays in it has integer counts here.
        q = system.const + np.bincount(system.rows, system.weights * values[system.cols],
                                       minlength=len(weights))
        return np.add.reduceat(q * weights, starts)

    lo, n = int(model.layer_start[layer]), len(starts) // 2
    return settle(sweep, np.full(len(starts), bounds[0]), tolerance, bounds,
                  lambda i: Named(f"game {model.info.game}: the value of state "
                                  f"{said(model.states[lo + i % n])} with the "
                                  f"{'first' if i < n else 'other'} player to move",
                                  model.states[lo + i % n], model.info))
