"""A tie-break takes a column that is a number in every terminal state: one empty (None) or
NaN in some is refused in one line naming the tie-break column, how many terminal states lack
it, and only the columns a tie-break can take, where it was the Python API's "terminal= value
nan at row 0". Which columns are usable is counted here from the values given. A usable one
breaks ties in exact solving too, a column of floats and mdp's own ``value`` among them."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp

VALUE = st.none() | st.sampled_from([0, 1, 2, 2.5, math.nan])


@settings(max_examples=40, deadline=None)
@given(xs=st.lists(VALUE, min_size=3, max_size=3), ys=st.lists(VALUE, min_size=3, max_size=3),
       column=st.sampled_from(["x", "y"]))
def test_a_tie_break_column_empty_somewhere_is_refused(xs, ys, column):
    # Three tied actions from "start" (each worth 1), to terminal states whose columns are x, y.
    game = Table({"start": {i: [(1, f"end{i}")] for i in range(3)}},
                 {f"end{i}": 1 for i in range(3)})
    game.mdp_state_columns = mdp.hookimpl(lambda state: {"x": None, "y": None} if state == "start"
                                          else {"x": xs[int(state[3])], "y": ys[int(state[3])]})
    game = mdp.load_game(game)
    solution = mdp.solve(mdp.compile(game))
    values = {"x": xs, "y": ys}
    lacking = {c: sum(v is None or (isinstance(v, float) and math.isnan(v)) for v in vs)
               for c, vs in values.items()}
    usable = [c for c in ("x", "y") if not lacking[c] and any(v is not None for v in values[c])]
    if column in usable:
        # The first end of the most in the column, by hand; in floats, and exactly (a column
        # of floats, or mdp's own value, was "terminal= value 1.0 at row 0 is a float").
        best = max(range(3), key=lambda i: (values[column][i], -i))
        for exact in (False, True):  # the start's three actions, in the game's order
            weights = mdp.choices(mdp.solve(mdp.compile(game), exact=exact),
                                  tie_break=[f"max:{column}", "max:value"])
            assert list(weights) == [int(i == best) for i in range(3)]
        mdp.distribution(solution, game, tie_break=[f"max:{column}"])
        return
    with pytest.raises(mdp.ParamError) as raised:
        mdp.distribution(solution, game, tie_break=[f"max:{column}"])
    message = str(raised.value)
    assert message.startswith(f"tie-break column {column!r} "), message
    if all(v is not None for v in values[column]) or any(isinstance(v, (int, float)) and v == v
                                                          for v in values[column]):
        assert f" in {lacking[column]} of the 3 terminal states" in message, message
    listed = message.split("number in every terminal state (")[1].split(")")[0]
    assert [c for c in listed.split(", ") if c in ("x", "y")] == usable, message


@pytest.mark.parametrize("sense", ["max", "min"])
def test_a_column_of_fractions_breaks_ties_exactly(sense):
    """Round 27: a column of fractions (which tables hold as their text "p/q") was refused as
    "not a number"; it breaks ties by the fractions, in floats and exactly. Three tied actions
    whose ends' r are 2/3, 10/11 and 7/11: the most is the second, the least the third."""
    from fractions import Fraction

    r = [Fraction(2, 3), Fraction(10, 11), Fraction(7, 11)]
    game = Table({"start": {i: [(1, f"end{i}")] for i in range(3)}}, {f"end{i}": 1 for i in range(3)})
    game.mdp_state_columns = mdp.hookimpl(lambda state: {"r": None} if state == "start"
                                          else {"r": r[int(state[3])]})
    game = mdp.load_game(game)
    best = 1 if sense == "max" else 2
    for exact in (False, True):
        weights = mdp.choices(mdp.solve(mdp.compile(game), exact=exact), tie_break=[f"{sense}:r"])
        assert list(weights) == [int(i == best) for i in range(3)]
