"""A pipe named by --out that no one reads yet is waited for, and Ctrl-C ends the wait: the
open of a FIFO blocks until a reader comes, and the signal may reach another thread than
the blocked one (before, only SIGTERM ended mdp there)."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/proc/self/wchan"),
                                reason="a FIFO, and /proc to see where mdp waits")

def _started(fifo, tmp_path):
    return subprocess.Popen([sys.executable, "-m", "mdp", "policy", "shutbox", "--set", "tiles=1-3",
                             "--out", str(fifo)], cwd=tmp_path, stderr=subprocess.PIPE)


def _waiting(process) -> None:
    """Until mdp waits for the FIFO's reader (the table is made by then)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(f"/proc/{process.pid}/wchan") as file:
            if file.read() in ("wait_for_partner", "hrtimer_nanosleep"):
                time.sleep(0.5)  # and still there: not a nap while starting
                with open(f"/proc/{process.pid}/wchan") as again:
                    if again.read() in ("wait_for_partner", "hrtimer_nanosleep"):
                        return
        time.sleep(0.1)
    process.kill()
    raise AssertionError("mdp never waited for the reader")


@pytest.mark.slow
def test_ctrl_c_ends_the_wait_for_a_reader(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    process = _started(fifo, tmp_path)
    _waiting(process)
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("Ctrl-C did not end mdp waiting for the pipe's reader") from None
    assert (code, process.stderr.read()) == (130, b"mdp: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]  # no temporary file


@pytest.mark.slow
def test_a_reader_that_comes_late_gets_the_table(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    process = _started(fifo, tmp_path)
    _waiting(process)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert process.wait(30) == 0
    reader.join(10)
    # The very table written to a plain file.
    assert subprocess.run([sys.executable, "-m", "mdp", "policy", "shutbox", "--set", "tiles=1-3",
                           "--out", "plain.csv"], cwd=tmp_path, capture_output=True).returncode == 0
    assert got == [(tmp_path / "plain.csv").read_bytes()]
    assert got[0].startswith(b"open,roll,dice,shut,value,optimal,regret\n")
