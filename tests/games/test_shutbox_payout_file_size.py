"""A payout named by a file that is no table is refused in one short line: an item is quoted
by its first characters, and a file past what a table of payouts holds is refused before it
is read (round 18, R18-N14: a 10 MB file of zeros was echoed whole, 42 MB of one "line")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp


@settings(max_examples=15, deadline=None)
@given(st.text(st.characters(blacklist_characters=":,#\n\r"), min_size=61, max_size=5000))
def test_a_long_item_is_quoted_by_its_first_characters(item):
    item = "x" + item  # no number: refused as an item
    with pytest.raises(mdp.ParamError) as refused:
        mdp.load_game("shutbox", tiles="1-4", scoring="payout", payout=f"0:1,{item}:2")
    said = str(refused.value)
    assert len(said) < 400 and "characters)" in said


def test_a_file_too_long_for_a_table_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"\0" * ((1 << 20) + 1))
    with pytest.raises(mdp.ParamError, match=r"holds 1,048,577 bytes, more than a table of payouts"):
        mdp.load_game("shutbox", tiles="1-4", scoring="payout", payout=str(path))
