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

from mdp.engine.model import CompiledModel


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

    def backed(self, layer: int, raw: np.ndarray) -> np.ndarray:
        """The values that a layer's actions are backed up from: ``raw`` itself."""
        return raw

    def keep(self, raw: np.ndarray, s0: int, s1: int, top: np.ndarray) -> None:
        """Store the solved values ``top`` of states ``s0`` to ``s1``."""
        raw[s0:s1] = top

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
    A value in layer ``k`` is then an integer numerator over ``D0 * d**e[k]``, where
    ``e[k]`` counts the layers up to ``k`` that have a chance action (a chance step divides
    by ``d`` once; a choice takes a successor's value as it is). The solve multiplies, adds
    and compares Python integers: a successor in layer ``j`` is brought to the scale of
    layer ``k`` by a factor ``d**(e[k] - e[j])`` (``d**(e[k] - 1 - e[j])`` times its
    weight), which is mostly 1 and then not multiplied at all.

    Where every numerator of a layer is below 2**63 (the lower half of the layers or so),
    the layer is solved in 64-bit integers, as fast as floats: its values are kept in
    :attr:`small` beside the Python integers, and :meth:`backed` hands them out.
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
        self.exponents = _exponents(model)
        self.powers = objects([self.d**k for k in range(int(self.exponents[-1]) + 1)])
        self.exponent = self.exponents[model.layer_of()]  # each state's
        # The layers whose numerators are all below 2**63: at most the largest terminal
        # numerator times d to the layer's exponent (a weighted sum is at most that too).
        largest = max(_largest(terminal if isinstance(terminal, np.ndarray) and terminal.dtype != object
                               else self.terminal), 1)
        powers64 = [power for power in self.powers.tolist() if largest * power < 2**63]
        self.powers64 = np.array(powers64, dtype=np.int64)
        self.fits = self.exponents < len(powers64)  # per layer
        # Used only where a chance layer fits, and then every weight, at most d, does.
        self.weights64 = np.array([min(w, 2**63 - 1) for w in self.weights.tolist()], dtype=np.int64)
        self.small = None

    def start(self) -> np.ndarray:
        shape = (self.model.n_states, *np.shape(self.terminal)[1:])
        values = np.empty(shape, dtype=object)
        values[: self.model.n_terminal] = self.terminal
        if self.fits.any():
            last = int(np.flatnonzero(self.fits)[-1])
            self.small = np.empty((int(self.model.layer_start[last + 1]), *shape[1:]), dtype=np.int64)
            self.small[: self.model.n_terminal] = self.terminal
        return values

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=object)

    def backed(self, layer: int, raw: np.ndarray) -> np.ndarray:
        """The values that a layer's actions are backed up from: the 64-bit integers where
        the layer's numerators fit in them, else ``raw`` (and the integers are let go: the
        layers above need larger numbers still)."""
        if self.fits[layer]:
            return self.small
        self.small = None
        return raw

    def keep(self, raw: np.ndarray, s0: int, s1: int, top: np.ndarray) -> None:
        raw[s0:s1] = top
        if top.dtype != object:
            self.small[s0:s1] = top

    def certain(self, values, successors, layer: int) -> np.ndarray:
        return self._scaled(values[successors], self.exponents[layer], successors)

    def weighted(self, values, successors, probability_ids, layer: int) -> np.ndarray:
        weights = self.weights if values.dtype == object else self.weights64
        factor = self._scaled(weights[probability_ids], self.exponents[layer] - 1, successors)
        return _rows(factor, values) * values[successors]

    def _scaled(self, items: np.ndarray, exponent: int, successors: np.ndarray) -> np.ndarray:
        """``items`` times ``d`` to the power ``exponent`` less each successor's exponent,
        multiplied only where that is not 1 (``items`` is a fresh array, changed in place)."""
        shift = exponent - self.exponent[successors]
        scaled = np.flatnonzero(shift)
        if len(scaled):
            powers = self.powers if items.dtype == object else self.powers64
            items[scaled] = items[scaled] * _rows(powers[shift[scaled]], items)
        return items

    def scales(self, layers: np.ndarray) -> np.ndarray:
        scales = objects([self.d0 * power for power in self.powers.tolist()])
        return scales[self.exponents[layers]]

    def value(self, raw: int, layer: int) -> Fraction:
        return Fraction(raw, self.d0 * self.powers[self.exponents[layer]])


def _exponents(model: CompiledModel) -> np.ndarray:
    """The power of ``d`` in the scale of each layer: how many layers up to it have a
    chance action (a layer's successors lie in lower layers, whose exponents are no higher
    than its previous layer's)."""
    chance = np.zeros(model.n_layers, dtype=np.int64)
    for layer in range(1, model.n_layers):
        a0, a1 = model.layer_actions(layer)
        chance[layer] = a1 > a0 and model.action_next[a0:a1].min() < 0
    return np.cumsum(chance)


def _largest(numerators: Any) -> int:
    """The largest magnitude among integer numerators (an array or a list)."""
    if isinstance(numerators, np.ndarray) and numerators.dtype != object:
        return max(int(numerators.max()), -int(numerators.min())) if numerators.size else 0
    flat = numerators.ravel().tolist() if isinstance(numerators, np.ndarray) else numerators
    return max(map(abs, flat), default=0)


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
