"""What counts as a number: the one check for probabilities and values, from a game or a user.

A number is an ``int``, a :class:`fractions.Fraction` (any :class:`numbers.Rational`) or a
finite ``float``; ``bool`` is not one, nor NaN or an infinity. Rationals keep exact solving
exact; a float allows float solving only.
"""

from __future__ import annotations

import math
from numbers import Rational
from typing import Any

import numpy as np


def fault(value: Any) -> str | None:
    """Why ``value`` is not a number (``"is not a number"``, ``"is not finite"``), or None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Rational, float, np.floating)):
        return "is not a number"
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):
        return "is not finite"
    return None


def first_fault(values: Any) -> tuple[int, Any, str] | None:
    """The position, value and fault of the first item of ``values`` that is not a number."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        if values.dtype.kind == "f" and len(values):
            bad = np.flatnonzero(~np.isfinite(values))
            if len(bad):
                return int(bad[0]), values[bad[0]].item(), "is not finite"
        return None
    for i, value in enumerate(values):
        problem = fault(value)
        if problem:
            return i, value, problem
    return None


def first_float(values: Any) -> tuple[int, float] | None:
    """The position and value of the first float among ``values`` (which are numbers), or
    None when all are rational."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return (0, values[0].item()) if values.dtype.kind == "f" and len(values) else None
    return next(((i, v) for i, v in enumerate(values) if not isinstance(v, Rational)), None)
