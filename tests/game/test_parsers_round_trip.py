"""What :func:`mdp.show_int_list` writes, :func:`mdp.parse_int_list` reads back to the same
numbers; what it could not read back is refused (round 27: ``2.0,3.0``, ``1,2,2,3``,
``-3--1,5`` and ``""`` were written, and each refused as it was read)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp

NUMBERS = st.lists(st.integers(-5, 40) | st.integers(0, 40).map(float), max_size=12)


@pytest.mark.slow
@given(NUMBERS)
def test_a_shown_list_is_read_back_or_refused(numbers):
    whole = sorted(int(n) for n in numbers)
    if not whole or whole[0] < 0 or len(set(whole)) != len(whole):
        with pytest.raises(mdp.ParamError, match=r"^show_int_list: .*which parse_int_list does not read back"):
            mdp.show_int_list(numbers)
        return
    assert mdp.parse_int_list(mdp.show_int_list(numbers)) == tuple(whole)
