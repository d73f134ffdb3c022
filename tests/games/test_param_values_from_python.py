"""Every parameter of every game and rule plugin shipped, given from Python any value of a
plain type: it is read, or refused as the caller's mistake (one mdp.ParamError), never
blamed on the game's parser (ModelError: a list of numbers once broke ``boxes``' parser);
and a truth value (True, a numpy bool, or one in a list) is no number, no name and no
probability: ``weights=[True, False, ...]`` was once read as a die that always shows 1."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

# (Shut the Box's rule plugins are installed with it, their parameters among its own.)
DECLARED = sorted({(game, param.name) for game in ("shutbox", "yahtzee", "pig")
                   for param in mdp.load_game(game).declared})
TRUTHS = st.sampled_from([True, False, np.True_, np.False_])
PLAIN = st.one_of(st.integers(-3, 8), st.fractions(), st.floats(allow_nan=True),
                  st.text(max_size=4), st.none())
LISTS = st.lists(st.one_of(PLAIN, TRUTHS), max_size=6)


def _loaded(game, name, value):
    try:
        return mdp.load_game(game, **{name: value})
    except mdp.ParamError:
        return None


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(DECLARED), value=st.one_of(PLAIN, TRUTHS, LISTS, LISTS.map(tuple)))
@pytest.mark.slow  # half a second or more of CPU
def test_a_value_from_python_is_read_or_refused_as_the_callers(where, value):
    game, name = where
    loaded = _loaded(game, name, value)  # a ModelError or any other exception fails the test
    truths = [value] if not isinstance(value, (list, tuple)) else value
    if loaded is not None and any(isinstance(v, (bool, np.bool_)) for v in truths):
        pytest.fail(f"{game} {name}={value!r}: a truth value read as {loaded.params[name]!r}")
