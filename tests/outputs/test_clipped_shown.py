"""A value quoted in a message is clipped by the width it is shown at (round 19's payout
file of control characters: each shown as a four-character escape, a "clipped" quote of 60
characters came out at 240, and the line past 400)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.shown import clipped, one_line


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=10, max_value=200))
def test_a_quote_is_as_wide_as_it_may_be_on_its_line(text, most):
    quoted = clipped(text, most)
    if len(one_line(text)) <= most:
        assert quoted == text
    else:
        head, _, tail = quoted.rpartition("... (")
        assert text.startswith(head)
        assert len(one_line(head)) <= most * 3 // 5
        assert tail == f"{len(text):,} characters)"
