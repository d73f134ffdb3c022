"""A state named by ``COLUMN=VALUE`` is found as the table shows its cells, by their text,
never by ``==``: a float column holding ``-0.0`` in one state and ``0.0`` in another shows
them apart (CSV ``-0.0`` and ``0.0``, Markdown ``-0`` and ``0``), and ``x=-0.0`` names the
first, where ``==`` took it for both and no value named it at all. Values shown alike
(``0.3`` and ``0.1 + 0.2``, to 15 digits) are still named together, as a reader takes them."""

import json
import math

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdp.game.naming import same
from mdp.program.cli import main
from mdp.shown import seen

FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 0.3, 0.1 + 0.2, math.nan, math.inf, -math.inf, 1e-5]),
                   st.floats(allow_nan=True, allow_infinity=True, width=64))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(values=st.lists(FLOATS, min_size=1, max_size=6), at=st.integers(0, 5), markdown=st.booleans())
# a largest float, shown rounded up past a float's top, beside an infinity (the text read as a
# float is one): found by this test in the README's test command on 2026-11-28
@example(values=[math.inf, 1.7976931348623151e+308], at=1, markdown=True)
def test_a_cell_named_by_its_text_names_the_cells_shown_so(values, at, markdown):
    table = pl.DataFrame({"x": values}, schema={"x": pl.Float64})
    cell = values[at % len(values)]
    # The text of the cell as a CSV table writes it, or as a Markdown table shows it.
    text = seen(cell) if markdown else table["x"].cast(pl.String)[at % len(values)]
    named = table.with_row_index("i").filter(same(table, "x", text))["i"].to_list()
    assert at % len(values) in named  # the cell itself
    assert all(seen(values[i]) == seen(cell) for i in named), (text, [values[i] for i in named])


GAME = '''
import mdp
from fractions import Fraction

@mdp.hookimpl
def mdp_initial_state():
    return 0

@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state in (0, 1, 2) else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    if state == 0:
        return [(Fraction(1, 2), 1), (Fraction(1, 2), 2)]
    return [(1, state + 2)]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {3: 10, 4: 0}[state]

@mdp.hookimpl
def mdp_state_columns(state):
    return {"x": {1: -0.0, 2: 0.0}.get(state)}
'''


@pytest.mark.slow
def test_advise_names_the_negative_zero(tmp_path, capsys):
    # State 1 (x -0.0) leads to 10, state 2 (x 0.0) to 0: by hand, from GAME.
    path = tmp_path / "zeros.py"
    path.write_text(GAME)
    for text, worth in [("-0.0", 10), ("-0", 10), ("0.0", 0), ("0", 0)]:
        assert main(["advise", str(path), f"x={text}", "--json"]) == 0, capsys.readouterr().err
        advice = json.loads(capsys.readouterr().out)
        assert advice["actions"][0]["value"] == worth, text
        assert math.copysign(1, advice["state"]["x"]) == (-1 if worth else 1)
