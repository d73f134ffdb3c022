"""Every round state is named by the values its round columns show: a column that is None
(empty in a table) by leaving it out, as a state's column is, and a fraction by its text
``p/q``. A round state whose column was None could not be named at all (the hint said to
type ``filled=None``, which names the text 'None'), and a column of fractions, whole in one
round and not in another, was refused as holding "Int64 in some rows and String in others"."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp

VALUES = st.one_of(st.none(), st.sampled_from(["a", "b c", ""]), st.integers(-2, 2),
                   st.fractions(min_value=-2, max_value=2, max_denominator=3))
START = "('throw',)"
"""The column ``state`` of the round's first state (tests/models.py's two boxes)."""


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES), min_size=4, max_size=4, unique_by=repr))
@example([("a", None), ("a", 1), ("b", 2), ("c", 3)])  # y empty in the first named: once looped
@example([(None, None), (None, "a"), (None, ""), ("a", None)])  # None and '' shown alike
def test_every_round_state_is_named_by_the_columns_it_shows(rows):
    from models import two_boxes

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"x": [rows[k][0] for k in states.tolist()], "y": [rows[k][1] for k in states.tolist()]}

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    # A column of text beside numbers is refused: a column holds one kind of value.
    mixed = any({isinstance(v, str) for v in column if v is not None} == {True, False}
                for column in zip(*rows))
    try:
        solution = mdp.solve(mdp.compile(game), exact=True)
        table = mdp.policy(solution, game)
    except mdp.ModelError as error:  # rows the same as shown: 1 and Fraction(1), None and ''
        said = str(error)
        assert "a column holds one kind of value" in said if mixed else \
            ("the same columns" in said or "show alike" in said), said
        return
    assert not mixed
    # Round states 0 to 3 (two boxes: 0, then 1 or 2, then 3), each row as the game gave it,
    # read as text (a fraction its text, 1 for 1/1).
    assert table["round"].to_list() == [1, 2, 2, None]  # none played from the last
    for place, column in enumerate("xy"):  # a column empty in every row is left out
        given = [_text(row[place]) for row in rows]
        shown = [_text(v) for v in table[column]] if column in table.columns else [None] * 4
        assert shown == given
    for text in {_text(row[0]) for row in rows[:3]} - {None}:
        # --within x=TEXT: every round state played from (0 to 2; 3 ends the game) of that x,
        # whatever its y; the round has 13 rows from 0, 7 from 1 or 2 (one box open).
        within = mdp.policy(solution, game, within={"x": text})
        assert within.height == sum(13 if k == 0 else 7 for k, row in enumerate(rows[:3])
                                    if _text(row[0]) == text)
    for row in rows:  # named by the columns that it shows, in text
        named = {c: _text(v) for c, v in zip("xy", row) if v is not None}
        advice = mdp.advise(solution, game, state=START, **named)
        assert [_text(advice.state.get(c)) for c in "xy"] == [_text(v) for v in row]


def _text(value):
    return None if value is None else str(value)
