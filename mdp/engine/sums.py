"""Each action's sum of probabilities, exactly where they are rational: the check that they
sum to 1 (:mod:`mdp.engine.checks`) reads them."""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational
from typing import Any

import numpy as np

from mdp.engine.groups import pieces
from mdp.engine.numeric import fault
from mdp.engine.operations import OUTCOMES_AT_A_TIME

PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 the float probabilities of one action may sum (rational ones must be 1)."""


def action_sums(table: tuple[Any, ...], probabilities: np.ndarray, counts: np.ndarray,
                bounds: np.ndarray) -> tuple[np.ndarray, int | float]:
    """Each action's sum of probabilities, and what a sum of 1 reads as; ``bounds`` are
    the actions' first outcomes, with the end of the last at the end.

    Rational probabilities are summed exactly, as integers over their common denominator
    (which a sum of 1 then equals); any float makes the sums floats, checked within
    :data:`PROBABILITY_TOLERANCE`. The outcomes are weighed about
    :data:`~mdp.engine.operations.OUTCOMES_AT_A_TIME` at a time (a stage may have hundreds
    of millions).
    """
    if not all(isinstance(p, Rational) for p in table):
        weights, one = np.array([as_float(p) for p in table]), 1.0
    else:
        one = math.lcm(*(Fraction(p).denominator for p in table))
        numerators = [int(Fraction(p) * one) for p in table]
        fits = max(map(abs, numerators), default=0) * int(np.max(counts)) < 2**62  # (a negative too)
        weights = np.array(numerators, dtype=np.int64 if fits else object)
    sums = np.empty(len(counts), dtype=weights.dtype)
    for a0, a1 in pieces(bounds, OUTCOMES_AT_A_TIME):
        o0 = bounds[a0]
        np.add.reduceat(weights[probabilities[o0:bounds[a1]]], bounds[a0:a1] - o0, out=sums[a0:a1])
    return sums, one


def as_float(p: Any) -> float:
    """A probability in floats for a sum (those unused may be no number: 0; past what a
    float holds: infinite, a sum that is not 1)."""
    if fault(p) is not None:
        return 0.0
    try:
        return float(p)
    except OverflowError:
        return math.inf
