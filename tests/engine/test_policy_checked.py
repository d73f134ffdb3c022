"""Chances given to ``mdp.Policy`` as they are are checked as they enter (round 27: taken
unchecked, a "chance of shutting the box" of 4.09, a distribution summing to 17.6, NaN, or a
numpy broadcasting traceback from mdp's own code); any weights go through
``Policy.of_weights``, which makes chances of them."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

GAME = mdp.load_game("shutbox", tiles="1-4")
MODEL = mdp.compile(GAME)
RANDOM = mdp.strategy_policy(MODEL, "random", game=GAME).probabilities  # chances, by the game


@pytest.mark.parametrize("make", [lambda w: 2 * w, lambda w: np.ones_like(w), lambda w: np.full_like(w, np.nan),
                                  lambda w: np.full_like(w, np.inf), lambda w: -w, lambda w: w[:-1],
                                  lambda w: w[None, :], lambda w: np.zeros_like(w), lambda w: list(w),
                                  lambda w: w.astype(object) * 2])
def test_what_are_not_chances_are_refused(make):
    floats = np.asarray(RANDOM, dtype=np.float64)
    with pytest.raises(mdp.ParamError, match=r"^mdp\.Policy: "):
        mdp.Policy(MODEL, make(floats))


def test_chances_are_taken_as_they_are():
    floats = np.asarray(RANDOM, dtype=np.float64)
    assert mdp.solve(MODEL, policy=mdp.Policy(MODEL, floats)).value == \
        pytest.approx(mdp.solve(MODEL, policy=mdp.strategy_policy(MODEL, "random", game=GAME)).value)
    exact = np.array([Fraction(x).limit_denominator(100) for x in floats.tolist()], dtype=object)
    assert 0 < mdp.solve(MODEL, policy=mdp.Policy(MODEL, exact), exact=True).value < 1


@pytest.mark.parametrize("big", [1e308, 10**400, Fraction(10**400), Fraction(1, 10**400)])
def test_a_mix_of_weights_of_any_size_is_by_their_ratio(big):
    """Round 27: weights of 1e308 overflowed their total (a policy of no moves: solve 0.0,
    chances summing to 0), and 10**400 was an OverflowError; a mix is by the weights' ratio,
    here 1:1, whatever their size."""
    optimal = mdp.solve(MODEL).as_policy()
    random = mdp.strategy_policy(MODEL, "random", game=GAME)
    even = mdp.solve(MODEL, policy=mdp.Policy.mix([(random, 1), (optimal, 1)])).value
    assert mdp.solve(MODEL, policy=mdp.Policy.mix([(random, big), (optimal, big)])).value == pytest.approx(even)


@pytest.mark.parametrize("weight", ["1", True, None, float("nan"), -1])
def test_a_mix_weight_that_is_no_number_is_refused(weight):
    random = mdp.strategy_policy(MODEL, "random", game=GAME)
    with pytest.raises(mdp.ParamError, match=r"^mix weights "):
        mdp.Policy.mix([(random, weight), (random, 1)])


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint32, bool])
def test_chances_of_another_dtype_are_refused_by_their_dtype(dtype):
    # Round 33, U33-01: a 0/1 policy as int64 was "not all of finite numbers".
    pure = mdp.solve(MODEL).as_policy().probabilities
    with pytest.raises(mdp.ParamError, match=rf"^mdp\.Policy: probabilities is an array of "
                                             rf"{np.dtype(dtype).name}; expected floats"):
        mdp.Policy(MODEL, pure.astype(dtype))


def test_chances_past_a_float_say_nothing_of_numpy(recwarn):
    # Round 33, U33-02: numpy's "overflow encountered in reduceat" came before the refusal.
    with pytest.raises(mdp.ParamError, match="not of chances"):
        mdp.Policy(MODEL, np.full(MODEL.n_actions, 1e308))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_weights_are_a_share_of_their_own_state_s_whatever_other_states_weigh(data):
    """Round 34: weights were scaled by the largest of the whole model, so a state's weight
    of 1 beside another state's 10**400 was "too small beside the others for a float", and
    floats refused a strategy that needs no precision. Each state's weights, scaled by a
    power of ten of its own (10**-400 to 10**400, or floats up to 9e307), are chances of its
    own: the float policy is the exact one's, rounded."""
    n = MODEL.n_states - MODEL.n_terminal
    counts = MODEL.action_counts[MODEL.n_terminal:].tolist()
    floats = data.draw(st.booleans())
    scales = data.draw(st.lists(st.integers(-300 if floats else -400, 307 if floats else 400),
                                min_size=n, max_size=n))
    weights = []
    for count, scale in zip(counts, scales):
        drawn = data.draw(st.lists(st.integers(0, 9), min_size=count, max_size=count).filter(any))
        weights += [w * (10.0 ** scale if floats else Fraction(10) ** scale) for w in drawn]
    given_weights = np.array(weights, dtype=np.float64 if floats else object)
    chances = mdp.Policy.of_weights(MODEL, given_weights).probabilities
    at = 0
    for count in counts:
        own = [Fraction(w) for w in weights[at:at + count]]
        expected = [float(w / sum(own)) for w in own]
        assert chances[at:at + count].tolist() == pytest.approx(expected, rel=1e-12, abs=1e-300)
        at += count
