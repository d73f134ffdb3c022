"""A signal that comes just as a temporary file is made (the file there, its name not yet
kept for removal) waits until the name is kept: the interruption then removes the file, and
nothing is left beside the target. Before, one such SIGHUP left ``.d.png.jez6eflu`` behind."""

import os
import signal

import pytest

from mdp.errors import TERMINATIONS, terminations_interrupt, watch_interruptions
from mdp.outputs import files


@pytest.fixture
def signal_as_made(monkeypatch):
    """Each temporary file made is followed at once by a Ctrl-C, before its name is returned."""
    real = files._beside

    def beside(path, folder):
        made = real(path, folder)
        signal.raise_signal(signal.SIGINT)  # handled at the next step of this function
        return made

    monkeypatch.setattr(files, "_beside", beside)


@pytest.mark.parametrize("count", [1, 2])
def test_a_signal_as_a_temporary_file_is_made_leaves_nothing(tmp_path, signal_as_made, count):
    targets = [(str(tmp_path / f"out{i}.csv"), lambda file: file.write(b"x")) for i in range(count)]
    with watch_interruptions(), pytest.raises(KeyboardInterrupt):
        files.write_together(targets)
    assert os.listdir(tmp_path) == []


def test_a_signal_as_a_target_is_probed_leaves_nothing(tmp_path, signal_as_made):
    with watch_interruptions(), pytest.raises(KeyboardInterrupt):
        files.check_target(str(tmp_path / "out.csv"))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("number", TERMINATIONS)
def test_a_signal_that_ends_a_process_interrupts_a_write_and_leaves_nothing(tmp_path, number):
    """Ctrl-\\ (SIGQUIT), an alarm a plugin set (SIGALRM), SIGUSR1 killed mdp by the signal
    mid-write and left ``.keep.csv.lk30l_ql`` (round 17): each is an interruption, as SIGTERM."""
    def write(file):
        file.write(b"x")
        signal.raise_signal(number)

    with terminations_interrupt(), pytest.raises(KeyboardInterrupt):
        files.write_together([(str(tmp_path / "out.csv"), write)])
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_once_the_command_has_ended_leaves_its_exit_code(name):
    # Run as the program, mdp games ends (0); a signal that then comes, before the process
    # is gone, neither kills it by the signal (exit -1 for SIGHUP) nor turns it to 130.
    import subprocess
    import sys

    script = ("import os, signal, sys\n"
              "sys.argv = ['mdp', 'games']\n"
              "from mdp.program import main\n"
              "code = main()\n"
              f"os.kill(os.getpid(), signal.{name})\n"
              "sys.exit(code)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "interrupted" not in run.stderr


def test_a_watch_of_its_own_is_interrupted_after_one_that_was(tmp_path, capsys):
    """An interruption taken and said in one watch is that watch's alone: a later watch of
    its own (the next write, in the same process) is interrupted by its signal again (the
    second signal of one interruption is ignored, round 19's N3; the next write's is not)."""
    from mdp.errors import say_interrupted

    with terminations_interrupt(), pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGTERM)
    with terminations_interrupt():
        say_interrupted()  # said as the command ends
    capsys.readouterr()

    def write(file):
        file.write(b"x")
        signal.raise_signal(signal.SIGTERM)

    with terminations_interrupt(), pytest.raises(KeyboardInterrupt):
        files.write_together([(str(tmp_path / "out.csv"), write)])
    assert os.listdir(tmp_path) == []
