"""The checks of a game's columns are made over a whole column at once where its values are
all of one plain kind (a round column of every round state of Yahtzee: 360,000 values in
each column, checked value by value in seconds): the table made, and every refusal, are
those of the checks value by value, whatever the values."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import two_boxes

import mdp
from mdp.game import cells

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-2**200, 2**200), st.floats(),
    st.text(max_size=3), st.fractions(max_denominator=5),
    st.integers(-2**63, 2**63 - 1).map(np.int64), st.floats(width=32).map(np.float32),
    st.tuples(st.integers()), st.binary(max_size=2))
KINDS = [VALUES, *[st.one_of(st.none(), kind) for kind in (
    st.booleans(), st.integers(-2**140, 2**140), st.floats(), st.text(max_size=3))]]
"""A column's values: of any kind, or of one plain kind (and None)."""

TABLES = st.integers(1, 6).flatmap(lambda rows: st.lists(st.sampled_from(KINDS).flatmap(
    lambda kind: st.lists(kind, min_size=rows, max_size=rows)), min_size=1, max_size=3))


def _outcome(make):
    try:
        return ("made", make())
    except mdp.ModelError as error:
        return ("refused", str(error))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(TABLES)
def test_a_column_checked_at_once_is_checked_as_value_by_value(values):
    given_columns = {f"c{i}": column for i, column in enumerate(values)}
    at_once = _outcome(lambda: cells.to_frame(dict(given_columns), "game g"))
    one_kind = cells.one_kind
    try:
        cells.one_kind = lambda values: False  # the checks value by value alone
        by_value = _outcome(lambda: cells.to_frame(dict(given_columns), "game g"))
    finally:
        cells.one_kind = one_kind
    assert at_once[0] == by_value[0]
    if at_once[0] == "made":
        assert at_once[1].schema == by_value[1].schema
        assert at_once[1].rows() == by_value[1].rows() or \
            repr(at_once[1].rows()) == repr(by_value[1].rows())  # NaN is not NaN
    else:
        assert at_once[1] == by_value[1]


@pytest.mark.parametrize("bad", [Fraction(1, 2), b"x", (1,), np.int64(3)])
def test_a_value_of_another_kind_in_a_round_column_of_one_kind_is_still_seen(bad):
    # Among plain ints, one value of another kind: the column is checked value by
    # value, and a value no table holds refused as before, naming the round state.
    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"n": [bad if s == 3 else s for s in states.tolist()]}  # 3: both boxes filled

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    solution = mdp.solve(mdp.compile(game), exact=True)
    if isinstance(bad, (Fraction, np.integer)):  # a value a table holds: shown
        assert mdp.policy(solution, game).height == 4
    else:
        with pytest.raises(mdp.ModelError, match=r"mdp_round_columns gives column 'n' the value"):
            mdp.policy(solution, game)
