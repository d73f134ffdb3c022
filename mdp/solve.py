"""Backward induction: the value of every state and action, layer by layer."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import attrs
import numpy as np

from mdp.errors import ModelError, ParamError
from mdp.explore import DEFAULT_MAX_STATES, explore
from mdp.game import Game
from mdp.model import CompiledModel

if TYPE_CHECKING:
    import polars as pl

Sense = Literal["max", "min"]


def solve(
    target: Game | CompiledModel,
    *,
    exact: bool = False,
    sense: Sense | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
    progress: Callable[[str], None] | None = None,
) -> Solution:
    """Solve a game (exploring it first) or an already compiled model.

    ``exact=True`` computes with rationals; the game must then give its probabilities and
    terminal values as ``int`` or :class:`fractions.Fraction`. ``sense`` overrides the
    game's objective: ``"max"`` or ``"min"``. ``max_states`` bounds the exploration;
    ``progress`` is called now and then with a short text on how far the work has got.
    """
    if isinstance(target, CompiledModel):
        model = target
    else:
        model = explore(target, max_states=max_states, progress=progress)
    sense = sense or model.game.objective.sense
    if sense not in ("max", "min"):
        raise ParamError(f"sense {sense!r}: allowed are 'max' and 'min'")
    if exact and model.inexact:
        raise ModelError(
            f"game {model.game.name}: exact solving needs rational numbers, "
            f"but the game gave a float: {model.inexact}"
        )
    numbers = _Exact(model) if exact else _Float(model)
    best = np.maximum if sense == "max" else np.minimum
    values = numbers.terminal_values()
    for layer in range(1, model.n_layers):
        lo, hi = model.layer_start[layer], model.layer_start[layer + 1]
        if progress:
            progress(f"solving layer {layer} of {model.n_layers - 1}")
        q = numbers.q_values(layer, values)
        values[lo:hi] = best.reduceat(q, model.action_start[lo:hi] - model.action_start[lo])
    return Solution(model, numbers, sense, values)


@attrs.frozen(eq=False)
class Solution:
    """The values of a solved model; ``policy`` gives the best actions as a table."""

    model: CompiledModel
    numbers: Any = attrs.field(repr=False)
    sense: Sense
    raw_values: np.ndarray = attrs.field(repr=False)
    """State values as computed: floats, or integer numerators in exact mode."""

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""
        return isinstance(self.numbers, _Exact)

    @property
    def value(self) -> float | Fraction:
        """The value of the initial state: a ``Fraction`` in exact mode, else a float."""
        return self.value_of_id(self.model.initial)

    def value_of_id(self, state_id: int) -> float | Fraction:
        """The value of the state numbered ``state_id`` in the compiled model."""
        return self.numbers.exact_value(self.raw_values[state_id], self.numbers.layer[state_id])

    def value_of(self, state: Any) -> float | Fraction:
        """The value of a state given as the game writes it."""
        try:
            state_id = self.model.state_id(state)
        except KeyError:
            raise ParamError(f"{state!r} is not a reachable state of {self.model.game.name}") from None
        return self.value_of_id(state_id)

    @property
    def values(self) -> np.ndarray:
        """Every state's value as a float, in the model's state order."""
        return self.numbers.floats(self.raw_values, self.numbers.layer)

    def q_values(self) -> np.ndarray:
        """Every action's value, as computed (floats, or numerators in exact mode)."""
        model = self.model
        parts = [self.numbers.q_values(k, self.raw_values) for k in range(1, model.n_layers)]
        return np.concatenate(parts) if parts else np.empty(0)

    @functools.cached_property
    def policy(self) -> pl.DataFrame:
        """One row per action of every non-terminal state; see :func:`mdp.policy_frame`."""
        from mdp.policy import policy_frame

        return policy_frame(self)


class _Float:
    """float64 arithmetic."""

    def __init__(self, model: CompiledModel) -> None:
        self.model = model
        self.probabilities = np.array([float(p) for p in model.probabilities], dtype=np.float64)
        self.layer = model.layer_of()

    def terminal_values(self) -> np.ndarray:
        values = np.empty(self.model.n_states, dtype=np.float64)
        terminal = self.model.terminal_values
        if not isinstance(terminal, np.ndarray):
            terminal = [float(v) for v in terminal]
        values[: self.model.n_terminal] = terminal
        return values

    def q_values(self, layer: int, values: np.ndarray) -> np.ndarray:
        m = self.model
        a0, a1 = m.action_start[m.layer_start[layer]], m.action_start[m.layer_start[layer + 1]]
        o0, o1 = m.outcome_start[a0], m.outcome_start[a1]
        weighted = self.probabilities[m.outcome_prob[o0:o1]]
        weighted *= values[m.outcome_next[o0:o1]]
        return _per_action(weighted, m, a0, a1, o0, o1)

    def exact_value(self, raw: float, layer: int) -> float:
        return float(raw)

    def floats(self, raw: np.ndarray, layers: np.ndarray) -> np.ndarray:
        return raw

    def scale(self, layer: int) -> int:
        return 1


class _Exact:
    """Exact rationals without a fraction in the inner loop.

    Every probability is ``w / d`` for one common ``d``, every terminal value ``t / D0``.
    A value in layer ``k`` is then an integer numerator over ``D0 * d**k``, so the solve
    multiplies, adds and compares Python integers; a successor in layer ``j`` is brought to
    the scale of layer ``k - 1`` by a factor ``d**(k - 1 - j)``.
    """

    def __init__(self, model: CompiledModel) -> None:
        self.model = model
        probabilities = [Fraction(p) for p in model.probabilities]
        self.d = math.lcm(*(p.denominator for p in probabilities)) if probabilities else 1
        self.weights = _objects([p.numerator * (self.d // p.denominator) for p in probabilities])
        if isinstance(model.terminal_values, np.ndarray):  # integers (floats were refused)
            self.d0, self.terminal = 1, model.terminal_values.astype(object)
        else:
            terminal = [Fraction(v) for v in model.terminal_values]
            self.d0 = math.lcm(*(v.denominator for v in terminal)) if terminal else 1
            self.terminal = [v.numerator * (self.d0 // v.denominator) for v in terminal]
        self.powers = _objects([self.d**k for k in range(model.n_layers)])
        self.layer = model.layer_of()

    def terminal_values(self) -> np.ndarray:
        values = np.empty(self.model.n_states, dtype=object)
        values[: self.model.n_terminal] = self.terminal
        return values

    def q_values(self, layer: int, values: np.ndarray) -> np.ndarray:
        m = self.model
        a0, a1 = m.action_start[m.layer_start[layer]], m.action_start[m.layer_start[layer + 1]]
        o0, o1 = m.outcome_start[a0], m.outcome_start[a1]
        nxt = m.outcome_next[o0:o1]
        rescale = self.powers[layer - 1 - self.layer[nxt]]
        weighted = self.weights[m.outcome_prob[o0:o1]] * values[nxt] * rescale
        return _per_action(weighted, m, a0, a1, o0, o1)

    def scale(self, layer: int) -> int:
        return self.d0 * self.d ** int(layer)

    def exact_value(self, raw: int, layer: int) -> Fraction:
        return Fraction(raw, self.scale(layer))

    def floats(self, raw: np.ndarray, layers: np.ndarray) -> np.ndarray:
        scales = _objects([self.scale(k) for k in range(self.model.n_layers)])
        # int / int is correctly rounded in Python, so no precision is lost before the float.
        return np.asarray(raw / scales[layers], dtype=np.float64)


def _per_action(weighted: np.ndarray, m: CompiledModel, a0, a1, o0, o1) -> np.ndarray:
    """Sum the weighted outcomes of actions ``a0`` to ``a1 - 1`` (outcomes ``o0`` to ``o1 - 1``)."""
    if o1 - o0 == a1 - a0:  # one outcome per action, as after a choice: nothing to add up
        return weighted
    return np.add.reduceat(weighted, m.outcome_start[a0:a1] - o0)


def _objects(items: list) -> np.ndarray:
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array
