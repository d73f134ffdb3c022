"""The spread of a distribution of totals in floats is worked over the largest distance's
power of two, so that totals a float holds (near 1e307) never overflow in their squares
(round 18, P18: "overflow encountered in square", refused after two lines on stdout). By an
independent exact computation in fractions here."""

import math
from fractions import Fraction

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.engine.rounds.spread import spread


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=6, unique=True),
       st.lists(st.integers(1, 9), min_size=6, max_size=6), st.integers(0, 306))
def test_the_float_spread_is_the_exact_one_at_every_scale(units, weights, power):
    units = sorted(units)
    weights = weights[:len(units)]
    chances = [Fraction(w, sum(weights)) for w in weights]
    totals = [Fraction(u) * 10**power // 40 for u in units]  # up to 10**power, within a float
    frame = pl.DataFrame({"points": [float(t) for t in totals],
                          "probability": [float(c) for c in chances]})
    found = spread(frame)
    mean = sum(c * t for c, t in zip(chances, totals))
    variance = sum(c * (t - mean) ** 2 for c, t in zip(chances, totals))
    sd = math.sqrt(float(variance / 10**(2 * power))) * float(10**power)  # its square past floats
    assert math.isclose(found["mean"], float(mean), rel_tol=1e-9)
    assert math.isfinite(found["sd"]) and math.isclose(found["sd"], sd, rel_tol=1e-6, abs_tol=1e-300)
