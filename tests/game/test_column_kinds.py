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


@settings(max_examples=60, deadline=None)
@given(two_kinds())
def test_the_refusal_quotes_each_value_as_given(values):
    # Round 20 (F5): a Fraction beside the text "1/3" was quoted '1/3' both times, "numbers"
    # and "text" of one look; each value is shown as what it is (Fraction(1, 3), '1/3').
    from mdp.errors import said

    plain = [v.item() if isinstance(v, np.generic) else v for v in values]
    first = next(v for v in plain if v is not None)
    other = next(v for v in plain if v is not None and kind_of(v) != kind_of(first))
    with pytest.raises(mdp.ModelError) as refused:
        to_frame({"x": values})
    assert f"({said(first)} at row " in str(refused.value)
    assert f"({said(other)} at row " in str(refused.value)


def test_an_action_column_of_two_kinds_names_the_state_and_actions():
    game = SimpleNamespace(
        mdp_initial_state=mdp.hookimpl(lambda: "s"),
        mdp_actions=mdp.hookimpl(lambda state: ["a", "b"] if state == "s" else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(Fraction(1), "end")]),
        mdp_terminal_value=mdp.hookimpl(lambda state: 0),
        mdp_action_columns=mdp.hookimpl(
            lambda state, action: {"act": {"a": Fraction(1, 3), "b": "1/3"}[action]}))
    game.GAME_NAME = "fr"
    loaded = mdp.load_game(game)
    with pytest.raises(mdp.ModelError) as refused:
        mdp.policy(mdp.solve(mdp.compile(loaded)), loaded)
    assert str(refused.value).startswith(
        "game fr: mdp_action_columns: column 'act' holds numbers (Fraction(1, 3) at state 's', "
        "action 'a') and text ('1/3' at state 's', action 'b')")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                          st.integers(-100, 100).map(np.int64), st.booleans(), st.booleans().map(np.bool_)),
                min_size=1, max_size=6, unique_by=float))  # (states told apart by their column)
def test_a_state_column_of_numbers_is_one_column_of_the_policy_table(values):
    # Round 23: True in one state and 2 in another (one kind, numbers, by the docs) was taken
    # by advise and refused by mdp policy ("holds Int64 in some rows and Boolean in others").
    game = walked(values)
    table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    shown = table["x"].to_list()
    assert len(shown) == len(values)
    for got, value in zip(shown, values):
        assert float(got) == float(value)  # true as 1, false as 0
