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

if TYPE_CHECKING:
    from mdp.engine.rounds.kinds import RoundsModel

DIGITS = 15
"""Significant digits, of the scale of a game's totals, to which two float totals agree
to be one (as round-state columns agree to be one value)."""


def total_scale(model: RoundsModel) -> float | None:
    """The largest total in size that ``model`` can earn (the sum of each round's largest
    points in size, finite ones), where its rule gives float points; ``None`` where it
    gives whole numbers or fractions (totals that are exact already), or floats that are
    whole numbers all, whose every total is below 2**53 in size: floats add them exactly
    (agreeing to 15 significant digits of a scale of 10**15, -4 and 0 were one total)."""
    if model.inexact is None:
        return None
    scale = 0.0
    for low, high in model.points():
        sizes = [abs(float(p)) for p in (low, high)]
        scale += max((s for s in sizes if math.isfinite(s)), default=0.0)
    return None if not model.fractional and scale < 2.0 ** 53 else scale


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
