"""What a game gives as its outcome columns (mdp_outcome_columns) is a list of distinct
names of its terminal states' columns, or it is refused in one line naming the game: a
name given twice was a Polars traceback, and a str was read letter by letter."""

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

NAMES = st.sampled_from(["side", "value", "nope"])
GIVEN = st.one_of(st.none(), st.lists(NAMES, max_size=3), st.lists(NAMES, max_size=3).map(tuple),
                  NAMES, st.integers(), st.lists(st.integers(0, 2), min_size=1, max_size=2))


def _coin(columns):
    """A fair coin: heads worth 3, tails 0; column ``side``, and outcome columns ``columns``."""
    def mdp_initial_state():
        return "S"

    def mdp_actions(state):
        return ["flip"] if state == "S" else []

    def mdp_outcomes(state, action):
        return [(Fraction(1, 2), "H"), (Fraction(1, 2), "T")]

    def mdp_terminal_value(state):
        return 3 if state == "H" else 0

    def mdp_state_columns(state):
        return {"side": state}

    def mdp_outcome_columns():
        return columns

    hooks = (mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value,
             mdp_state_columns, mdp_outcome_columns)
    return mdp.load_game(SimpleNamespace(
        GAME_NAME="coin", **{f.__name__: mdp.hookimpl(f) for f in hooks}))


@settings(max_examples=40, deadline=None)
@given(GIVEN)
def test_outcome_columns_are_distinct_names_of_terminal_columns_or_refused(columns):
    game = _coin(columns)
    solution = mdp.solve(mdp.compile(game), exact=True)
    # [] was taken as the default, the value: an outcome of no column is refused as one of
    # no list is; None alone asks for the value.
    names = list(columns) if isinstance(columns, (list, tuple)) and columns else None
    if columns is None:
        names = ["value"]
    if names is None or not all(isinstance(n, str) for n in names):
        with pytest.raises(mdp.ModelError, match=r"^game coin: mdp_outcome_columns returned .*, "
                           r"not a list of column names \(one or more; None for the value alone\)$"):
            solution.chances(game)
    elif len(set(names)) < len(names):
        with pytest.raises(mdp.ModelError, match=r"^game coin: mdp_outcome_columns names '\w+' "
                           r"twice \(.*\); name each column once$"):
            solution.chances(game)
    elif "nope" in names:
        with pytest.raises(mdp.ModelError, match=r"^game coin: outcome columns \['nope'\] are not"):
            solution.chances(game)
    else:  # each side once, at a half
        chances = solution.chances(game)
        assert chances.columns[:len(names)] == names
        assert chances["exact"].to_list() == ["1/2", "1/2"]
