"""mdp.Reach (mdp.at_least) checks its arguments: a total that is not a whole number, or a key
that is no round state, is one mdp.ParamError naming the method, the argument and what is
allowed, never a silently truncated total (at least 14.5 is not at least 14) nor a raw
numpy error; any whole number is a total, past the bounds the chance there."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp

# One box scoring the face of a die of three faces, thrown once: at least 1, 2, 3 with
# 1, 2/3, 1/3 (and 0 past 3).
GAME = card_game([[1, 2, 3]], 3, 1)
REACH = mdp.at_least(mdp.compile(GAME), exact=True)

not_whole = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not x.is_integer()), st.fractions().filter(lambda f: f.denominator > 1),
    st.text(max_size=4), st.booleans(), st.none(), st.binary(max_size=2), st.lists(st.integers(), max_size=2))


@settings(max_examples=60, deadline=None)
@given(not_whole)
def test_a_total_that_is_not_a_whole_number_is_refused(total):
    for call, name in ((lambda: REACH.chance(total), "Reach.chance: total"),
                       (lambda: REACH.at(None, total), "Reach.at: total")):
        with pytest.raises(mdp.ParamError) as raised:
            call()
        message = str(raised.value)
        assert message.startswith(f"mdp.{name} is ") and "expected a whole number" in message
        assert "\n" not in message


@settings(max_examples=60, deadline=None)
@given(st.one_of(not_whole.filter(lambda key: key is not None), st.integers().filter(lambda k: k not in (0, 1))))
def test_a_key_that_is_no_round_state_is_refused(key):
    for call, name in ((lambda: REACH.chance(1, key=key), "chance"), (lambda: REACH.bounds(key), "bounds"),
                       (lambda: REACH.curve(key), "curve"), (lambda: REACH.at(key, 1), "at")):
        with pytest.raises(mdp.ParamError, match=rf"^mdp\.Reach\.{name}: key is .*; expected a round "
                           "state of game card"):
            call()


@settings(max_examples=60, deadline=None)
@given(st.integers())
def test_every_whole_number_is_a_total(total):
    # By hand: the face thrown is the total, each of 1, 2, 3 with 1/3.
    expected = Fraction(min(max(3 - max(total, 1) + 1, 0), 3), 3)
    assert REACH.chance(total) == expected
    assert REACH.chance(total, key=0) == expected


def test_a_fraction_is_refused_not_truncated():
    with pytest.raises(mdp.ParamError, match=r"^mdp\.Reach\.chance: total is a Fraction; expected a whole"):
        REACH.chance(Fraction(3, 2))
    with pytest.raises(mdp.ParamError, match=r"^mdp\.Reach\.chance: total is 1\.5; expected a whole"):
        REACH.chance(1.5)
