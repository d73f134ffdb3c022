"""The residual's range is the one documented and said, both ends taken (1 was refused by
the message that named it), and a residual finer than float64 settles a game to is said as
such: it was "some play may never end" of Pig, whose play ends, with numpy's repr of the state."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp
from mdp.checks import check_residual
from mdp.limits import LEAST_RESIDUAL


@given(st.one_of(st.floats(allow_nan=True), st.sampled_from([LEAST_RESIDUAL, 1, 1.0, 0, 2])))
def test_a_residual_is_taken_from_the_least_to_1_both_ends_included(residual):
    inside = LEAST_RESIDUAL <= residual <= 1  # docs/cli.rst: "from 1e-15 ... to 1"
    try:
        check_residual(residual)
    except mdp.ParamError as error:
        assert not inside
        assert f"a number from {LEAST_RESIDUAL:g}" in str(error) and "to 1," in str(error)
    else:
        assert inside


@pytest.mark.slow
def test_a_residual_past_float64s_reach_is_not_blamed_on_the_game():
    model = mdp.compile(mdp.load_game("pig", goal=10))
    with pytest.raises(mdp.ModelError) as raised:
        mdp.solve(model, residual=LEAST_RESIDUAL)
    said = str(raised.value)
    assert "never end" not in said and "np." not in said
    assert "float64's rounding" in said and "ask for a larger residual" in said
    # and Pig's play does end: a residual float64 reaches solves it
    assert 0 < mdp.solve(model, residual=1e-12).value < 1
