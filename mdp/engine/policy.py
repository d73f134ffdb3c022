"""How to play a compiled model: a :class:`Policy` gives the chance of taking each action in
its state. Optimal play (ties broken by a stated rule), a game's named strategy and a mix of
policies are all policies; evaluation (:func:`mdp.solve` with ``policy=``), the outcome
distribution, simulation and advice take one.

Where several actions are optimal, the choice changes how a game ends (not its value). The
rule: keep the optimal actions; for each tie-break objective in turn, keep those of them that
are best for it (the objective solved on the kept actions only); then take the *first* kept
action in the game's own order. Exact values tie when equal; floats within
:data:`mdp.engine.solve.FLOAT_TIE` of the best.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import attrs
import numpy as np

from mdp.engine.arithmetic import Exact, Floats, objects
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import check_terminal
from mdp.engine.sweep import Piece, backward
from mdp.errors import ModelError, ParamError, did_you_mean

if TYPE_CHECKING:
    from mdp.engine.solve import Solution

Sense = Literal["max", "min"]

OPTIMAL = "optimal"
"""The name of optimal play, beside the game's strategies (``--strategy optimal``)."""

FLOAT_TIE = 1e-12
"""In float mode, actions within this relative distance of the best are all optimal."""


@attrs.frozen(eq=False)
class Policy:
    """A way to play a compiled model: the chance of taking each action in its state, in
    action order (floats, or fractions in an object array for exact evaluation). Make one
    with :meth:`optimal`, :meth:`of_weights` or :meth:`mix`; a game's named strategies
    become policies through :func:`mdp.strategy_policy`."""

    model: CompiledModel = attrs.field(repr=False)
    probabilities: np.ndarray = attrs.field(repr=False)
    name: str = "custom"

    @property
    def exact(self) -> bool:
        """Whether the chances are fractions."""
        return self.probabilities.dtype == object

    @property
    def pure(self) -> bool:
        """Whether it takes one action in every state, for certain."""
        p = self.probabilities
        return bool(((p == 0) | (p == 1)).all())

    @classmethod
    def of_weights(cls, model: CompiledModel, weights: Any, *, exact: bool = False,
                   name: str = "custom") -> Policy:
        """The policy that takes each action with probability its weight over the total of
        its state's. Checked: one weight per action, each a finite number and none negative,
        some weight in every state where the player acts; exact chances need ``int`` or
        ``Fraction`` weights."""
        return cls(model, _chances(model, weights, exact, name), name)

    @classmethod
    def optimal(cls, solution: Solution, tie_break: Sequence[str | tuple[Sense, str]] = ()) -> Policy:
        """Optimal play as a solution's values say, one action per state, ties broken by the
        rule of this module (see :func:`choices`)."""
        return cls.of_weights(solution.model, choices(solution, tie_break), exact=solution.exact,
                              name=OPTIMAL)

    @classmethod
    def mix(cls, parts: Sequence[tuple[Policy, Any]], name: str = "mix") -> Policy:
        """In every state, each policy of ``parts`` chosen with chance its weight over the
        weights' total (``[(random, 1), (optimal, 3)]``: a quarter of the moves at random)."""
        if not parts:
            raise ParamError("a mix needs at least one policy")
        model = parts[0][0].model
        if any(policy.model is not model for policy, _ in parts):
            raise ParamError("the policies of a mix must be of one compiled model")
        exact = all(policy.exact for policy, _ in parts)
        weights = [Fraction(w) if exact else float(w) for _, w in parts]
        if any(not np.isfinite(float(w)) or w < 0 for w in weights) or sum(weights) <= 0:
            raise ParamError(f"mix weights {[float(w) for w in weights]}: finite, none negative, "
                             "and some above 0")
        total = sum(weights)
        chances = sum(policy.probabilities * (w / total) for (policy, _), w in zip(parts, weights))
        return cls(model, chances if exact else np.asarray(chances, dtype=np.float64), name)

    def as_floats(self) -> np.ndarray:
        """The chances as floats."""
        return np.asarray(self.probabilities, dtype=np.float64)

    def draw(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """An action for each of ``states`` (ids of states with actions), drawn at random
        with the policy's chances, all at once."""
        return self._draw(states, rng)

    @functools.cached_property
    def _draw(self) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
        model = self.model
        if self.pure:  # one action per state: looked up
            chosen = np.zeros(model.n_states, dtype=np.int64)
            ones = np.flatnonzero(self.probabilities == 1)
            chosen[model.action_state()[ones]] = ones
            return lambda states, rng: chosen[states]
        cumulative = np.cumsum(self.as_floats())
        starts = model.action_start
        before = np.concatenate([[0.0], cumulative])
        base, span = before[starts[:-1]], before[starts[1:]] - before[starts[:-1]]

        def draw(states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
            point = base[states] + rng.random(len(states)) * span[states]
            action = np.searchsorted(cumulative, point, side="right")
            return np.clip(action, starts[states], starts[states + 1] - 1)

        return draw


def _chances(model: CompiledModel, weights: Any, exact: bool, name: str) -> np.ndarray:
    w = np.asarray(weights)
    if w.shape != (model.n_actions,):
        raise ModelError(f"strategy {name}: {w.size:,} weights for {model.n_actions:,} actions")
    if w.dtype == bool:
        w = w.astype(np.int64)
    if exact:
        if w.dtype.kind == "f":
            raise ModelError(f"strategy {name}: float weights; exact evaluation needs int or "
                             "Fraction weights")
        w = objects([Fraction(x) for x in w.tolist()])
    elif w.dtype.kind not in "iuf":
        w = np.array([float(x) for x in w.tolist()], dtype=np.float64)
    else:
        w = w.astype(np.float64)
    if not len(w):
        return w
    if not exact and not np.isfinite(w).all():
        at = int(np.flatnonzero(~np.isfinite(w))[0])
        raise ModelError(f"strategy {name}: weight {w[at]} for action {at} is not finite")
    if (w < 0).any():
        at = int(np.flatnonzero(w < 0)[0])
        raise ModelError(f"strategy {name}: negative weight for action {at}")
    with np.errstate(over="ignore"):
        totals = model.per_state(np.add, w)
    if not exact and not np.isfinite(totals).all():  # weights of 1e308: only their ratios count
        w = w / w.max()
        totals = model.per_state(np.add, w)
    if (totals <= 0).any():
        at = int(np.flatnonzero(totals <= 0)[0]) + model.n_terminal
        raise ModelError(f"strategy {name}: no action has weight in state {model.states[at]!r}")
    return w / model.each_action(totals)


def parse_tie_break(text: str) -> tuple[Sense, str]:
    """``"max:shut_sum"`` -> ``("max", "shut_sum")``; a bare column is maximized."""
    sense, sep, column = text.rpartition(":")
    sense = sense if sep else "max"
    if sense not in ("max", "min") or not column:
        raise ParamError(f"tie-break {text!r}: expected COLUMN, max:COLUMN or min:COLUMN")
    return sense, column  # type: ignore[return-value]


def choices(solution: Solution, tie_break: Sequence[str | tuple[Sense, str]] = ()) -> np.ndarray:
    """Optimal play as weights, one per action: 1 for the action taken in each state, else 0.

    Among the optimal actions of a state, each tie-break objective in turn keeps those that
    are best for it (a column of ``model.terminals``, maximized or minimized, solved on the
    actions kept so far); then the first in the game's order is taken. Tie-breaks are
    ``"max:COLUMN"``, ``"min:COLUMN"`` (``"COLUMN"`` is maximized) or ``(sense, column)``.
    """
    model = solution.model
    if solution.policy is not None and solution.policy.name != OPTIMAL:
        raise ParamError(f"ties are broken in optimal play, not in the strategy {solution.policy.name}")
    tie_break = [parse_tie_break(item) if isinstance(item, str) else item for item in tie_break]
    columns = [_column(model, column) for _, column in tie_break]  # all checked before work
    kept = np.asarray(solution.action_values().optimal, dtype=bool)
    for (sense, _), column in zip(tie_break, columns):
        kept = _best_among(solution, kept, column, sense)
    return _first(model, kept)


def _column(model: CompiledModel, column: str) -> Any:
    terminals = model.terminals
    numeric = [c for c, t in terminals.schema.items() if t.is_numeric()]
    if column not in numeric:
        raise ParamError(f"tie-break column {column!r}{did_you_mean(column, numeric)}: the numeric "
                         f"columns of a terminal state are {', '.join(numeric)}")
    return terminals[column]


def _best_among(solution: Solution, kept: np.ndarray, terminal: Any, sense: Sense) -> np.ndarray:
    """The kept actions that are best for a second objective, solved on kept actions only."""
    model, exact = solution.model, solution.exact
    arithmetic = (Exact if exact else Floats)(model, check_terminal(model, terminal, exact))
    best = np.maximum if sense == "max" else np.minimum
    worst = np.minimum if sense == "max" else np.maximum
    q = arithmetic.empty(model.n_actions)

    def decide(backup, starts: np.ndarray, where: Piece) -> np.ndarray:
        values = backup()
        # A dropped action takes the piece's worst value: it never beats a kept one.
        values = np.where(kept[where.a0:where.a1], values, worst.reduce(values))
        return best.reduceat(values, starts)

    raw = backward(model, arithmetic, decide, arithmetic.start(), actions=q)
    top = raw[model.action_state()]
    if exact:
        return kept & (q == top)
    return kept & (np.abs(q - top) <= FLOAT_TIE * np.maximum(1.0, np.abs(top)))


def _first(model: CompiledModel, kept: np.ndarray) -> np.ndarray:
    """1 for the first kept action of each state, 0 elsewhere."""
    index = np.flatnonzero(kept)
    state = model.action_state()[index]
    first = np.ones(len(index), dtype=bool)
    first[1:] = state[1:] != state[:-1]
    chosen = np.zeros(model.n_actions, dtype=np.int64)
    chosen[index[first]] = 1
    return chosen
