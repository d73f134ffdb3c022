"""The chances of the ends of a game whose states come back, in floats, add up to 1: every
play followed ends (checked before), and the sweeps' shortfall, within the residual, is
shared out (round 28: Pig's two ends added up to 1 - 1.2e-13, and the cumulative column of
`mdp distribution pig` ended at "> 99.9999%", which reads as a chance of no end). Each chance
stays within the residual of the exact one."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.shown import percent


@pytest.mark.slow  # an exact solve of Pig per draw
@settings(max_examples=12, deadline=None)
@given(goal=st.integers(3, 14), strategy=st.sampled_from([None, "hold-at-20", "hold-at-25"]))
def test_the_ends_of_pig_add_up_to_one_each_within_the_residual(goal, strategy):
    game = mdp.load_game("pig", goal=goal)
    model = mdp.compile(game)
    solve = (lambda exact: mdp.solve(model, exact=exact)) if strategy is None else \
        (lambda exact: mdp.evaluate(model, strategy, game=game, exact=exact))
    floats = mdp.distribution(solve(False), game=game)
    exact = mdp.distribution(solve(True), game=game)
    chances = floats["probability"].to_list()
    assert percent(sum(chances)) == "100.0000%" and abs(sum(chances) - 1) <= 4e-16
    for chance, fraction in zip(chances, exact["exact"].to_list(), strict=True):
        assert abs(chance - Fraction(fraction)) <= 1e-12
