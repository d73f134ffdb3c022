"""A file named by a file descriptor (``/dev/fd/N``, ``/proc/self/fd/N``, ``/dev/stdout``, a
link to one) names the descriptor as it was when mdp started. Before, a number the user never
opened was answered by mdp's own copies of standard output and error (``--out /dev/fd/3``:
the table on standard output, "written to /dev/fd/3", exit 0; ``/dev/fd/5`` with ``2>>log``
replaced the log), ``--out /dev/stdout`` with standard output closed went to the null device
mdp had put there ("written", exit 0), and ``--plot /dev/fd/4`` was called standard output."""

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # a process per case

MDP = [sys.executable, "-m", "mdp"]
POLICY = ["policy", "shutbox", "--set", "tiles=1-3", "--format", "csv"]


def _name(folder, how: str, number: int) -> str:
    """A name of descriptor ``number``: as the system spells it, or a link to that."""
    if how == "link":
        (folder / f"l{number}").unlink(missing_ok=True)
        (folder / f"l{number}").symlink_to(f"/dev/fd/{number}")
        return str(folder / f"l{number}")
    return how.format(number)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.integers(3, 9), how=st.sampled_from(["/dev/fd/{}", "/proc/self/fd/{}", "link"]),
       command=st.sampled_from(["out", "plot"]))
def test_a_descriptor_not_open_at_start_cannot_be_written(tmp_path, number, how, command):
    name = _name(tmp_path, how, number)
    words = [*POLICY, "--out", name] if command == "out" else \
        ["distribution", "shutbox", "--set", "tiles=1-3", "--plot", name]
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    with open(log, "a") as errors:  # standard error to a file, as 2>>log.txt
        done = subprocess.run([*MDP, *words], stdout=subprocess.PIPE, stderr=errors, text=True,
                              timeout=120, cwd=tmp_path, close_fds=True)
    said = log.read_text()
    assert done.returncode == 2, said
    assert said.startswith("kept\n")  # the log was written into, not replaced
    assert f"file descriptor {number} was not open when mdp started" in said
    assert "standard output" not in said and done.stdout == ""


@pytest.mark.parametrize("name", ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"])
def test_out_naming_standard_output_closed_is_refused_as_printing_is(tmp_path, name):
    done = subprocess.run(["bash", "-c", 'exec "$@" >&-', "mdp", *MDP, *POLICY, "--out", name],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "standard output, which is closed" in done.stderr and "written" not in done.stderr


def test_out_naming_standard_input_closed_is_refused(tmp_path):
    done = subprocess.run(["bash", "-c", 'exec "$@" <&-', "mdp", *MDP, *POLICY,
                           "--out", "/dev/stdin"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 2 and "standard input, which is closed" in done.stderr
    assert done.stdout == ""


def test_a_descriptor_given_is_written_into_where_it_points(tmp_path):
    """The table written to descriptor 3 that the caller opened (``3>>t.csv``) lands in its
    file, after what it held, the same as the table ``--out`` writes to a file by name."""
    subprocess.run([*MDP, *POLICY, "--out", "named.csv"], check=True, capture_output=True,
                   timeout=120, cwd=tmp_path)
    target = tmp_path / "t.csv"
    target.write_text("before\n")
    inode = target.stat().st_ino
    with open(target, "a") as handle:
        fd = os.dup(handle.fileno())
    try:
        done = subprocess.run(["bash", "-c", f'exec "$@" 3>&{fd}', "mdp", *MDP, *POLICY,
                               "--out", "/dev/fd/3"], capture_output=True, text=True,
                              timeout=120, pass_fds=(fd,), cwd=tmp_path)
    finally:
        os.close(fd)
    assert done.returncode == 0, done.stderr
    assert target.stat().st_ino == inode
    assert target.read_text() == "before\n" + (tmp_path / "named.csv").read_text()
