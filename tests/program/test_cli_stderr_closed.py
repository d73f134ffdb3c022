"""A command started with standard error closed (``mdp ... 2>&-``) or full (``2>/dev/full``)
still does its work and writes the files asked for: the lines it would say there go nowhere,
and the exit code is the command's."""

import os
import subprocess
import sys

import polars as pl
import pytest

MAIN = "import sys; from mdp.program import main; sys.exit(main())"
FILES = [  # a command, and the files it is asked for
    (["solve", "shutbox", "--set", "tiles=1-4"], []),
    (["policy", "shutbox", "--set", "tiles=1-4", "--out", "q.csv"], ["q.csv"]),
    (["report", "shutbox", "--set", "tiles=1-4", "--out", "q.html"], ["q.html"]),
    # Drawing: matplotlib's start-up, a second or more a run.
    pytest.param(["distribution", "shutbox", "--set", "tiles=1-4", "--plot", "q.png", "--out", "d.csv"],
                 ["q.png", "d.csv"], marks=pytest.mark.slow),
    pytest.param(["simulate", "shutbox", "--set", "tiles=1-4", "--games", "100", "--plot", "s.svg"],
                 ["s.svg"], marks=pytest.mark.slow),
    (["export", "shutbox", "--set", "tiles=1-4", "--format", "prism", "--out", "m.prism"], ["m.prism", "m.prism.props"]),
]


def _run(tmp_path, command, stderr):
    if stderr == "closed":
        return subprocess.run([sys.executable, "-c", MAIN, *command], cwd=tmp_path,
                              stderr=subprocess.DEVNULL, stdout=subprocess.PIPE, close_fds=True,
                              preexec_fn=lambda: os.close(2), timeout=120)
    with open("/dev/full", "w") as full:
        return subprocess.run([sys.executable, "-c", MAIN, *command], cwd=tmp_path, stderr=full,
                              stdout=subprocess.PIPE, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("stderr", ["closed", "full"])
@pytest.mark.parametrize(("command", "files"), FILES)
def test_a_command_with_standard_error_gone_does_its_work(tmp_path, command, files, stderr):
    # Before: 2>/dev/full lost the report and the picture, exit code 1 (a traceback nowhere).
    if any(name.endswith((".png", ".svg")) for name in files):
        pytest.importorskip("matplotlib")
    if stderr == "full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    done = _run(tmp_path, command, stderr)
    assert done.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
    for name in files:
        assert (tmp_path / name).stat().st_size > 0
    if "q.csv" in files:  # every action of the 1-4 box, as mdp policy writes it
        assert pl.read_csv(tmp_path / "q.csv").height > 0
    if command[0] == "solve":
        assert b"chance of shutting the box" in done.stdout


@pytest.mark.parametrize("stderr", ["closed", "full"])
@pytest.mark.slow  # half a second or more of CPU
def test_a_fault_with_standard_error_gone_keeps_its_exit_code(tmp_path, stderr):
    if stderr == "full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert _run(tmp_path, ["solve", "nosuch"], stderr).returncode == 2
    assert _run(tmp_path, ["policy", "shutbox", "--max-states", "10"], stderr).returncode == 3
