"""Every file a command writes is put in place together, or none is: with --out and --plot,
one that cannot be written (a link to /dev/full: a device, written into, not replaced) leaves
the other as it was (the table was put in place first, then the picture failed). Generated
over every command that draws, and which of its two files fails."""

import os

import pytest
from drawing import plotting
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

pytest.importorskip("matplotlib")
pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a device that is full")


# Which file fails, each in turn for every command (drawn, four cases a command left one of
# the two unseen once in eight); the old bytes kept, drawn once a case: what they are cannot
# matter to a file that is left alone, only that they are there.
@pytest.mark.slow
@pytest.mark.parametrize("failing", ["--out", "--plot"])
@pytest.mark.parametrize("argv", list(plotting()))
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(old=st.binary(min_size=1, max_size=20))
def test_a_file_that_cannot_be_written_leaves_the_other_as_it_was(argv, tmp_path, capsys,
                                                                  failing, old):
    for entry in tmp_path.iterdir():
        entry.unlink()
    out, plot = tmp_path / "t.csv", tmp_path / "t.png"
    full = out if failing == "--out" else plot
    kept = plot if failing == "--out" else out
    full.symlink_to("/dev/full")
    kept.write_bytes(old)
    assert main([*argv, "--out", str(out), "--plot", str(plot)]) == 2
    assert capsys.readouterr().err == f"mdp: error: {full}: cannot write: No space left on device\n"
    assert kept.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.png"]  # no temporary left
