"""A regret is never below zero, not even the -0.0 of a float (printed "-0.0", "-0.0000%"):
optimal play loses nothing, in either sense, under any scoring, exact or not."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp


def _positive(value) -> bool:
    return value is None or (value >= 0 and math.copysign(1.0, value) == 1.0)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(tiles=st.sampled_from(["1-3", "1-4", "2-5"]), scoring=st.sampled_from(["win", "score"]),
       sense=st.sampled_from([None, "max", "min"]), exact=st.booleans())
def test_no_regret_is_negative_not_even_zero(tiles, scoring, sense, exact):
    game = mdp.load_game("shutbox", tiles=tiles, scoring=scoring)
    model = mdp.compile(game)
    table = mdp.strategy_values(model, game, exact=exact, sense=sense)
    assert all(_positive(r) for r in table["regret"].to_list()), table
    assert table.filter(strategy="optimal")["regret"].to_list() == [0.0]
    solution = mdp.solve(model, exact=exact, sense=sense)
    assert all(_positive(r) for r in mdp.policy(solution, game)["regret"].to_list())
