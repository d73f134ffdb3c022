"""Backward induction: the value of every state and action of a compiled model, layer by
layer, with the game's terminal values or any others."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

import attrs
import numpy as np

from mdp.engine.arithmetic import Exact, Floats
from mdp.engine.compile import DEFAULT_MAX_STATES, compile
from mdp.errors import ModelError, ParamError
from mdp.game.load import Game
from mdp.engine.memory import release
from mdp.engine.model import CompiledModel, pieces
from mdp.engine.numeric import first_fault, first_float
from mdp.engine.parallel import side_by_side

Sense = Literal["max", "min"]

FLOAT_TIE = 1e-12
"""In float mode, actions within this relative distance of the best are all optimal."""

_UNSET: Any = object()


def solve(
    target: Game | CompiledModel,
    *,
    terminal: Any = None,
    exact: bool = False,
    sense: Sense | None = None,
    max_states: int | None = _UNSET,
    progress: Callable[[str], None] | None = None,
) -> Solution:
    """Solve a compiled model, or a game (compiled first: ``mdp.solve(game)`` is
    ``mdp.solve(mdp.compile(game))``).

    ``terminal`` replaces the game's terminal values: one number per row of
    :attr:`model.terminals <mdp.CompiledModel.terminals>`, as a list, a numpy array or a
    Polars Series (booleans count as 0 and 1). ``exact=True`` computes with rationals: the
    probabilities and terminal values must then be ``int`` or :class:`fractions.Fraction`.
    ``sense`` overrides the game's objective: ``"max"`` or ``"min"``. ``max_states`` bounds
    the compile of a game; ``progress`` is called now and then with a short text on how far
    the work has got.
    """
    if isinstance(target, CompiledModel):
        if max_states is not _UNSET:
            raise ParamError("max_states applies when compiling a game, not to a compiled model")
        model = target
    elif isinstance(target, Game):
        limit = DEFAULT_MAX_STATES if max_states is _UNSET else max_states
        model = compile(target, max_states=limit, progress=progress)
    else:
        raise ParamError(f"solve takes a game or a compiled model, not {type(target).__name__}")
    start = time.perf_counter()
    sense = _sense(model, sense)
    values = _terminal_values(model, terminal, exact)
    numbers = (Exact if exact else Floats)(model, values)
    guide = _Guide.of(model, values) if exact else None
    raw = _backward(model, numbers, sense, progress, guide)
    return Solution(model, sense, raw, numbers, time.perf_counter() - start)


def solve_many(
    model: CompiledModel,
    terminals: Any,
    *,
    exact: bool = False,
    sense: Sense | None = None,
    progress: Callable[[str], None] | None = None,
) -> Solutions:
    """Solve one compiled model for many sets of terminal values at once, in one pass over
    its layers: far quicker than one :func:`solve` per set.

    ``terminals`` is a matrix with one row per row of :attr:`model.terminals
    <mdp.CompiledModel.terminals>` and one column per set of values: a 2-D numpy array (of
    numbers, or of ``int`` and :class:`fractions.Fraction` objects), a Polars DataFrame
    (each column one set), or a list of columns (each as :func:`solve` takes
    ``terminal=``). ``exact`` and ``sense`` are as for :func:`solve`; each column is solved
    on its own, as if by ``solve(model, terminal=column)``.

    >>> both = mdp.solve_many(model, np.stack([win, score], axis=1))   # doctest: +SKIP
    >>> both.value            # the initial state's value in each column
    """
    if not isinstance(model, CompiledModel):
        raise ParamError(f"solve_many takes a compiled model, not {type(model).__name__}")
    start = time.perf_counter()
    sense = _sense(model, sense)
    values = _terminal_matrix(model, terminals, exact)
    numbers = (Exact if exact else Floats)(model, values)
    raw = _backward(model, numbers, sense, progress)
    return Solutions(model, sense, raw, numbers, time.perf_counter() - start)


def _sense(model: CompiledModel, sense: Sense | None) -> Sense:
    """The sense asked for, else the game's own; checked."""
    sense = sense or model.info.objective.sense
    if sense not in ("max", "min"):
        raise ParamError(f"sense {sense!r}: allowed are 'max' and 'min'")
    return sense


def _backward(model: CompiledModel, numbers: Any, sense: Sense,
              progress: Callable[[str], None] | None, guide: _Guide | None = None) -> np.ndarray:
    """Backward induction, layer by layer: every state's raw value (a row per state)."""
    best = np.maximum if sense == "max" else np.minimum
    raw = numbers.start()
    for layer in range(1, model.n_layers):
        lo, hi = model.layer_start[layer], model.layer_start[layer + 1]
        if progress:
            progress(f"solving layer {layer} of {model.n_layers - 1}")
        layer_starts = model.action_offsets(lo, hi)
        values = numbers.backed(layer, raw)

        def piece(bounds: tuple[int, int]) -> None:  # the layer's states p0 to p1 - 1
            p0, p1 = bounds
            s0, s1 = lo + p0, lo + p1
            a0, a1 = int(layer_starts[p0]), int(layer_starts[p1])
            starts = layer_starts[p0:p1] - a0
            if guide is None or values is not raw:  # every action (exact: in 64-bit integers)
                top = best.reduceat(model.backup(layer, values, numbers, actions=(a0, a1)), starts)
                if guide is not None:
                    guide.follow(s0, s1, top, numbers.scales(layer))
            else:  # exact, in Python integers: only the actions that may be best
                actions, counts = guide.contenders(layer, (a0, a1), s0, s1, starts, best)
                q = model.backup_actions(layer, actions, values, numbers)
                top = best.reduceat(q, np.cumsum(counts) - counts)
            numbers.keep(raw, s0, s1, top)

        # Each piece writes its own states' values.
        side_by_side(piece, pieces(layer_starts, PIECE), locked=values.dtype == object)
        release(int(layer_starts[-1] - layer_starts[0]) * 16)  # the layer's temporaries
    return raw


class _Guide:
    """A float solve alongside an exact one, so that the exact arithmetic (big integers,
    slow) is done only for the actions that may be best: those whose float value is within
    :attr:`margin` of the best float value of their state. A float value is off from the
    exact one by far less: its error is a few units of 2**-53 of the largest terminal value
    per layer, and every value is an average of terminal values. Where actions are that
    close, all of them are computed exactly and compared exactly."""

    @classmethod
    def of(cls, model: CompiledModel, terminal: Any) -> _Guide | None:
        """A guide, or ``None`` where a terminal value is too large for a float."""
        try:
            floats = (terminal.astype(np.float64) if isinstance(terminal, np.ndarray)
                      and terminal.dtype.kind in "biuf" else
                      np.array([float(v) for v in terminal], dtype=np.float64))
        except OverflowError:
            return None
        return cls(model, floats) if np.isfinite(floats).all() else None

    def __init__(self, model: CompiledModel, floats: np.ndarray) -> None:
        self.model, self.numbers = model, Floats(model, floats)
        self.values = self.numbers.start()
        largest = float(np.max(np.abs(floats))) if len(floats) else 0.0
        self.margin = 1e-9 * largest

    def follow(self, s0: int, s1: int, raw: np.ndarray, scale: int) -> None:
        """Take the float values of states ``s0`` to ``s1`` from their exact numerators
        (64-bit integers) over ``scale``, rather than solving them again in floats."""
        self.values[s0:s1] = raw / float(scale)

    def contenders(self, layer: int, actions: tuple[int, int], s0: int, s1: int,
                   starts: np.ndarray, best: Any):
        """The ids of the ``actions`` (first, one past the last) of states ``s0`` to ``s1``
        that may be best, ascending, and how many each state has (at least one)."""
        q = self.model.backup(layer, self.values, self.numbers, actions=actions)
        top = best.reduceat(q, starts)
        self.values[s0:s1] = top
        counts = np.diff(np.append(starts, len(q)))
        near = np.abs(q - np.repeat(top, counts)) <= self.margin
        return (np.flatnonzero(near) + actions[0],
                np.add.reduceat(near, starts, dtype=np.int64))


PIECE = 1 << 18
"""Actions backed up at a time: the action values of a whole layer of a large model would
cost as much memory as the state values. A quarter of a million: on two threads, pieces
of a million took 0.63 to 0.68 s on the benchmark's ``twenty`` case (23 million states),
these 0.60 s."""


def _terminal_matrix(model: CompiledModel, terminals: Any, exact: bool) -> np.ndarray:
    """The columns of terminal values of :func:`solve_many`, each checked as :func:`solve`
    checks one, as one matrix (numbers, or Python objects for fractions)."""
    if hasattr(terminals, "to_numpy") and not isinstance(terminals, np.ndarray):  # Polars
        terminals = terminals.to_numpy()
    if isinstance(terminals, np.ndarray) and terminals.dtype.kind in "biuf":
        if terminals.ndim != 2 or terminals.shape[0] != model.n_terminal:
            raise ParamError(f"terminals= must have one row per terminal state "
                             f"({model.n_terminal:,}) and one column per set of values, "
                             f"not shape {terminals.shape}")
        columns = [terminals[:, j] for j in range(terminals.shape[1])]
        for column in columns:
            _terminal_values(model, column, exact)
        return terminals.astype(np.int64) if terminals.dtype.kind == "b" else terminals
    columns = list(terminals.T if isinstance(terminals, np.ndarray) and terminals.ndim == 2
                   else terminals)
    checked = [_terminal_values(model, column, exact) for column in columns]
    matrix = np.empty((model.n_terminal, len(checked)), dtype=object)
    for j, column in enumerate(checked):
        matrix[:, j] = list(column) if not isinstance(column, np.ndarray) else column.tolist()
    if not exact:
        return matrix.astype(np.float64)
    return matrix


def _terminal_values(model: CompiledModel, terminal: Any, exact: bool) -> Any:
    """The terminal values to solve with, checked where they enter: the one place."""
    if exact and model.inexact:
        raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, "
                         f"but the game gave a float: {model.inexact}")
    if terminal is None:
        if exact and model.inexact_values:
            raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, "
                             f"but the game gave a float: {model.inexact_values}")
        return model.terminal_values
    if hasattr(terminal, "to_numpy") and not isinstance(terminal, np.ndarray):  # Polars, pandas
        terminal = terminal.to_numpy()
    if isinstance(terminal, np.ndarray):
        if terminal.ndim != 1:
            raise ParamError(f"terminal= must be one-dimensional, not of shape {terminal.shape}")
        if terminal.dtype.kind == "b":
            terminal = terminal.astype(np.int64)
        elif terminal.dtype.kind not in "iuf":
            terminal = terminal.tolist()
    else:
        terminal = list(terminal)
    if len(terminal) != model.n_terminal:
        raise ParamError(f"terminal= has {len(terminal):,} values; the model has "
                         f"{model.n_terminal:,} terminal states (the rows of model.terminals)")
    bad = first_fault(terminal)
    if bad:
        row, value, problem = bad
        raise ParamError(f"terminal= value {value!r} at row {row} {problem}; "
                         "terminal values are finite numbers")
    floated = first_float(terminal) if exact else None
    if floated:
        row, value = floated
        raise ParamError(f"terminal= value {value!r} at row {row} is a float; exact solving "
                         "needs int or fractions.Fraction values")
    return terminal


@attrs.frozen(eq=False)
class Solution:
    """The values of a solved model. Tables of it are outputs: :func:`mdp.policy`."""

    model: CompiledModel
    sense: Sense
    _raw: np.ndarray = attrs.field(repr=False)
    """State values as computed: floats, or integer numerators in exact mode."""
    _numbers: Any = attrs.field(repr=False)
    seconds: float = attrs.field(default=0.0, repr=False)
    """How long the solve took (without compiling)."""
    strategy: str | None = None
    """The strategy evaluated (:func:`mdp.evaluate`), or ``None`` for optimal play."""
    probabilities: np.ndarray | None = attrs.field(default=None, repr=False)
    """With a strategy: the chance that it takes each action, in action order."""

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""
        return self._numbers.exact

    @property
    def value(self) -> float | Fraction:
        """The value of the initial state: a ``Fraction`` in exact mode, else a float."""
        return self.value_of_id(self.model.initial)

    def value_of_id(self, state_id: int) -> float | Fraction:
        """The value of the state numbered ``state_id`` in the compiled model."""
        return self._numbers.value(self._raw[state_id], self.model.layer_of_id(state_id))

    def value_of(self, state: Any) -> float | Fraction:
        """The value of a state given as the game writes it."""
        try:
            state_id = self.model.state_id(state)
        except KeyError:
            raise ParamError(f"{state!r} is not a reachable state of {self.model.info.game}") from None
        return self.value_of_id(state_id)

    @property
    def values(self) -> np.ndarray:
        """Every state's value as a float, in the model's state order."""
        return _floats(self._raw, self._numbers.scales(self._layers))

    def action_values(self) -> ActionValues:
        """Every action's value (its successors' expected value), how far it falls short of
        the best action of its state, and whether it is optimal; in action order. With a
        strategy (:func:`mdp.evaluate`): the value of taking the action and following the
        strategy after it, measured against the best of them."""
        model, numbers = self.model, self._numbers
        q = numbers.empty(model.n_actions)
        for k in range(1, model.n_layers):
            a0, a1 = model.layer_actions(k)
            q[a0:a1] = model.backup(k, self._raw, numbers)
        state = model.action_state()
        best = self._raw[state]
        if self.strategy is not None and len(q):  # best of the actions, not the strategy's mix
            starts = model.action_start[model.n_terminal:-1]
            pick = np.maximum if self.sense == "max" else np.minimum
            best = pick.reduceat(q, starts)[state - model.n_terminal]
        if self.exact:
            gap = best - q if self.sense == "max" else q - best
            scale = numbers.scales(self._layers[state])
            return ActionValues(state, _floats(q, scale), gap == 0, _floats(gap, scale),
                                [Fraction(n, d) for n, d in zip(q, scale)])
        # In place where it can be: a policy has millions of actions, each array is large.
        tie = np.abs(best)
        np.maximum(tie, 1.0, out=tie)
        tie *= FLOAT_TIE
        gap = np.subtract(best, q, out=best) if self.sense == "max" else np.subtract(q, best, out=best)
        optimal = gap <= tie
        del tie
        return ActionValues(state, q, optimal, np.maximum(gap, 0.0, out=gap), None)

    @property
    def _layers(self) -> np.ndarray:
        return self.model.layer_of()

    def summary(self) -> dict[str, Any]:
        """The solve in one JSON-ready dict, as ``mdp solve --json`` prints it: the game,
        variant, parameters, rules, objective, sense, value (and ``exact``, ``"p/q"``, in exact
        mode), the number of states and the seconds spent compiling and solving."""
        info, value = self.model.info, self.value
        summary: dict[str, Any] = {
            "game": info.game,
            "variant": info.variant,
            "params": dict(info.params),
            "rules": info.rules,
            "objective": info.objective.name,
            "sense": self.sense,
            "value": float(value),
        }
        if self.exact:
            summary["exact"] = f"{value.numerator}/{value.denominator}"
        if self.strategy is not None:
            summary["strategy"] = self.strategy
        summary["states"] = self.model.n_states
        summary["seconds"] = round(self.model.seconds + self.seconds, 6)
        return summary


@attrs.frozen(eq=False)
class Solutions:
    """The values of one model solved for many sets of terminal values
    (:func:`solve_many`): a column of values per set."""

    model: CompiledModel
    sense: Sense
    _raw: np.ndarray = attrs.field(repr=False)
    """State values as computed, one row per state, one column per set."""
    _numbers: Any = attrs.field(repr=False)
    seconds: float = attrs.field(default=0.0, repr=False)

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""
        return self._numbers.exact

    @property
    def n_columns(self) -> int:
        """How many sets of terminal values were solved."""
        return self._raw.shape[1]

    @property
    def value(self) -> list[Fraction] | np.ndarray:
        """The initial state's value in each column: fractions in exact mode, else floats."""
        return self.value_of_id(self.model.initial)

    def value_of_id(self, state_id: int) -> list[Fraction] | np.ndarray:
        """The value in each column of the state numbered ``state_id``."""
        layer = self.model.layer_of_id(state_id)
        if self.exact:
            return [self._numbers.value(raw, layer) for raw in self._raw[state_id].tolist()]
        return self._raw[state_id].copy()

    @property
    def values(self) -> np.ndarray:
        """Every state's value in every column as floats: one row per state."""
        scales = self._numbers.scales(self.model.layer_of())
        return _floats(self._raw, scales if isinstance(scales, int) else scales[:, None])

    def optimal(self, layer: int) -> np.ndarray:
        """Whether each action of layer ``layer`` is optimal in each column: a boolean
        matrix, one row per action of the layer (exact ties in exact mode; within
        :data:`FLOAT_TIE` in floats)."""
        model = self.model
        q = model.backup(layer, self._raw, self._numbers)
        a0, a1 = model.layer_actions(layer)
        best = self._raw[model.action_state()[a0:a1]]
        gap = best - q if self.sense == "max" else q - best
        if self.exact:
            return gap == 0
        return gap <= FLOAT_TIE * np.maximum(1.0, np.abs(best))

    def column(self, j: int) -> Solution:
        """Column ``j`` as a :class:`Solution`: its policy, action values and summary."""
        return Solution(self.model, self.sense, self._raw[:, j], self._numbers, self.seconds)


@attrs.frozen(eq=False)
class ActionValues:
    """Per action of a solved model, in action order (see :meth:`Solution.action_values`)."""

    state: np.ndarray
    """The id of the state each action belongs to."""
    value: np.ndarray
    """Its value, as a float."""
    optimal: np.ndarray
    """Whether it is tied for best (exactly in exact mode; within :data:`FLOAT_TIE` in floats)."""
    regret: np.ndarray
    """The value lost against the best action of its state, as a float (never negative)."""
    exact: list[Fraction] | None
    """Its value as a fraction, in exact mode."""


def _floats(raw: np.ndarray, scale: Any) -> np.ndarray:
    if isinstance(scale, int) and scale == 1:
        return np.asarray(raw, dtype=np.float64)
    # int / int is correctly rounded in Python, so no precision is lost before the float.
    return np.asarray(raw / scale, dtype=np.float64)
