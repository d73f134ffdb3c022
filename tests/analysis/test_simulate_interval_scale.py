"""The confidence interval of a simulation's mean is the same at any scale (round 24: games
ending at +-1.7e308 had a finite interval, about -4.1e307 to 1.1e308, said "-inf to inf",
as 1.96 times the standard deviation passed a float before it was divided by the square
root of the games). Scaled by a power of two, which floats scale exactly, the interval is
the interval scaled, wherever its bounds are floats."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdp.analysis.simulate import _interval


@settings(max_examples=200, deadline=None)
@given(mean=st.floats(-1, -1e-300) | st.just(0.0) | st.floats(1e-300, 1), sd=st.just(0.0) | st.floats(1e-300, 2),
       games=st.integers(2, 10**6), power=st.integers(0, 1023))  # (normal floats: subnormals lose digits)
@example(mean=0.2, sd=1.5, games=20, power=1023).via("round 24: +-1.7e308 over 20 games")
@pytest.mark.slow
def test_the_interval_scales_with_the_games(mean, sd, games, power):
    low, high = _interval(np.array([mean]), np.array([games]), mean, sd,
                          games, chance=False)
    scale = math.ldexp(1.0, power)
    if not (math.isfinite(low * scale) and math.isfinite(high * scale) and math.isfinite(sd * scale)):
        return  # a bound, or the deviation given, past what a float holds
    assert _interval(np.array([mean * scale]), np.array([games]),
                     mean * scale, sd * scale, games, chance=False) == (low * scale, high * scale)
