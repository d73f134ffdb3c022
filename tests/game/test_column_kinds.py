"""A column holds one kind of value (text, or numbers and true/false; None anywhere), checked
as the columns are read, so that every command gives one verdict. A state column of 1, "a"
and 2.5 was refused by mdp policy and taken by advise, report and simulate (as text)."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.game.cells import to_frame

KINDS = {
    "numbers": st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False), st.fractions(),
                         st.integers(-100, 100).map(np.int64), st.booleans(),
                         st.booleans().map(np.bool_)),
    "text": st.text(max_size=3),
}
PAIRS = st.sampled_from([(a, b) for a in KINDS for b in KINDS if a != b])


@st.composite
def two_kinds(draw):
    """A column of values of two kinds (and None), and the first two kinds in it."""
    one, other = draw(PAIRS)
    values = draw(st.lists(st.one_of(KINDS[one], KINDS[other], st.none()), min_size=2, max_size=8))
    values += [draw(KINDS[one]), draw(KINDS[other])]
    order = draw(st.permutations(range(len(values))))
    return [values[i] for i in order]


def kind_of(value):
    value = value.item() if isinstance(value, np.generic) else value
    return None if value is None else "text" if isinstance(value, str) else "numbers"


@settings(max_examples=60, deadline=None)
@given(two_kinds())
def test_a_column_of_two_kinds_is_refused_as_it_is_read(values):
    kinds = [k for k in map(kind_of, values) if k]
    first, second = kinds[0], next(k for k in kinds if k != kinds[0])
    with pytest.raises(mdp.ModelError, match=rf"column 'x' holds {first} \(.* and {second} \("):
        to_frame({"x": values})


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(KINDS)).flatmap(
    lambda k: st.lists(st.one_of(KINDS[k], st.none()), min_size=1, max_size=8)))
def test_a_column_of_one_kind_is_a_table(values):
    frame = to_frame({"x": values})
    assert frame.height == len(values)
    assert frame["x"].null_count() == values.count(None)


def walked(values):
    """States 0 to len(values) in a chain, state ``i``'s column ``x`` ``values[i]``."""

    @mdp.hookimpl
    def mdp_initial_state():
        return 0

    @mdp.hookimpl
    def mdp_actions(state):
        return ["on"] if state < len(values) else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(Fraction(1), state + 1)]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {"x": values[state] if state < len(values) else None}

    return mdp.load_game(SimpleNamespace(
        GAME_NAME="mixed", mdp_initial_state=mdp_initial_state, mdp_actions=mdp_actions,
        mdp_outcomes=mdp_outcomes, mdp_terminal_value=mdp_terminal_value,
        mdp_state_columns=mdp_state_columns))


@settings(max_examples=30, deadline=None)
@given(two_kinds())
def test_a_state_column_of_two_kinds_is_refused_by_every_command_alike(values):
    # Read state by state as the game is walked: refused before any command's own work.
    kinds = [k for k in map(kind_of, values) if k]
    first, second = kinds[0], next(k for k in kinds if k != kinds[0])
    with pytest.raises(mdp.ModelError, match=rf"^game mixed: mdp_state_columns: column 'x' holds "
                       rf"{first} \(.* at state \d+\) and {second} \(.* at state \d+\); a column "
                       "holds one kind of value"):
        mdp.compile(walked(values))
