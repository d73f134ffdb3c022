"""How to play a compiled model: a :class:`Policy` gives the chance of taking each action in
its state. Optimal play (ties broken by a stated rule, :meth:`mdp.Solution.play`), a game's
named strategy and a mix of policies are all policies; evaluation (:func:`mdp.solve` with
``policy=``), the outcome distribution, simulation and advice take one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Literal

import attrs
import numpy as np

from mdp.checks import FLAG, MIX, NAME, ONE_MODEL, OPTIONAL_FUNCTION, WEIGHTS, arguments, shown
from mdp.engine.arithmetic import objects
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import first_fault, first_float, numbers_array, plain, quoted, to_floats, written
from mdp.errors import ModelError, ParamError, said

Sense = Literal["max", "min"]

OPTIMAL = "optimal"
"""The name of optimal play, beside the game's strategies (``--strategy optimal``)."""

FLOAT_TIE = 1e-12
"""In float mode, actions within this relative distance of the best are all optimal
(:func:`tie_margin`)."""


def tie_margin(best: np.ndarray) -> np.ndarray:
    """How far from ``best`` (float values, the best of each state's actions) an action's
    value may be and still tie with it: :data:`FLOAT_TIE` of the best's magnitude, purely
    relative, so that values scaled by any factor tie alike (a best of exactly 0 ties only
    with 0). The one rule of float ties: every path that decides them (policy, advice,
    forward pass, rounds, cycles) asks here. A new array, to be changed in place."""
    margin = np.abs(best)
    margin *= FLOAT_TIE
    return margin


@attrs.frozen(eq=False, slots=False)  # a dict for the cached draw; quicker to define
class Policy:
    """A way to play a compiled model: the chance of taking each action in its state, in
    action order (floats, or fractions in an object array for exact evaluation). Optimal
    play is a solution's (:meth:`mdp.Solution.as_policy`); a game's named strategies become
    policies through :func:`mdp.strategy_policy`; any weights through :meth:`of_weights`;
    and policies mix (:meth:`mix`)."""

    model: CompiledModel = attrs.field(repr=False)
    probabilities: np.ndarray = attrs.field(repr=False)
    name: str = "custom"

    def __attrs_post_init__(self) -> None:
        """Chances given as they are (``mdp.Policy(model, probabilities)``) checked as they
        enter: one per action in one dimension, each a finite number and none negative
        (fractions, or floats), summing to 1 in every state where the player acts (to within
        a float's rounding; exactly for fractions). Any weights: :meth:`of_weights`."""
        arguments("Policy", model=(self.model, ONE_MODEL), name=(self.name, NAME))
        p, n = self.probabilities, self.model.n_actions
        if not isinstance(p, np.ndarray) or p.ndim != 1 or len(p) != n:
            kind = f"an array of shape {p.shape}" if isinstance(p, np.ndarray) else shown(p)
            raise ParamError(f"mdp.Policy: probabilities is {kind}; expected a numpy array of "
                             f"one chance per action ({n:,}), or weights through "
                             "mdp.Policy.of_weights")
        exact = p.dtype == object
        if not exact and p.dtype.kind != "f":  # (int64's 0 and 1 are chances, but of which kind?)
            raise ParamError(f"mdp.Policy: probabilities is an array of {p.dtype}; expected floats, "
                             "or ints and fractions in an object array (p.astype(object) for exact "
                             "chances)")
        if exact and not all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x in p.tolist()) \
                or not exact and not np.isfinite(p).all():
            raise ParamError("mdp.Policy: probabilities is an array not all of finite numbers; "
                             "expected floats, or ints and fractions in an object array")
        with np.errstate(over="ignore"):  # a sum past a float: not 1, said below
            sums = self.model.per_state(np.add, p) if n else p
        if (p < 0).any() or not (sums == 1 if exact else np.abs(sums - 1) <= 1e-9).all():
            raise ParamError("mdp.Policy: probabilities is an array not of chances; expected "
                             "none negative, summing to 1 in each state where the player acts; "
                             "any weights through mdp.Policy.of_weights")

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
                   name: str = "custom", named: Callable[[Any], str] | None = None,
                   action: Callable[[int], str] | None = None) -> Policy:
        """The policy that takes each action with probability its weight over the total of
        its state's. Checked: one weight per action, each a finite number and none negative,
        some weight in every state where the player acts; exact chances need ``int`` or
        ``Fraction`` weights. ``named`` says a state in an error (the game's words), and
        ``action`` an action by its id (else the id)."""
        arguments("Policy.of_weights", model=(model, ONE_MODEL), weights=(weights, WEIGHTS),
                  exact=(exact, FLAG), name=(name, NAME), named=(named, OPTIONAL_FUNCTION),
                  action=(action, OPTIONAL_FUNCTION))
        named = named or (lambda s: f"state {said(s)}")

        def where(at: int) -> str:  # an action and its state, in the game's words
            state = model.states[int(model.action_state()[at])]
            return f"action {action(at) if action else at} ({named(state)})"

        return cls(model, _chances(model, weights, exact, name, named, where), name)

    @classmethod
    def mix(cls, parts: Sequence[tuple[Policy, Any]], name: str = "mix") -> Policy:
        """In every state, each policy of ``parts`` chosen with chance its weight over the
        weights' total (``[(random, 1), (optimal, 3)]``: a quarter of the moves at random)."""
        arguments("Policy.mix", parts=(parts, MIX), name=(name, NAME))
        if not parts:
            raise ParamError("a mix needs at least one policy")
        model = parts[0][0].model
        if any(policy.model is not model for policy, _ in parts):
            raise ParamError("the policies of a mix must be of one compiled model")
        exact = all(policy.exact for policy, _ in parts)
        given: list[Any] = [plain(w) for _, w in parts]
        if any(isinstance(w, bool) or not isinstance(w, (int, float, Fraction)) or w < 0
               or isinstance(w, float) and not np.isfinite(w) for w in given) or \
                not any(w > 0 for w in given):
            raise ParamError(f"mix weights {[quoted(w) for w in given]}: numbers, finite, none "
                             "negative, and some above 0")
        largest = Fraction(max(given))  # only their ratios count: of any size, worked out exactly
        shares = [Fraction(w) / largest for w in given]
        weights: list[Any] = shares if exact else [float(share) for share in shares]
        total: Any = sum(weights)
        none = np.zeros(model.n_actions, dtype=object if exact else np.float64)
        chances = sum((policy.probabilities * (w / total) for (policy, _), w in zip(parts, weights)), none)
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


def _chances(model: CompiledModel, weights: Any, exact: bool, name: str,
             named: Callable[[Any], str], where: Callable[[int], str]) -> np.ndarray:
    w = numbers_array(weights)
    if w.ndim != 1:
        raise ModelError(f"strategy {name}: weights of shape {w.shape}; expected one weight per "
                         f"action, in one dimension ({model.n_actions:,})")
    if w.shape != (model.n_actions,):
        raise ModelError(f"strategy {name}: {w.size:,} weights for {model.n_actions:,} actions")
    if w.dtype == bool:
        w = w.astype(np.int64)
    if exact or w.dtype.kind not in "iuf":  # Python numbers (numpy's made Python's): checked
        items = [plain(x) for x in w.tolist()]
        bad = first_fault(items)
        if bad:
            raise ModelError(f"strategy {name}: weight {quoted(bad[1])} for {where(bad[0])} {bad[2]}")
        if exact and first_float(items) is not None:
            raise ModelError(f"strategy {name}: float weights; exact evaluation needs int or "
                             "Fraction weights")
        if exact:
            w = objects([Fraction(x) for x in items])
        else:
            w, lost = to_floats(items)
            if lost is not None:  # 10**400 or 10**-400: only the ratios within a state count
                w, lost = to_floats(_within_states(model, [Fraction(x) for x in items]))
            if lost is not None:
                raise ModelError(f"strategy {name}: weight {written(items[lost])} for {where(lost)} "
                                 "is too small beside the others for a float (it would be 0); "
                                 "evaluate exactly (--exact)")
    else:
        w = w.astype(np.float64)
    if not len(w):
        return w
    bad = None if exact else first_fault(w)
    if bad:
        at, value, problem = bad
        raise ModelError(f"strategy {name}: weight {quoted(value)} for {where(at)} {problem}")
    if (w < 0).any():
        at = int(np.flatnonzero(w < 0)[0])
        raise ModelError(f"strategy {name}: negative weight {written(plain(w[at]))} for {where(at)}")
    with np.errstate(over="ignore"):
        totals = model.per_state(np.add, w)
    if not exact and not np.isfinite(totals).all():  # weights of 1e308: only their ratios count
        w = _within_states(model, w)
        totals = model.per_state(np.add, w)
    if (totals <= 0).any():
        at = int(np.flatnonzero(totals <= 0)[0]) + model.n_terminal
        raise ModelError(f"strategy {name}: no action has weight in {named(model.states[at])}"
                         ).at(model.states[at], model.info)
    return w / model.each_action(totals)


def _within_states(model: CompiledModel, weights: Any) -> Any:
    """Each of ``weights`` (one per action: a list of Fractions, or an array of floats none
    below 0) over the largest in size of its own state's, 0 where they are all 0: only the
    ratios within a state count, and a state's weights are never judged beside another's."""
    counts = model.action_counts[model.n_terminal:].tolist()
    starts = model.action_start[model.n_terminal:-1].tolist()
    if isinstance(weights, np.ndarray):
        largest = model.each_action(model.per_state(np.maximum, weights))
        return np.divide(weights, largest, out=np.zeros_like(weights), where=largest > 0)
    scaled: list[Fraction] = []
    for a, n in zip(starts, counts):
        own: list[Fraction] = weights[a:a + n]
        top = max(map(abs, own), default=Fraction(0))
        scaled += [x / top if top else x for x in own]
    return scaled
