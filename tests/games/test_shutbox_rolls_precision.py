"""A rule plugin's ``shutbox_rolls`` that gives its probabilities in a float narrower than
64 bits (``np.float32``, ``np.float16``) is refused where its answer enters, blaming the
plugin and ``shutbox_rolls``: rounded to 7 digits or fewer, they passed the check of their
sum in their own precision, and the sum was then blamed on the game's ``mdp_expand``. A
float of 64 bits or more (``float``, ``np.float64``, ``np.longdouble``) is taken, and the game
solved as with the exact fractions, to a float's precision."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ROLLS = '''
import mdp
import numpy as np

@mdp.hookimpl(wrapper=True)
def shutbox_rolls(dice):
    rolls = yield
    return [(np.{dtype}(float(p)) * {scale}, t, k) for p, t, k in rolls]
'''

NARROW = ("float16", "float32")
WIDE = ("float64", "longdouble")


def plugin(tmp_path, dtype, scale=1):
    path = tmp_path / f"rolls_{dtype}.py"
    path.write_text(ROLLS.format(dtype=dtype, scale=scale))
    return path


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(dtype=st.sampled_from(NARROW + WIDE), tiles=st.integers(2, 5), dice=st.integers(1, 2))
def test_probabilities_narrower_than_64_bits_are_the_plugins_fault(tmp_path_factory, dtype, tiles, dice):
    path = plugin(tmp_path_factory.mktemp("rolls"), dtype)
    settings_ = dict(tiles=f"1-{tiles}", dice=dice)
    if dtype in NARROW:
        with pytest.raises(mdp.ModelError) as error:
            mdp.compile(mdp.load_game("shutbox", plugins=[str(path)], **settings_))
        text = str(error.value)
        assert f"plugin {path}'s shutbox_rolls gave the probability np.{dtype}(" in text, text
        assert "mdp_expand" not in text and "\n" not in text
    else:  # the same game as the exact fractions give, to a float's precision
        exact = mdp.solve(mdp.compile(mdp.load_game("shutbox", **settings_))).value
        got = mdp.solve(mdp.compile(mdp.load_game("shutbox", plugins=[str(path)], **settings_))).value
        assert got == pytest.approx(exact, rel=1e-12)


def test_a_wide_float_sum_off_is_still_the_plugins_fault(tmp_path):
    # 1e-6 off in all: past the 1e-9 that float probabilities may be off by.
    path = plugin(tmp_path, "float64", scale=1 + 1e-6)
    with pytest.raises(mdp.ModelError, match=f"plugin {path}'s shutbox_rolls gave probabilities "
                                             "that add up to 1.000001"):
        mdp.compile(mdp.load_game("shutbox", plugins=[str(path)], tiles="1-4"))

