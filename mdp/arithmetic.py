"""The two number types of a solve: float64, and exact rationals that never pass through a
float. :meth:`mdp.CompiledModel.backup` calls one of them for the arithmetic of a layer.

Values are one number per state, or a matrix with one row per state and one column per set
of terminal values (:func:`mdp.solve_many`): a factor that belongs to a row (a probability,
a rescaling) is then broadcast over the columns, so one pass over the layers solves them all.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from mdp.model import CompiledModel


class Floats:
    """float64 arithmetic."""

    exact = False

    def __init__(self, model: CompiledModel, terminal: Any) -> None:
        self.model = model
        self.probabilities = np.array([float(p) for p in model.probabilities], dtype=np.float64)
        # Kept as given (no float copy of millions of values): start() converts as it copies.
        self.terminal = terminal if isinstance(terminal, np.ndarray) else np.asarray(terminal, dtype=np.float64)

    def start(self) -> np.ndarray:
        """State values with the terminal ones filled in, the rest to be solved."""
        values = np.empty((self.model.n_states, *self.terminal.shape[1:]), dtype=np.float64)
        values[: self.model.n_terminal] = self.terminal
        return values

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=np.float64)

    def certain(self, values: np.ndarray, successors: np.ndarray, layer: int) -> np.ndarray:
        return values[successors]

    def weighted(self, values, successors, probability_ids, layer: int) -> np.ndarray:
        weighted = self.probabilities[probability_ids]
        if values.ndim > 1:
            return weighted[:, None] * values[successors]
        weighted *= values[successors]
        return weighted

    def scales(self, layers: np.ndarray) -> Any:
        """What raw values in these layers are divided by to be values: 1 in floats."""
        return 1

    def value(self, raw: Any, layer: int) -> float:
        return float(raw)


class Exact:
    """Exact rationals without a fraction in the inner loop.

    Every probability is ``w / d`` for one common ``d``, every terminal value ``t / D0``.
    A value in layer ``k`` is then an integer numerator over ``D0 * d**k``, so the solve
    multiplies, adds and compares Python integers; a successor in layer ``j`` is brought to
    the scale of layer ``k`` by a factor ``d**(k - j)`` (``d**(k - 1 - j)`` times its weight).
    """

    exact = True

    def __init__(self, model: CompiledModel, terminal: Any) -> None:
        self.model = model
        probabilities = [Fraction(p) for p in model.probabilities]
        self.d = math.lcm(*(p.denominator for p in probabilities)) if probabilities else 1
        self.weights = objects([p.numerator * (self.d // p.denominator) for p in probabilities])
        if isinstance(terminal, np.ndarray) and terminal.dtype.kind in "iu":
            self.d0, self.terminal = 1, terminal.astype(object)
        elif isinstance(terminal, np.ndarray) and terminal.ndim > 1:  # a matrix of columns
            fractions = [Fraction(v) for v in terminal.ravel().tolist()]
            self.d0 = math.lcm(*(v.denominator for v in fractions)) if fractions else 1
            self.terminal = objects([v.numerator * (self.d0 // v.denominator)
                                     for v in fractions]).reshape(terminal.shape)
        else:
            fractions = [Fraction(v) for v in terminal]
            self.d0 = math.lcm(*(v.denominator for v in fractions)) if fractions else 1
            self.terminal = [v.numerator * (self.d0 // v.denominator) for v in fractions]
        self.powers = objects([self.d**k for k in range(model.n_layers + 1)])
        self.layer = model.layer_of()

    def start(self) -> np.ndarray:
        values = np.empty((self.model.n_states, *np.shape(self.terminal)[1:]), dtype=object)
        values[: self.model.n_terminal] = self.terminal
        return values

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=object)

    def certain(self, values, successors, layer: int) -> np.ndarray:
        return values[successors] * _rows(self.powers[layer - self.layer[successors]], values)

    def weighted(self, values, successors, probability_ids, layer: int) -> np.ndarray:
        factor = self.weights[probability_ids] * self.powers[layer - 1 - self.layer[successors]]
        return _rows(factor, values) * values[successors]

    def scales(self, layers: np.ndarray) -> np.ndarray:
        scales = objects([self.d0 * self.d**k for k in range(self.model.n_layers)])
        return scales[layers]

    def value(self, raw: int, layer: int) -> Fraction:
        return Fraction(raw, self.d0 * self.d ** int(layer))


def _rows(factor: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A factor per row, shaped to multiply ``values``' rows (each column alike)."""
    return factor[:, None] if values.ndim > 1 else factor


def objects(items: list) -> np.ndarray:
    """A numpy array of Python objects (big integers, fractions)."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


class Rationals:
    """Exact rationals as :class:`fractions.Fraction` objects, for the weighted averages of a
    strategy (:func:`mdp.evaluate`), whose probabilities share no common denominator with the
    model's. Slower than :class:`Exact`, which optimal play keeps to."""

    exact = True

    def __init__(self, model: CompiledModel, terminal: Any) -> None:
        self.model = model
        self.probabilities = objects([Fraction(p) for p in model.probabilities])
        self.terminal = objects([Fraction(v.item() if isinstance(v, np.generic) else v)
                                 for v in terminal])

    def start(self) -> np.ndarray:
        values = np.empty(self.model.n_states, dtype=object)
        values[: self.model.n_terminal] = self.terminal
        return values

    def empty(self, n: int) -> np.ndarray:
        return np.empty(n, dtype=object)

    def certain(self, values, successors, layer: int) -> np.ndarray:
        return values[successors]

    def weighted(self, values, successors, probability_ids, layer: int) -> np.ndarray:
        return self.probabilities[probability_ids] * values[successors]

    def scales(self, layers: np.ndarray) -> np.ndarray:
        return objects([1] * len(layers))

    def value(self, raw: Fraction, layer: int) -> Fraction:
        return Fraction(raw)
