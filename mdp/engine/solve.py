"""Backward induction: the value of every state and action of a compiled model, with the
game's terminal values or any others, under optimal play or under a given policy; a game of
rounds is handed to :mod:`mdp.engine.rounds`. What a solve gives, and the rule of optimal
play, are in :mod:`mdp.engine.solution`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, overload

import attrs
import numpy as np

from mdp.checks import (
    CALLBACK,
    FLAG,
    MODEL,
    OPTIONAL_POLICY,
    SENSE,
    TERMINAL,
    TERMINALS,
    arguments,
    check_residual,
)
from mdp.engine.arithmetic import Exact, Floats, floats
from mdp.engine.cycles_ending import nearer, never_ends
from mdp.engine.model import CompiledModel
from mdp.engine.policy import OPTIMAL, Policy, Sense, tie_margin
from mdp.engine.solution import Solution, Solutions, first_kept
from mdp.engine.sweep import Piece, backward, best
from mdp.engine.terminal import check_terminal, check_terminal_matrix, own_terminal
from mdp.errors import ModelError, ParamError
from mdp.limits import RESIDUAL

if TYPE_CHECKING:  # the solvers of games of rounds and of cycles are imported when used
    from mdp.engine.rounds import Rounds, RoundsSolution


@overload
def solve(model: Rounds, *, terminal: Any = None, exact: bool = False, sense: Sense | None = None,
          policy: Policy | None = None, against: Policy | None = None,
          progress: Callable[[str], None] | None = None, residual: float | None = None) -> RoundsSolution: ...
@overload
def solve(model: CompiledModel, *, terminal: Any = None, exact: Literal[True],
          sense: Sense | None = None, policy: Policy | None = None, against: Policy | None = None,
          progress: Callable[[str], None] | None = None,
          residual: float | None = None) -> Solution[Fraction]: ...
@overload
def solve(model: CompiledModel, *, terminal: Any = None, exact: Literal[False] = False,
          sense: Sense | None = None, policy: Policy | None = None, against: Policy | None = None,
          progress: Callable[[str], None] | None = None,
          residual: float | None = None) -> Solution[float]: ...
@overload
def solve(model: CompiledModel, *, terminal: Any = None, exact: bool = False,
          sense: Sense | None = None, policy: Policy | None = None, against: Policy | None = None,
          progress: Callable[[str], None] | None = None, residual: float | None = None) -> Solution[Any]: ...
@overload
def solve(model: CompiledModel | Rounds, *, terminal: Any = None, exact: bool = False,
          sense: Sense | None = None, policy: Policy | None = None, against: Policy | None = None,
          progress: Callable[[str], None] | None = None,
          residual: float | None = None) -> Solution[Any] | RoundsSolution: ...
def solve(
    model: CompiledModel | Rounds,
    *,
    terminal: Any = None,
    exact: bool = False,
    sense: Sense | None = None,
    policy: Policy | None = None,
    progress: Callable[[str], None] | None = None,
    residual: float | None = None,
    against: Policy | None = None,
) -> Solution[Any] | RoundsSolution:
    """Solve a compiled model (:func:`mdp.compile`): the value of every state under optimal
    play, or under ``policy`` (:class:`mdp.Policy`) where one is given.

    ``terminal`` replaces the game's terminal values: one number per row of
    :attr:`model.terminals <mdp.CompiledModel.terminals>`, as a list, a numpy array or a
    Polars Series (booleans count as 0 and 1). The solution carries them
    (:attr:`mdp.Solution.terminal`), and its value is no longer of the game's objective
    (:attr:`mdp.Solution.objective`): what reads it (its summary, :func:`mdp.simulate`,
    :func:`mdp.strategy_values`) uses them, and :func:`mdp.report`, a page on the game's
    objective, refuses it. ``exact=True`` computes with rationals: the
    probabilities and terminal values must then be ``int`` or :class:`fractions.Fraction`.
    ``sense`` overrides the game's objective: ``"max"`` or ``"min"``. ``progress`` is called
    now and then with a short text on how far the work has got.

    In a game two players take in turns, a ``policy`` is the play of the player to move at
    the initial state, against the other's: ``against`` (a :class:`mdp.Policy`), or
    optimal play where it is ``None`` (:mod:`mdp.engine.versus`); the solution keeps the
    other's play (:attr:`mdp.Solution.opponent`).

    A game whose states may come back is solved by iteration where its states form cycles
    (:mod:`mdp.engine.cycles`): in floats until no value of a sweep changes by more than
    a bound of the error of every value is within ``residual`` (relative to the largest
    terminal value; that bound is :attr:`mdp.Solution.residual`), exactly by policy iteration
    in rationals.
    """
    if residual is not None:
        check_residual(residual)
    arguments("solve", model=(model, MODEL), terminal=(terminal, TERMINAL), exact=(exact, FLAG),
              sense=(sense, SENSE), policy=(policy, OPTIONAL_POLICY), progress=(progress, CALLBACK),
              against=(against, OPTIONAL_POLICY))
    if residual is not None:  # given: where it bounds nothing, refused rather than dropped
        none = "exact=True solves by policy iteration, with no error" if exact else \
            "a game of rounds is solved in one pass of its rounds" \
            if not isinstance(model, CompiledModel) else \
            f"game {model.info.game}'s states do not come back: one pass solves it, with no error" \
            if model.one_pass else None
        if none is not None:
            raise ParamError(f"mdp.solve: residual={residual!r} bounds the error of value iteration "
                             f"in floats; {none} to bound: leave it out")
    residual = RESIDUAL if residual is None else residual
    if not isinstance(model, CompiledModel):  # a game of rounds (checked above)
        from mdp.engine.rounds import solve_rounds

        if terminal is not None or policy is not None or against is not None:
            raise ParamError("a game of rounds is solved with the points of its rounds' ends: "
                             "terminal= and policy= do not apply to it")
        return solve_rounds(model, exact=exact, sense=sense_of(model.round, sense), progress=progress)
    start = time.perf_counter()
    sense = sense_of(model, sense)
    values = check_terminal(model, terminal, exact)
    if policy is not None:
        _check_policy(model, policy, exact)
    if against is not None:
        if policy is None or model.turns is None:
            raise ParamError("against= is the play of the other player of a game two players "
                             "take in turns, beside the policy= of the first")
        _check_policy(model, against, exact)
    if policy is not None and model.turns is not None:  # two ways of playing, one a side
        from mdp.engine.cycles import solve_returning
        from mdp.engine.versus import against as versus

        other = against
        if other is None:  # the other player plays best
            raw, arithmetic, change = solve_returning(model, values, exact=exact, sense=sense,
                                                      policy=None, residual=residual,
                                                      progress=progress)
            other = ending_play(Solution(model, sense, raw, arithmetic, residual=change),
                                residual).as_policy()
        raw, arithmetic, change, turned = versus(model, values, exact=exact, policy=policy,
                                                 residual=residual, progress=progress, other=other)
        return Solution(model, sense, raw, arithmetic, time.perf_counter() - start, policy,
                        residual=change, terminal=own_terminal(model, values), opponent=other,
                        turned=turned)
    if not model.one_pass:  # states that may come back
        from mdp.engine.cycles import solve_returning

        raw, arithmetic, change = solve_returning(model, values, exact=exact, sense=sense,
                                                  policy=policy, residual=residual,
                                                  progress=progress)
        solved = Solution(model, sense, raw, arithmetic, time.perf_counter() - start, policy,
                          residual=change, terminal=own_terminal(model, values))
        return solved if policy is not None else ending_play(solved, residual)
    if policy is not None:
        chances = policy.probabilities if exact or not policy.exact else policy.as_floats()
        arithmetic = (Exact if exact else Floats)(model, values, chances)
        raw = backward(model, arithmetic, arithmetic.mixed, arithmetic.start(), progress=progress)
    else:
        arithmetic = (Exact if exact else Floats)(model, values)
        guide = _Guide.of(model, values, arithmetic, sense) if isinstance(arithmetic, Exact) \
            else None
        raw = backward(model, arithmetic, guide or best(sense), arithmetic.start(), progress=progress)
    return Solution(model, sense, raw, arithmetic, time.perf_counter() - start, policy,
                    terminal=own_terminal(model, values))


@overload
def solve_many(model: CompiledModel, terminals: Any, *, exact: Literal[True],
               sense: Sense | None = None,
               progress: Callable[[str], None] | None = None) -> Solutions[Fraction]: ...
@overload
def solve_many(model: CompiledModel, terminals: Any, *, exact: Literal[False] = False,
               sense: Sense | None = None,
               progress: Callable[[str], None] | None = None) -> Solutions[float]: ...
@overload
def solve_many(model: CompiledModel, terminals: Any, *, exact: bool = False,
               sense: Sense | None = None,
               progress: Callable[[str], None] | None = None) -> Solutions[Any]: ...
def solve_many(
    model: CompiledModel,
    terminals: Any,
    *,
    exact: bool = False,
    sense: Sense | None = None,
    progress: Callable[[str], None] | None = None,
) -> Solutions[Any]:
    """Solve one compiled model for many sets of terminal values at once, in one pass over
    its layers: far quicker than one :func:`solve` per set.

    ``terminals`` is a matrix with one row per row of :attr:`model.terminals
    <mdp.CompiledModel.terminals>` and one column per set of values: a 2-D numpy array (of
    numbers, or of ``int`` and :class:`fractions.Fraction` objects), a Polars DataFrame
    (each column one set), or a list of columns (each as :func:`solve` takes
    ``terminal=``). ``exact`` and ``sense`` are as for :func:`solve`; each column is solved
    on its own, as if by ``solve(model, terminal=column)``. The work goes in pieces of
    actions and columns, side by side on every thread; besides the values (a number per
    state and column), it needs a few megabytes per thread.

    >>> both = mdp.solve_many(model, np.stack([win, score], axis=1))   # doctest: +SKIP
    >>> both.value            # the initial state's value in each column
    """
    arguments("solve_many", model=(model, MODEL), terminals=(terminals, TERMINALS), exact=(exact, FLAG),
              sense=(sense, SENSE), progress=(progress, CALLBACK))
    if not isinstance(model, CompiledModel):
        raise ParamError(f"solve_many takes a compiled model, not {type(model).__name__}")
    if not model.one_pass:
        raise ParamError(f"game {model.info.game}: solve_many takes a game solved in one pass; "
                         "this one's states may come back, or two players take turns: "
                         "solve it once per set of terminal values")
    start = time.perf_counter()
    sense = sense_of(model, sense)
    values = check_terminal_matrix(model, terminals, exact)
    arithmetic = (Exact if exact else Floats)(model, values)
    raw = backward(model, arithmetic, best(sense), arithmetic.start(), progress=progress)
    return Solutions(model, sense, raw, arithmetic, time.perf_counter() - start, terminals=values)


def sense_of(model: CompiledModel, sense: Sense | None) -> Sense:
    """The sense asked for, else the game's own; checked."""
    sense = sense or model.info.objective.sense
    if sense not in ("max", "min"):
        raise ParamError(f"sense {sense!r}: allowed are 'max' and 'min'")
    return sense


def _check_policy(model: CompiledModel, policy: Any, exact: bool) -> None:
    if policy.model is not model:
        raise ParamError(f"the policy {policy.name} is of another compiled model")
    if exact and not policy.exact:
        raise ParamError(f"the policy {policy.name} has float chances; exact evaluation needs "
                         "a policy made with exact=True")


class _Guide:
    """Optimal play in exact rationals, with a float solve alongside, so that the exact
    arithmetic (big integers, slow) is done only for the actions that may be best: those
    whose float value is within :attr:`margin` of the best float value of their state. A
    float value is off from the exact one by far less: its error is a few units of 2**-53
    of the largest terminal value per layer, and every value is an average of terminal
    values. Where actions are that close, all of them are computed exactly and compared
    exactly. Where a layer's numerators fit in 64 bits, every action is computed exactly
    (as fast as floats), and the float values are taken from the exact ones."""

    @classmethod
    def of(cls, model: CompiledModel, terminal: Any, arithmetic: Exact,
           sense: Sense) -> Callable[..., Any] | None:
        """A guide's decision, or ``None`` where a terminal value is too large for a float, or
        two values' difference (the margin of a tie is one) is."""
        try:
            approximate = (terminal.astype(np.float64) if isinstance(terminal, np.ndarray)
                           and terminal.dtype.kind in "biuf" else
                           np.array([float(v) for v in terminal], dtype=np.float64))
        except OverflowError:
            return None
        if not np.isfinite(approximate).all() or \
                len(approximate) and np.max(np.abs(approximate)) > np.finfo(np.float64).max / 2:
            return None
        return cls(model, approximate, arithmetic, sense).decide

    def __init__(self, model: CompiledModel, terminal: np.ndarray, arithmetic: Exact,
                 sense: Sense) -> None:
        self.model, self.exact = model, arithmetic
        self.floats = Floats(model, terminal)
        self.values = self.floats.start()
        largest = float(np.max(np.abs(terminal))) if len(terminal) else 0.0
        self.margin = 1e-9 * largest
        self.best = np.maximum if sense == "max" else np.minimum

    def decide(self, backup: Callable[..., np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        layer, s0, s1 = where.layer, where.s0, where.s1
        if not self.exact.big(layer):  # 64-bit integers: every action, exactly
            top = self.best.reduceat(backup(), starts)
            self.values[s0:s1] = floats(top, self.exact.scale[layer])
            return top
        q = self.model.backup(layer, self.values, self.floats, actions=(where.a0, where.a1))
        top = self.best.reduceat(q, starts)
        self.values[s0:s1] = top
        counts = np.diff(np.append(starts, len(q)))
        near = np.abs(q - np.repeat(top, counts)) <= self.margin
        kept = np.add.reduceat(near, starts, dtype=np.int64)
        return self.best.reduceat(backup(np.flatnonzero(near)), np.cumsum(kept) - kept)


def ending_play(solution: Solution[Any], residual: float) -> Solution[Any]:
    """An optimal solution of a model whose states may come back, with the actions that
    bring an end nearer (:attr:`mdp.Solution.nearer`); refused where from some state no
    optimal play ends. In floats, those ties are also ties of play repeated
    (:func:`_repeated_ties`)."""
    model = solution.model
    actions = solution.action_values()
    optimal = np.asarray(actions.optimal, dtype=bool)
    ending, stuck = nearer(model, optimal)
    if stuck is not None:
        raise never_ends(model, stuck, "playing best")
    if not solution.exact and (ending & (actions.regret > 0)).any():
        ending = _repeated_ties(solution, optimal, ending, actions.regret, residual)
    return attrs.evolve(solution, nearer=ending)


def _repeated_ties(solution: Solution[Any], optimal: np.ndarray, ending: np.ndarray,
                   regret: np.ndarray, residual: float) -> np.ndarray:
    """``ending`` (the optimal actions that bring an end nearer, ties within
    :data:`~mdp.engine.policy.FLOAT_TIE` among them) where optimal play keeps the solved
    values; where it does not, each state it falls short at keeps its least regret alone.
    A tie of one step is not one of play repeated: going on at a loss of 1e-12 where
    stopping is worth 1, in a loop left with a chance of 1e-12 a step, loses it 1e12 times
    over, and the play that took it ended worth 0 while the value said 1."""
    from mdp.engine.cycles import solve_returning
    from mdp.engine.versus import against

    model, sense, kept = solution.model, solution.sense, ending
    best, values = solution.values, solution.terminal_values
    state = model.action_state()
    for _ in range(MOST_REPAIRS):
        play = Policy.of_weights(model, first_kept(model, kept), name=OPTIMAL)
        try:
            if model.turns is None:
                raw, arithmetic, change = solve_returning(model, values, exact=False, sense=sense,
                                                          policy=play, residual=residual, progress=None)
            else:  # each player as optimal play has them
                raw, arithmetic, change, _ = against(model, values, exact=False, policy=play,
                                                     residual=residual, progress=None, other=play)
            played = Solution(model, sense, raw, arithmetic).values
            loss = best - played if sense == "max" else played - best
            short = loss > tie_margin(best) + 2 * ((solution.residual or 0.0) + (change or 0.0))
        except ModelError:  # a play too slow to settle: each state it ties at is suspect
            short = np.zeros(model.n_states, dtype=bool)
            short[state[kept & (regret > 0)]] = True
        short[:model.n_terminal] = False
        if not short.any():
            return kept
        least = np.full(model.n_states, np.inf)
        np.minimum.at(least, state, np.where(optimal, regret, np.inf))
        narrowed = optimal & (~short[state] | (regret <= least[state]))
        again, stuck = nearer(model, narrowed)
        if stuck is not None or (again == kept).all():  # nothing better to keep
            return kept
        kept = again
    return kept


MOST_REPAIRS = 4
"""Rounds of :func:`_repeated_ties` at most: each keeps fewer actions."""

