"""Face weights given from Python as floats are read as the decimals they show, as the same
weights given as text are (round 28: ``weights=[0.1, 0.1, 0.2, 0.2, 0.2, 0.2]`` was refused,
its binary fractions summing to 18014398509481985/18014398509481984); weights that do not
sum to 1 say how a float is read."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp


@st.composite
def decimals(draw):
    """Six weights of at most three decimals summing to 1, as integers of thousandths."""
    cuts = sorted(draw(st.lists(st.integers(0, 1000), min_size=5, max_size=5)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, 1000])]


@given(thousandths=decimals())
@pytest.mark.slow  # half a second or more of CPU
def test_float_weights_are_the_decimals_written_as_text(thousandths):
    floats = [t / 1000 for t in thousandths]
    text = ",".join(str(Fraction(t, 1000)) for t in thousandths)
    assert mdp.load_game("yahtzee", weights=floats).params["weights"] == \
        mdp.load_game("yahtzee", weights=text).params["weights"]


def test_float_weights_that_do_not_sum_to_one_say_how_a_float_is_read():
    with pytest.raises(mdp.ParamError, match=r"not 1 \(each float read as the decimal it shows: "
                                             r"a sixth is '1/6' or Fraction\(1, 6\)\)$"):
        mdp.load_game("shutbox", weights=(1 / 6,) * 6)
