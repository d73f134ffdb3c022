"""Totals of float points: one rule for which sums are one total.

Float points are decimals written as floats (tenths: ``0.1``, ``0.4``); the same decimal
total reached by two orders of additions (0.1 + 0.4 against 0.2 + 0.3) may differ in its
last bits. Totals that agree to :data:`DIGITS` significant digits of the scale of the
game's totals (the largest total in size a game can earn, so that a cancellation near 0
comes to 0) are one total, shown as the float nearest its decimal. Every place that forms or
groups totals of float points (the distribution, the simulation and so the report's chart)
goes through :func:`snapped`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from mdp.engine.rounds.kinds import RoundsModel

DIGITS = 15
"""Significant digits, of the scale of a game's totals, to which two float totals agree
to be one (as round-state columns agree to be one value)."""


def total_scale(model: RoundsModel) -> float | None:
    """The largest total in size that ``model`` can earn (the sum of each round's largest
    points in size, finite ones), where its rule gives float points that are not all whole;
    ``None`` where it gives whole numbers, fractions or whole floats: mdp adds those exactly
    (:func:`whole_sums`), and 3.0 beside 1e16 is 3 (agreeing to 15 significant digits of a
    scale of 10**16, it was 0)."""
    if model.inexact is None or not model.fractional:
        return None
    return _most(model)


def whole_sums(model: RoundsModel) -> Any:
    """The type that adds ``model``'s points exactly where they are whole floats (int64, or
    ``object`` for Python's ints where a total may pass 2**62); ``None`` for other points."""
    if model.inexact is None or model.fractional:
        return None
    return np.int64 if _most(model) < 2.0 ** 62 else object


def _most(model: RoundsModel) -> float:
    scale = 0.0
    for low, high in model.points():
        sizes = [abs(float(p)) for p in (low, high)]
        scale += max((s for s in sizes if math.isfinite(s)), default=0.0)
    return scale


def snapped(totals: Iterable[Any], scale: float | None) -> list[Any]:
    """``totals`` (floats, or the exact sums of float points as fractions) as one total
    each: a multiple of the quantum :data:`DIGITS` significant digits of ``scale`` give
    (a power of ten), made the float nearest it; totals that are not finite as they are.
    With no ``scale`` (points not floats) or a scale of 0, the totals as they are."""
    totals = list(totals)
    if not scale or not math.isfinite(scale):
        return totals
    power = math.floor(math.log10(scale)) - DIGITS + 1
    quantum = Fraction(10) ** power
    return [float(round(Fraction(t) / quantum) * quantum)
            if not isinstance(t, float) or math.isfinite(t) else t for t in totals]
