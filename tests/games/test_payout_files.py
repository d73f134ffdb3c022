"""A payout table from a file reads as the table itself, however the file was saved (a
byte-order mark, Windows line ends, comments, blank lines) and whatever its path holds (a
colon: ``run:1/pay.txt`` was read as a table's item); a name that is there but not a
file of text is said to be what it is, never "no file"."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp

TILES = "1-4"


def _value(payout):
    return mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles=TILES, scoring="payout",
                                               payout=payout)), exact=True).value


items = st.lists(st.tuples(st.integers(0, 10), st.integers(-9, 99)), min_size=1, max_size=5,
                 unique_by=lambda item: item[0])


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=items, bom=st.booleans(), ends=st.sampled_from(["\n", "\r\n"]),
       comments=st.booleans(), blank=st.booleans(), folder=st.sampled_from(["payout", "run:1", "0:1"]))
def test_a_file_reads_as_the_table_it_holds(tmp_path_factory, table, bom, ends, comments, blank,
                                            folder):
    text = ",".join(f"{score}:{amount}" for score, amount in table)
    lines = [f"{score}:{amount}" + ("  # paid" if comments else "") for score, amount in table]
    if blank:
        lines.insert(0, "")
    path = tmp_path_factory.mktemp(folder) / "table.txt"  # run:10, run:11, ...
    path.write_bytes(("\ufeff" if bom else "").encode() + ends.join(lines).encode() + ends.encode())
    assert _value(str(path)) == _value(text)


def test_what_is_there_but_no_file_of_text_is_said_to_be_so(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe0:1")
    cases = {
        "/dev/null": "'/dev/null' is not a regular file (a pipe or a device); name a file holding "
                     "the table, or give the table itself, like 0:100,1-3:5",
        str(fifo): f"{str(fifo)!r} is not a regular file (a pipe or a device)",
        str(tmp_path): f"{str(tmp_path)!r} is a folder; name a file holding the table",
        str(binary): f"cannot read the file {str(binary)!r}: not UTF-8 text",
        str(tmp_path / "none"): f"no file {str(tmp_path / 'none')!r}, and not a table like 0:100,1-3:5",
        str(tmp_path / "run:1" / "pay.txt"): "; and no file ",  # its name clipped, then "is there"
    }
    for payout, message in cases.items():
        with pytest.raises(mdp.ParamError) as raised:
            _value(payout)
        assert message in str(raised.value)
