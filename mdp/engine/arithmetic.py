"""The number types of a pass over the layers (:mod:`mdp.engine.sweep`): float64
(:class:`Floats`), and exact rationals that never pass through a float, as integer
numerators over a scale per layer (:class:`Exact`) or, where a layer's values come from
linear solves (:mod:`mdp.engine.cycles`), as fractions (:class:`Rationals`).
:meth:`mdp.CompiledModel.backup` calls one of them for the arithmetic of a layer.

Values are one number per state, or a matrix with one row per state and one column per set
of terminal values (:func:`mdp.solve_many`): a factor that belongs to a row (a probability,
a rescaling) is then broadcast over the columns, so one pass over the layers solves them all.

Either type may carry a policy (the chance of each action, :class:`mdp.Policy`): its
:meth:`mixed` is then the value of each state under that policy.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

import numpy as np

from mdp.engine.model import CompiledModel
from mdp.engine.numeric import shown_floats

if TYPE_CHECKING:
    from mdp.engine.sweep import Piece

Number = TypeVar("Number", float, Fraction)
"""A value as a solve gives it: a float, or a fraction in exact mode."""

_Value_co = TypeVar("_Value_co", float, Fraction, covariant=True)


class Arithmetic(Protocol[_Value_co]):
    """What a pass over the layers asks of its number type (:class:`Floats` is an
    ``Arithmetic[float]``, :class:`Exact` an ``Arithmetic[Fraction]``): values are kept
    *raw* (floats, or integer numerators over a scale per layer) and read with
    :meth:`value`."""

    @property
    def exact(self) -> bool: ...

    def start(self) -> np.ndarray: ...

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray: ...

    def backed(self, layer: int, raw: np.ndarray) -> np.ndarray: ...

    def keep(self, raw: np.ndarray, where: Piece, top: np.ndarray) -> None: ...

    def mixed(self, backup: Callable[[], np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray: ...

    def certain(self, values: np.ndarray, successors: np.ndarray, layer: int) -> np.ndarray: ...

    def weighted(self, values: np.ndarray, successors: np.ndarray, probability_ids: np.ndarray,
                 layer: int) -> np.ndarray: ...

    @overload
    def scales(self, layers: int) -> int: ...
    @overload
    def scales(self, layers: np.ndarray) -> int | np.ndarray: ...

    @overload
    def action_scales(self, layers: int) -> int: ...
    @overload
    def action_scales(self, layers: np.ndarray) -> int | np.ndarray: ...

    def value(self, raw: Any, layer: int) -> _Value_co: ...


class Floats:
    """float64 arithmetic."""

    exact = False

    def __init__(self, model: CompiledModel, terminal: Any, policy: np.ndarray | None = None) -> None:
        self.model = model
        self.probabilities = np.array([float(p) for p in model.probabilities], dtype=np.float64)
        # Kept as given (no float copy of millions of values): start() converts as it copies.
        self.terminal = terminal if isinstance(terminal, np.ndarray) else \
            np.asarray(terminal, dtype=np.float64)
        self.policy = None if policy is None else np.asarray(policy, dtype=np.float64)

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

    def keep(self, raw: np.ndarray, where: Piece, top: np.ndarray) -> None:
        """Store the solved values ``top`` of a piece's states."""
        raw[where.states(raw.ndim)] = top

    def mixed(self, backup: Callable[[], np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        """Each state's value under the policy: its actions' values weighted by their
        chance (a decision of :func:`mdp.engine.sweep.backward`)."""
        assert self.policy is not None, "mixed() is the decision of a policy's evaluation"
        q = backup()
        return np.add.reduceat(q * _rows(self.policy[where.a0:where.a1], q), starts, axis=0)

    def certain(self, values: np.ndarray, successors: np.ndarray, layer: int) -> np.ndarray:
        return values[successors]

    def weighted(self, values: np.ndarray, successors: np.ndarray, probability_ids: np.ndarray,
                 layer: int) -> np.ndarray:
        weighted = self.probabilities[probability_ids]
        if values.ndim > 1:
            return weighted[:, None] * values[successors]
        weighted *= values[successors]
        return weighted

    def scales(self, layers: int | np.ndarray) -> int:
        """What raw values in these layers are divided by to be values: 1 in floats."""
        return 1

    action_scales = scales

    def value(self, raw: Any, layer: int) -> float:
        return float(raw)


class Exact:
    """Exact rationals without a fraction in the inner loop.

    Every probability is ``w / d`` for one common ``d``, every terminal value ``t / D0``, and
    a policy's chances in layer ``k`` are ``m / L[k]``, ``L[k]`` the common denominator of
    that layer's (1 for a policy that takes one action, and without a policy). A value in
    layer ``k`` is then an integer numerator over the layer's *scale*: ``D0`` for the
    terminal states, and for the others the scale of the layer below, times ``d`` where the
    layer has a chance action, times ``L[k]``. The scales divide one another from layer to
    layer, so a successor's value is brought to a layer's scale by one integer factor, which
    is mostly 1 and then not multiplied at all. The solve multiplies, adds and compares
    Python integers.

    Where every numerator of a layer is below 2**63 (the lower half of the layers or so),
    the layer is solved in 64-bit integers, as fast as floats: its values are kept in
    :attr:`small` beside the Python integers, and :meth:`backed` hands them out.
    """

    exact = True

    def __init__(self, model: CompiledModel, terminal: Any, policy: np.ndarray | None = None) -> None:
        self.model = model
        probabilities = [Fraction(p) for p in model.probabilities]
        self.d = math.lcm(*(p.denominator for p in probabilities)) if probabilities else 1
        self.weights = objects([p.numerator * (self.d // p.denominator) for p in probabilities])
        if isinstance(terminal, np.ndarray) and terminal.dtype.kind in "iu":
            self.d0, self.terminal = 1, terminal.astype(object)
        else:
            flat = terminal.ravel().tolist() if isinstance(terminal, np.ndarray) else list(terminal)
            fractions = [Fraction(v) for v in flat]
            self.d0 = math.lcm(*(v.denominator for v in fractions)) if fractions else 1
            self.terminal = objects([v.numerator * (self.d0 // v.denominator) for v in fractions])
            if isinstance(terminal, np.ndarray):
                self.terminal = self.terminal.reshape(terminal.shape)
        layers = model.layer_of()
        mix = np.ones(model.n_layers, dtype=object)
        self.policy: np.ndarray | None = None
        if policy is not None:
            chances = [Fraction(p) for p in policy.tolist()]
            action_layers = layers[model.action_state()]
            # Actions come layer by layer: each layer's common denominator in one reduce.
            has = np.flatnonzero(model.layer_action_start[:-1] < model.layer_action_start[1:])
            denominators = objects([p.denominator for p in chances])
            mix[has] = _LCM.reduceat(denominators, model.layer_action_start[has])
            self.policy = objects([p.numerator * (mix[k] // p.denominator)
                                   for p, k in zip(chances, action_layers.tolist())])
        # Each layer's scale, and the scale of its actions' values (before the policy's mix).
        # (Python integers: a common denominator may be past 64 bits, 6**31 say.)
        chance = objects([self.d if has else 1 for has in _chance_layers(model).tolist()])
        scale = list(itertools.accumulate(chance[1:] * mix[1:], operator.mul, initial=self.d0))
        actions = [self.d0, *(np.array(scale[:-1], dtype=object) * chance[1:]).tolist()]
        # Each distinct scale once, ascending: they divide one another, so the factor from
        # one to another is one integer division, made where a layer needs it (:meth:`_scaled`;
        # a table of every pair would hold as many integers as the square of the layers).
        distinct = sorted(set(scale) | set(actions))
        place = {s: i for i, s in enumerate(distinct)}
        self.scale = objects(scale)
        self.action_scale = objects(actions)
        self.distinct = distinct
        self.level = np.array([place[s] for s in scale], dtype=np.int64)[layers]  # each state's
        self.certain_level = [place[s] for s in actions]  # each layer's, for its choices
        self.chance_level = [place.get(s // self.d, -1) for s in actions]
        # The layers whose numerators are all below 2**63: at most the largest terminal
        # numerator times the layer's scale over D0 (a weighted sum is at most that too).
        largest = max(_largest(terminal if isinstance(terminal, np.ndarray) and terminal.dtype != object
                               else self.terminal), 1)
        self.fits = np.array([largest * (s // self.d0) < 2**63 for s in scale], dtype=bool)
        self.fits &= np.logical_and.accumulate(self.fits)
        bounded = np.vectorize(lambda x: x if x < 2**63 else 0, otypes=[np.int64])
        # Used only where a layer fits, and then every weight and policy numerator does.
        self.weights64 = bounded(self.weights) if len(self.weights) else np.zeros(0, dtype=np.int64)
        self.policy64 = None if self.policy is None else bounded(self.policy)
        self.small: np.ndarray | None = None

    def start(self) -> np.ndarray:
        shape = (self.model.n_states, *np.shape(self.terminal)[1:])
        values = np.empty(shape, dtype=object)
        values[: self.model.n_terminal] = self.terminal
        if self.fits.any():
            last = int(np.flatnonzero(self.fits)[-1])
            small = np.empty((int(self.model.layer_start[last + 1]), *shape[1:]), dtype=np.int64)
            small[: self.model.n_terminal] = self.terminal
            self.small = small
        return values

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=object)

    def backed(self, layer: int, raw: np.ndarray) -> np.ndarray:
        """The values that a layer's actions are backed up from: the 64-bit integers where
        the layer's numerators fit in them, else ``raw`` (and the integers are let go: the
        layers above need larger numbers still)."""
        if self.fits[layer] and self.small is not None:
            return self.small
        self.small = None
        return raw

    def big(self, layer: int) -> bool:
        """Whether the layer being solved is in Python integers (not 64-bit ones)."""
        return self.small is None or not self.fits[layer]

    def keep(self, raw: np.ndarray, where: Piece, top: np.ndarray) -> None:
        at = where.states(raw.ndim)
        raw[at] = top
        if top.dtype != object:
            assert self.small is not None, "64-bit values come from a layer kept in them"
            self.small[at] = top

    def mixed(self, backup: Callable[[], np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        q = backup()
        policy = self.policy if q.dtype == object else self.policy64
        assert policy is not None, "mixed() is the decision of a policy's evaluation"
        return np.add.reduceat(q * _rows(policy[where.a0:where.a1], q), starts, axis=0)

    def certain(self, values: np.ndarray, successors: np.ndarray, layer: int) -> np.ndarray:
        return self._scaled(values[successors], self.certain_level[layer], successors)

    def weighted(self, values: np.ndarray, successors: np.ndarray, probability_ids: np.ndarray,
                 layer: int) -> np.ndarray:
        weights = self.weights if values.dtype == object else self.weights64
        factor = self._scaled(weights[probability_ids], self.chance_level[layer], successors)
        return _rows(factor, values) * values[successors]

    def _scaled(self, items: np.ndarray, level: int, successors: np.ndarray) -> np.ndarray:
        """``items`` times the factor from each successor's scale to the scale ``level``
        (one of :attr:`distinct` over another), multiplied only where that is not 1
        (``items`` is a fresh array, changed in place)."""
        theirs = self.level[successors]
        scaled = np.flatnonzero(theirs != level)
        if len(scaled):
            levels, at = np.unique(theirs[scaled], return_inverse=True)
            ratios = [self.distinct[level] // self.distinct[other] for other in levels.tolist()]
            factors = objects(ratios) if items.dtype == object else \
                np.array([r if r < 2**63 else 0 for r in ratios], dtype=np.int64)
            items[scaled] = items[scaled] * _rows(factors[at], items)
        return items

    @overload
    def scales(self, layers: int) -> int: ...
    @overload
    def scales(self, layers: np.ndarray) -> np.ndarray: ...

    def scales(self, layers: int | np.ndarray) -> int | np.ndarray:
        """What raw values in a layer, or in these layers, are divided by to be values."""
        return self.scale[layers]

    @overload
    def action_scales(self, layers: int) -> int: ...
    @overload
    def action_scales(self, layers: np.ndarray) -> np.ndarray: ...

    def action_scales(self, layers: int | np.ndarray) -> int | np.ndarray:
        """What action values in these layers are divided by (before a policy's mix)."""
        return self.action_scale[layers]

    def value(self, raw: int, layer: int) -> Fraction:
        return Fraction(raw, self.scale[layer])


_LCM = np.frompyfunc(math.lcm, 2, 1)
"""The least common multiple as a ufunc of Python integers (for ``reduceat``)."""


class Rationals:
    """Exact arithmetic in :class:`~fractions.Fraction` objects, every value over a scale
    of 1: the values of a cyclic layer come from linear solves, not from one pass, so the
    integer numerators of :class:`Exact` do not apply."""

    exact = True

    def __init__(self, model: CompiledModel, terminal: Any, policy: np.ndarray | None = None) -> None:
        self.model = model
        self.probabilities = objects([Fraction(p) for p in model.probabilities])
        flat = terminal.tolist() if isinstance(terminal, np.ndarray) else list(terminal)
        self.terminal = objects([Fraction(v) for v in flat])
        self.policy = None if policy is None else objects([Fraction(p) for p in policy.tolist()])

    def start(self) -> np.ndarray:
        values = objects([Fraction(0)] * self.model.n_states)
        values[: self.model.n_terminal] = self.terminal
        return values

    def empty(self, shape: int | tuple[int, ...]) -> np.ndarray:
        return np.empty(shape, dtype=object)

    def backed(self, layer: int, raw: np.ndarray) -> np.ndarray:
        return raw

    def keep(self, raw: np.ndarray, where: Piece, top: np.ndarray) -> None:
        raw[where.states(raw.ndim)] = top

    def mixed(self, backup: Callable[[], np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        assert self.policy is not None, "mixed() is the decision of a policy's evaluation"
        return np.add.reduceat(backup() * self.policy[where.a0:where.a1], starts)

    def certain(self, values: np.ndarray, successors: np.ndarray, layer: int) -> np.ndarray:
        return values[successors]

    def weighted(self, values: np.ndarray, successors: np.ndarray, probability_ids: np.ndarray,
                 layer: int) -> np.ndarray:
        return self.probabilities[probability_ids] * values[successors]

    def scales(self, layers: Any) -> int:
        return 1

    def action_scales(self, layers: Any) -> Any:
        return 1 if isinstance(layers, int) else objects([1] * len(layers))

    def value(self, raw: Any, layer: int) -> Fraction:
        return Fraction(raw)


def _chance_layers(model: CompiledModel) -> np.ndarray:
    """Whether each layer has a chance action."""
    chance = np.zeros(model.n_layers, dtype=bool)
    starts = model.layer_action_start[:-1]
    has = starts < model.layer_action_start[1:]
    if model.n_actions:
        lowest = np.minimum.reduceat(model.action_next, np.minimum(starts, model.n_actions - 1))
        chance[has] = lowest[has] < 0
    return chance


def _largest(numerators: Any) -> int:
    """The largest magnitude among integer numerators (an array or a list)."""
    if isinstance(numerators, np.ndarray) and numerators.dtype != object:
        return max(int(numerators.max()), -int(numerators.min())) if numerators.size else 0
    flat = numerators.ravel().tolist() if isinstance(numerators, np.ndarray) else numerators
    return max(map(abs, flat), default=0)


def _rows(factor: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A factor per row, shaped to multiply ``values``' rows (each column alike)."""
    return factor[:, None] if values.ndim > 1 else factor


def objects(items: list[Any]) -> np.ndarray:
    """A numpy array of Python objects (big integers, fractions)."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def floats(raw: np.ndarray, scale: Any) -> np.ndarray:
    """Raw values over their scale as floats (``int / int`` is correctly rounded in Python,
    so no precision is lost before the float)."""
    if raw.dtype != object:
        try:
            return np.asarray(raw if isinstance(scale, int) and scale == 1 else raw / scale,
                              dtype=np.float64)
        except OverflowError:  # a scale past a float (a tiny fraction): as Python numbers
            raw = raw.astype(object)
    exact = np.empty(raw.shape, dtype=object)  # int / int past a float raises: fractions
    exact.ravel()[:] = [Fraction(v) for v in raw.ravel().tolist()]
    return shown_floats(exact / scale)

