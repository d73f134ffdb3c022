"""Solving a model whose states may come back (a *cyclic* layer: some transition stays in
it), or that two players take in turns (:mod:`mdp.engine.turns`).

The layers are the strongly connected components of the states in topological order (those
of one height together, :mod:`mdp.engine.walk`), or a batch game's stages
(:mod:`mdp.engine.closure`): a layer leads only to itself and to lower layers, so they are
solved one after another from the terminal states up, as in a game without cycles. A layer
without a transition that stays in it is one backup; a cyclic one is a system of its own:

- in floats, by *value iteration*: the part of each action's value that comes from lower
  layers is summed once, then the layer's values are backed up again and again, from the
  worst terminal value, until a bound of every value's error (the rest of the geometric
  series the changes make) is within the layer's share (:func:`share`) of the residual
  (:data:`RESIDUAL` by default, times the largest terminal value, at least 1); the sum of
  the bounds is reported. A play that never ends is so worth no more than the worst end to
  the player who keeps it going. Where the steps form a geometric series state by state,
  the values jump to its limit (:func:`settle`);
- exactly, by *policy iteration*: the play of the float solve is evaluated by an exact
  linear solve in rationals (Gaussian elimination in the order a depth-first search finishes
  the states, so that only the states where a cycle closes stay unknown), then improved
  where an action is exactly better, until none is (:mod:`mdp.engine.linear`). Models of
  at most :data:`MOST_EXACT` states.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.arithmetic import Floats, Rationals, objects
from mdp.engine.cycles_ending import arcs, check_ends, nearer_in_layer, never_ends
from mdp.engine.linear import Singular, solve_exactly
from mdp.engine.loops import left_loops
from mdp.engine.model import CompiledModel
from mdp.engine.policy import tie_margin
from mdp.engine.rings import eliminated
from mdp.engine.sweep import bottom_up
from mdp.errors import ModelError, Named, TooLarge, said

if TYPE_CHECKING:
    from mdp.engine.policy import Policy, Sense


EXTRAPOLATE = 4
"""Every so many sweeps, value iteration may jump to where a geometric series of steps leads."""

MOST_MISSES = 3
"""Jumps that missed (:func:`settle`) past which a layer jumps no more."""

RATIO_SPREAD, MISFIT = 1e-2, 0.1
"""How far the ratios fitted at two sweeps in a row may differ (relative) for a jump; how far
from a step (relative to its largest) the step two before times their ratio may be."""

READ_RATE = 4096
"""A rate read from changes of more units in the last place than this is the chain's (to
about 1/4096), not the rounding's."""

MOST_SWEEPS = 100_000
"""Sweeps of a cyclic layer after which its values are taken not to settle."""

MOST_IMPROVEMENTS = 100
"""Rounds of exact policy iteration of a layer before it is taken not to settle."""

MOST_EXACT = 20_000
"""The most states of a model with cycles solved exactly."""


def solve_returning(model: CompiledModel, terminal: Any, *, exact: bool, sense: Sense,
                    policy: Policy | None, residual: float,
                    progress: Callable[[str], None] | None) -> tuple[np.ndarray, Any, float | None]:
    """The values of every state (raw, as :class:`mdp.Solution` keeps them), the arithmetic
    they are in, and a bound of value iteration's error (the layers' summed; None where exact)."""
    if exact and model.n_states > MOST_EXACT:
        raise TooLarge(f"game {model.info.game}: exact solving of a game whose states may come "
                       f"back takes at most {MOST_EXACT:,} states, and this one has "
                       f"{model.n_states:,}: solve it in floats (without exact)")
    if policy is not None:  # before any work
        check_ends(model, policy.probabilities, f"playing {policy.name}")
    chances = None if policy is None else policy.as_floats() if policy.exact else policy.probabilities
    floats = Floats(model, terminal, chances)
    raw, change = _in_floats(model, floats, sense, residual, progress)
    if not exact:
        return raw, floats, change
    rationals = Rationals(model, terminal, None if policy is None else policy.probabilities)
    return _exactly(model, rationals, floats, raw, sense), rationals, None


def _chooser(sense: Sense, policy: np.ndarray | None) -> Callable[[np.ndarray, np.ndarray, int], np.ndarray]:
    """Each state's value from its actions' ``q`` (``starts``: the states' first actions
    among them, the first of them action ``a0`` of the model): the best, or the policy's mix."""
    if policy is not None:
        return lambda q, starts, a0: np.add.reduceat(q * policy[a0:a0 + len(q)], starts)
    best = np.maximum if sense == "max" else np.minimum
    return lambda q, starts, a0: best.reduceat(q, starts)


def _actions(model: CompiledModel, layer: int, lo: int, hi: int) -> tuple[int, int, np.ndarray]:
    """A layer's first action, one past its last, and its states' first actions among them."""
    a0, a1 = model.layer_actions(layer)
    return a0, a1, model.action_offsets(lo, hi)[:-1] - a0


def _in_floats(model: CompiledModel, floats: Floats, sense: Sense, residual: float,
               progress: Callable[[str], None] | None) -> tuple[np.ndarray, float]:
    raw = floats.start()
    raw[model.n_terminal:] = 0.0
    choose = _chooser(sense, floats.policy)
    terminal = np.asarray(floats.terminal, dtype=np.float64)
    total = float(model.turns.total) if model.turns is not None else 0.0
    tolerance = residual * max(1.0, float(np.max(np.abs(terminal), initial=0.0)), abs(total))
    # From the worst a player can get: a play that never ends is then worth no more to the
    # player who keeps it going than the worst end (where every play ends, any start will do).
    ends = np.concatenate([terminal, total - terminal]) if model.turns is not None else terminal
    bounds = float(np.min(ends, initial=0.0)), float(np.max(ends, initial=0.0))
    worst_start = bounds[0] if sense == "max" else bounds[1]
    worst = 0.0
    # A strategy's to a quarter: slow rings' bounds fall short, rounding adds 2e-13.
    layer_tolerance = share(model, tolerance) / (1 if floats.policy is None else 4)
    for layer, lo, hi in bottom_up(model):
        if progress:
            progress(f"solving layer {layer} of {model.n_layers - 1}")
        a0, a1, starts = _actions(model, layer, lo, hi)
        if model.cyclic is None or not model.cyclic[layer]:
            raw[lo:hi] = choose(model.backup(layer, raw, floats), starts, a0)
            continue
        given = _System(model, layer, raw, floats.probabilities, total)
        played = None if floats.policy is None else floats.policy[a0:a1]
        system = left_loops(model, layer, given, starts, played)
        ranked = _Ranked(starts, a1 - a0, sense, floats.policy, a0)
        gathered = np.empty(len(system.cols))

        def sweep(values: np.ndarray, system: _System = system, ranked: _Ranked = ranked,
                  gathered: np.ndarray = gathered) -> np.ndarray:
            np.take(values, system.cols, out=gathered)
            gathered *= system.weights
            q = np.bincount(system.rows, gathered, minlength=len(system.const)).astype(float, copy=False)
            q += system.const  # (no transition left in the layer: bincount's are ints)
            return ranked(q)

        what = functools.partial(_value_of, model, lo)
        # A small layer solved from the chances of leaving first (a slow ring: rings.py),
        # then swept from there: the sweeps check it, and bound the error left.
        start, solved = eliminated(given, starts, np.full(hi - lo, worst_start), sense, played,
                                   functools.partial(_ending_start, model, layer, starts=starts, sense=sense))
        values, change = settle(sweep, start, layer_tolerance, bounds, what, jumps=not solved)
        if not solved and floats.policy is None and _held(model, layer, system, starts, values, sense):
            values, change = settle(sweep, np.full(hi - lo, worst_start), layer_tolerance, bounds,
                                    what, jumps=False)
        raw[lo:hi] = values
        worst += change
    return raw, worst


def share(model: CompiledModel, tolerance: float) -> float:
    """Each cyclic layer's share of a bound of the error: an error in one passes at most whole
    into the layers above, and the sum of the layers' is reported."""
    return tolerance / max(1, int(np.count_nonzero(model.cyclic)) if model.cyclic is not None else 1)


def _held(model: CompiledModel, layer: int, system: _System, starts: np.ndarray,
          values: np.ndarray, sense: Sense) -> bool:
    """Whether some of a layer's values (of optimal play) are held only by loops of ties,
    no play that ends worth them: a jump overshot, and a loop (a move that comes back,
    worth whatever its state is worth) kept the overshot value, unchanged sweep after sweep.
    From below (the worst start) without jumps, value iteration never overshoots."""
    q = system.const + np.bincount(system.rows, system.weights * values[system.cols],
                                   minlength=len(system.const))
    best = (np.maximum if sense == "max" else np.minimum).reduceat(q, starts)
    best = np.repeat(best, np.diff(np.append(starts, len(q))))
    _, stuck = nearer_in_layer(model, layer, np.abs(q - best) <= tie_margin(best))
    return stuck is not None


def _value_of(model: CompiledModel, lo: int, i: int) -> Named:
    key = model.states[lo + i]
    return Named(f"game {model.info.game}: the value of state {said(key)}", key, model.info)


def settle(sweep: Callable[[np.ndarray], np.ndarray], values: np.ndarray, tolerance: float,
           bounds: tuple[float, float], what: Callable[[int], Named],
           jumps: bool = True) -> tuple[np.ndarray, float]:
    """Value iteration: ``values`` swept (``sweep`` gives the next values from the last)
    until a bound of the error left is within ``tolerance`` (:func:`_error_bound`, not the
    last change, which a slow chain keeps far below its error); the values and that bound.

    Where each step is, state by state, the step two sweeps before times one ratio r (0 < r
    < 1, the same at two sweeps in a row), the steps go as a geometric series in pairs: the
    values jump to its limit, (the last two steps) * r / (1 - r) on (within ``bounds``: each
    value is an average of ends). Fitted to the largest change alone, the ratio was steady
    also where the states that change take turns (a loop of two) or the sign flips (the turn
    passed back and forth): the jump overshot, and a loop of ties held the overshot values
    for ever. A jump that does not beat the sweeps it spares is undone; where, after jumps,
    the change stops shrinking over two checks, the sweeps start again from ``values``.
    Past :data:`MOST_MISSES` of either (or without ``jumps``), no more jumps. Past
    :data:`MOST_SWEEPS`, :class:`mdp.ModelError` names what changed most (``what`` of its
    index: "game G: the value of state S")."""
    steps = [np.zeros(len(values)) for _ in range(3)]  # this sweep's step, the last, the one before
    change, rates, slowest, fitted, since = np.inf, [1.0] * EXTRAPOLATE, 0.0, None, 0
    # The largest rate read from changes far above the values' rounding (the bounds hold
    # every value: a constant scale, no pass over the values a sweep).
    measured, readable = 0.0, READ_RATE * np.finfo(np.float64).eps * max(1.0, *map(abs, bounds))
    misses = 0 if jumps else MOST_MISSES
    start, before, jumped = values, None, False  # the values before the last jump; any jump since start
    expected = later = np.inf  # what the change must be below at the next check, and the one after
    for count in range(MOST_SWEEPS):
        new = sweep(values)
        steps.insert(0, steps.pop())
        step = np.subtract(new, values, out=steps[0])
        last, change = change, float(np.max(np.abs(step), initial=0.0))
        values = new
        since += 1
        # The rate of the last sweeps without a jump between, the largest of a few in a row
        # (a chain of period two alternates between two; one of a ring turns round), at least
        # that of the last series jumped along (a jump leaves mostly faster parts).
        rates = [(change / last if last else 0.0) if since >= 2 else 1.0, *rates[:EXTRAPOLATE - 1]]
        bound = _error_bound(change, max(*rates, slowest))
        if bound <= tolerance:
            return values, bound
        if change > readable:
            measured = max(measured, rates[0])
        # At the values' rounding the rate read is noise: done where the rate read before
        # bounds the error, or the change is a unit or two in the last place (a slow ring).
        if change <= tolerance and _at_rounding(change, values) and (
                _error_bound(change, measured) <= tolerance or _at_rounding(change, values, 2)):
            return values, change
        if count % EXTRAPOLATE == EXTRAPOLATE - 1:  # a ratio, to be confirmed at the next
            fitted = _ratio(step, steps[2]) if misses < MOST_MISSES and since >= 3 else None
        if count % EXTRAPOLATE:
            continue
        if jumped and change >= expected:  # a jump missed: back to before it, or to the start
            values = start if before is None else before
            jumped = jumped and before is not None
            before, since, change, expected, later, misses = None, 0, np.inf, np.inf, np.inf, misses + 1
            continue
        before, expected, later = None, later, change  # the change must shrink over two checks
        ratio = None if fitted is None else _ratio(step, steps[2])
        if ratio is not None and fitted is not None and abs(ratio - fitted) <= RATIO_SPREAD * ratio:
            before, jumped, since, slowest = values, True, 0, ratio ** 0.5
            expected = change * ratio ** (EXTRAPOLATE / 2)  # what the sweeps spared would bring
            values = np.clip(values + (step + steps[1]) * (ratio / (1 - ratio)), *bounds)
    named = what(int(np.argmax(np.abs(steps[0]))))
    if _at_rounding(change, values):  # no fault of the game's: past float64's reach
        raise ModelError(f"{named} still changes by {change:.3g} sweep after sweep, float64's "
                         "rounding of it, short of the residual asked for (shared among the "
                         "states that come back); ask for a larger residual (the default is "
                         "1e-12), or solve exactly (--exact)").at(named.state, named.info)
    raise ModelError(f"{named} still changes by {change:.3g} after {MOST_SWEEPS:,} sweeps: "
                     "some play may never end").at(named.state, named.info)


def _ratio(step: np.ndarray, earlier: np.ndarray) -> float | None:
    """The ratio r (0 < r < 1) with ``step`` the ``earlier`` step times r, state by state,
    to ``MISFIT`` of the step (least squares), or ``None`` where there is none."""
    norm = float(earlier @ earlier)
    if not norm:
        return None
    ratio = float(step @ earlier) / norm
    misfit = float(np.max(np.abs(step - ratio * earlier), initial=0.0))
    if not 0 < ratio < 1 or misfit > MISFIT * float(np.max(np.abs(step), initial=0.0)):
        return None
    return ratio


def _error_bound(change: float, rate: float) -> float:
    """A bound of how far values whose last sweep changed them by ``change``, the change
    shrinking by ``rate`` a sweep (measured between sweeps without a jump), are from where
    the sweeps lead: the rest of the geometric series, ``change * rate / (1 - rate)``, not
    the last change (a strategy of Pig, its change below 1e-12, was 7e-12 off; gambler's
    ruin to 7, 8e-12)."""
    return change * rate / (1 - rate) if rate < 1 else np.inf


def _at_rounding(change: float, values: np.ndarray, units: float = 8) -> bool:
    """Whether a change is within ``units`` units in the last place of the values
    themselves: the rate read from such changes is the rounding's, not the chain's. At 64,
    a slow chain (a ring of stays near 0.99) stopped 1e-12 off; at 8, a slower one (a ring
    of three stays of 0.999), unless the rate read before says the error left is small."""
    return bool(change <= units * np.finfo(np.float64).eps * float(np.max(np.abs(values), initial=1.0)))


class _Ranked:
    """Each state's value from its actions' values, over and over for one layer: the best
    (or the policy's mix) taken rank by rank (every state's first action, then the second of
    those that have one, ...), a few whole-array steps where ``reduceat`` is slow."""

    def __init__(self, starts: np.ndarray, count: int, sense: Sense, policy: np.ndarray | None,
                 a0: int) -> None:
        counts = np.diff(np.append(starts, count))
        self.first = starts.astype(np.intp)
        having = [np.flatnonzero(counts > r) for r in range(1, int(counts.max(initial=1)))]
        self.ranks = [(states, self.first[states] + r) for r, states in enumerate(having, 1)]
        self.best = np.maximum if sense == "max" else np.minimum
        self.policy = None if policy is None else policy[a0:a0 + count]

    def __call__(self, q: np.ndarray) -> np.ndarray:
        if self.policy is not None:
            q = q * self.policy
        top = q[self.first]
        for having, actions in self.ranks:
            if self.policy is not None:
                top[having] += q[actions]
            else:
                top[having] = self.best(top[having], q[actions])
        return top


class _System:
    """A cyclic layer's actions as linear functions of its own states' values: ``const``
    per action (what its outcomes in lower layers bring, and what the turn passing adds),
    plus ``weights`` times the values of the layer's states ``cols`` (a row per transition
    that stays in the layer, its action in ``rows``); a weight is negative where the turn
    passes (the successor counts as ``total - v``)."""

    def __init__(self, model: CompiledModel, layer: int, raw: np.ndarray, table: np.ndarray,
                 total: Any) -> None:
        way = arcs(model, layer)
        lo, row, successor, inside, flip = way.lo, way.row, way.successor, way.inside, way.flip
        probability = np.ones(len(row), dtype=table.dtype)
        if table.dtype == object:
            probability[:] = Fraction(1)
        probability[way.outcome] = table[model.outcome_prob[way.o0:way.o1]]
        # Kept for a system of two ways of playing (mdp.engine.versus).
        self.lo, self.n, self.na = lo, way.hi - lo, way.na
        self.row, self.successor, self.probability, self.flip, self.inside = \
            row, successor, probability, flip, inside
        out = ~inside
        seen = raw[successor[out]]
        seen = np.where(flip[out], total - seen, seen)
        self.const = _sums(row[out], probability[out] * seen, way.na)
        passing = inside & flip
        self.const += _sums(row[passing], probability[passing] * total, way.na)
        self.rows, self.cols = row[inside], successor[inside] - lo
        self.weights = np.where(flip[inside], -probability[inside], probability[inside])


def _sums(rows: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """The sum of ``values`` by row, for ``n`` rows (floats, or fractions)."""
    if values.dtype != object:
        return np.bincount(rows, values, minlength=n)
    sums = objects([Fraction(0)] * n)
    np.add.at(sums, rows, values)
    return sums


def _exactly(model: CompiledModel, rationals: Rationals, floats: Floats, approximate: np.ndarray,
             sense: Sense) -> np.ndarray:
    """Every state's exact value, layer by layer: one backup where the layer has no cycle,
    else policy iteration from the play of the float solve ``approximate``."""
    raw = rationals.start()
    choose = _chooser(sense, rationals.policy)
    better = np.greater if sense == "max" else np.less
    total = Fraction(model.turns.total) if model.turns is not None else Fraction(0)
    for layer, lo, hi in bottom_up(model):
        a0, a1, starts = _actions(model, layer, lo, hi)
        if model.cyclic is None or not model.cyclic[layer]:
            raw[lo:hi] = choose(model.backup(layer, raw, rationals), starts, a0)
            continue
        system = _System(model, layer, raw, rationals.probabilities, total)
        if rationals.policy is not None:
            raw[lo:hi] = _evaluate(model, layer, system, rationals.policy[a0:a1], starts,
                                   "playing the policy")
            continue
        chosen = _ending_start(model, layer, model.backup(layer, approximate, floats), starts, sense)
        for _ in range(MOST_IMPROVEMENTS):
            weights = objects([Fraction(0)] * (a1 - a0))
            weights[chosen] = Fraction(1)
            raw[lo:hi] = _evaluate(model, layer, system, weights, starts)
            q = model.backup(layer, raw, rationals)
            top = choose(q, starts, a0)
            improve = np.flatnonzero(better(top.astype(object), q[chosen]).astype(bool))
            if not len(improve):
                break
            chosen[improve] = _first_best(q, starts, sense)[improve]
        else:  # a game of two players whose improvements go round (the floats' play is
            # nearly always optimal already: one evaluation, no improvement)
            raise ModelError(f"game {model.info.game}: exact policy iteration of layer {layer} "
                             f"still improves after {MOST_IMPROVEMENTS} rounds")
    return raw


def _ending_start(model: CompiledModel, layer: int, q: np.ndarray, starts: np.ndarray,
                  sense: Sense) -> np.ndarray:
    """A play of a cyclic layer that ends, to start policy iteration from (an index into
    ``q`` per state): each state's first action that ties for best in floats (``q``) and
    brings an end nearer (:mod:`mdp.engine.cycles_ending`); where that leaves a state
    without one, the first that brings an end nearer at all, in every state."""
    best = (np.maximum if sense == "max" else np.minimum).reduceat(q, starts)
    best = np.repeat(best, np.diff(np.append(starts, len(q))))
    tie = np.abs(q - best) <= tie_margin(best)
    progress, stuck = nearer_in_layer(model, layer, tie)
    if stuck is not None:
        progress, stuck = nearer_in_layer(model, layer, np.ones(len(q), dtype=bool))
    if stuck is not None:
        raise never_ends(model, stuck, "whatever is played")
    return _first_best(np.where(progress, 1, 0), starts, "max")


def _first_best(q: np.ndarray, starts: np.ndarray, sense: Sense) -> np.ndarray:
    """Each state's first best action (an index into ``q``)."""
    best = (np.maximum if sense == "max" else np.minimum).reduceat(q, starts)
    counts = np.diff(np.append(starts, len(q)))
    at = np.flatnonzero(q == np.repeat(best, counts))
    state = np.repeat(np.arange(len(starts)), counts)[at]
    first = np.ones(len(at), dtype=bool)
    first[1:] = state[1:] != state[:-1]
    return at[first]


def _evaluate(model: CompiledModel, layer: int, system: Any, weights: np.ndarray,
              starts: np.ndarray, how: str = "playing best") -> np.ndarray:
    """The exact values of a cyclic layer's states when each action is taken with the
    chance ``weights`` (one per action of the layer): ``v = c + M v`` solved exactly
    (:func:`mdp.engine.linear.solve_exactly`)."""
    n = len(starts)
    state = np.repeat(np.arange(n), np.diff(np.append(starts, len(weights))))
    const = [Fraction(0)] * n
    rows: list[dict[int, Fraction]] = [{} for _ in range(n)]
    for a in np.flatnonzero(weights != 0).tolist():
        const[state[a]] += weights[a] * system.const[a]
    for a, j, w in zip(system.rows.tolist(), system.cols.tolist(), system.weights.tolist()):
        if weights[a]:
            row = rows[state[a]]
            row[j] = row.get(j, Fraction(0)) + weights[a] * w
    try:
        return objects(solve_exactly(const, rows))
    except Singular as error:  # states left going round (one of each, for two players)
        lo, hi = int(model.layer_start[layer]), int(model.layer_start[layer + 1])
        raise never_ends(model, lo + error.unknown % (hi - lo), how) from None
