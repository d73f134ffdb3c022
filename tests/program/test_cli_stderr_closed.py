"""A command started with standard error closed (``mdp ... 2>&-``) still does its work and
writes the files asked for: the lines it would say there go nowhere."""

import subprocess
import sys

import polars as pl
import pytest


@pytest.mark.parametrize("command", [["solve", "shutbox", "--set", "tiles=1-4"],
                                     ["policy", "shutbox", "--set", "tiles=1-4", "--out", "q.csv"]])
def test_a_command_with_standard_error_closed_does_its_work(tmp_path, command):
    done = subprocess.run([sys.executable, "-c", "import sys; from mdp.program import main; sys.exit(main())",
                           *command], cwd=tmp_path, stderr=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          pass_fds=(), close_fds=True, preexec_fn=lambda: __import__("os").close(2))
    assert done.returncode == 0
    if "--out" in command:  # every action of the 1-4 box, as mdp policy writes it
        assert pl.read_csv(tmp_path / "q.csv").height > 0
    else:
        assert b"chance of shutting the box" in done.stdout
