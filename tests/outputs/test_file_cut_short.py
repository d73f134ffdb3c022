"""A file being written that another hand cuts short (a game's thread, left running, that
truncates mdp's temporary file) is refused, its target untouched (round 25: "35,989 rows
written to q.csv", and q.csv held 10 bytes). Cut anywhere, by any length: refused; written
whole: in place."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.files import write_atomically


@settings(max_examples=15, deadline=None)
@given(size=st.integers(1, 10_000), cut=st.integers(0, 10_000) | st.none())
def test_a_file_cut_short_while_written_is_refused_and_the_target_untouched(tmp_path_factory, size, cut):
    folder = tmp_path_factory.mktemp("cut")
    target = folder / "t.csv"
    target.write_bytes(b"old")

    def write(file):
        file.write(b"x" * size)
        file.flush()
        if cut is not None:  # another hand, through a file of its own
            temporary = next(p for p in os.listdir(folder) if p != "t.csv")
            with open(folder / temporary, "r+b") as other:
                other.truncate(cut)

    if cut is not None and cut < size:
        with pytest.raises(mdp.MdpError, match=r"^cannot write to .*t\.csv: the file being written "
                           r"\(.*\) was cut short while mdp wrote it$"):
            write_atomically(str(target), write)
        assert target.read_bytes() == b"old" and os.listdir(folder) == ["t.csv"]
    else:
        write_atomically(str(target), write)
        assert target.stat().st_size == max(size, cut or 0)
