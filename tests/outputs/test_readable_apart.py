"""Two values of a table for people never read as one (round 24: outcomes 0.3 and 0.1 + 0.2
were two rows "0.3" with a chance each, in the text and the Markdown of distribution and
simulate; two --vary rule sets read alike). Floats that 15 digits show alike are shown with
every digit repr gives; the others to 15 digits, as always."""

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdp.outputs.readable import cells, readable, readable_table

NEAR = st.floats(allow_nan=False, allow_infinity=False).flatmap(
    lambda x: st.lists(st.sampled_from([x, x * (1 + 2**-52), x * (1 - 2**-52), x + 1e-300]), min_size=1,
                       max_size=4))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6) | NEAR)
@example([0.0, -0.0])  # two values of a table, by their sign: "0" and "-0"
def test_distinct_floats_read_apart(values):
    frame = pl.DataFrame({"value": values}, schema={"value": pl.Float64})
    shown = readable_table(frame)["value"].to_list()
    assert cells(frame, ["value"])["value"] == shown
    assert len({t for t in shown}) == len({repr(v) for v in values}), (values, shown)  # -0.0 too
    for value, text in zip(values, shown):  # digits kept only where they tell values apart
        others = [v for v in values if v != value and readable(v) == readable(value)]
        assert text == (repr(value) if others else readable(value))
