"""Every catchable signal whose default ends the process interrupts mdp as SIGTERM does: one
line, ``mdp: interrupted``, exit code 130, and no temporary file left beside the target.
Round 18: SIGXCPU (a CPU-time limit, ``ulimit -t``), SIGVTALRM and SIGPROF (a plugin's CPU
timers), SIGIO, SIGPWR, SIGSYS, SIGTRAP, SIGSTKFLT and the real-time signals killed mdp
mid-write by the signal, and left ``.q.csv.zgflzjdd``."""

import functools
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from models import WALK

from mdp.errors import TERMINATIONS

# Left out of the class by what they are, not by what they do here: the faults of the
# process's own code, which a handler would return to, and the two Python ignores itself
# (a write fails instead, said as an error).
FAULTS = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGIOT", "SIGEMT"}
IGNORED_BY_PYTHON = {"SIGPIPE", "SIGXFSZ"}


def _ends_the_process(number: int) -> bool:
    """Whether ``number`` at its default ends a process: a child sends it to itself and is
    watched (killed by it, or else it stopped, or went on: ignored)."""
    pid = os.fork()
    if pid == 0:  # the child: the default, the signal, and an ordinary end if it lives
        try:
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
            os.kill(os.getpid(), number)
            time.sleep(0.05)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == number


def _named(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


@functools.cache
def _ending() -> list[int]:
    """The class, found by watching each signal's default, not from mdp."""
    catchable = set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP, signal.SIGINT}
    left = {getattr(signal, name) for name in FAULTS | IGNORED_BY_PYTHON if hasattr(signal, name)}
    return sorted(int(n) for n in catchable - left if _ends_the_process(n))


pytestmark = pytest.mark.skipif(not hasattr(os, "fork"),
                                reason="the defaults are watched in a forked child")


@pytest.mark.slow  # a child process per signal
def test_the_terminations_are_every_signal_whose_default_ends_the_process():
    assert {_named(n) for n in TERMINATIONS} == {_named(n) for n in _ending()}
    # the ones round 18 named, among them where the platform has them
    for name in ("SIGTERM", "SIGHUP", "SIGXCPU", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR",
                 "SIGSYS", "SIGTRAP", "SIGRTMIN", "SIGRTMAX"):
        assert not hasattr(signal, name) or getattr(signal, name) in TERMINATIONS, name


# A format whose writer, halfway through its file, is sent the signal SIGNAL names.
FORMAT = '''
import os
import mdp

def _write(frame, file):
    frame.write_csv(file)
    os.kill(os.getpid(), int(os.environ["SIGNAL"]))
    frame.write_csv(file)

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("slowcsv", (".slow",), _write, "a CSV written twice")]
'''

# Every signal, one command each, in one process (mdp run as from Python, once a signal).
SWEEP = '''
import json, os, sys
from mdp.program import main
codes = {}
for number in json.loads(sys.argv[1]):
    os.environ["SIGNAL"] = str(number)
    codes[number] = [main(["policy", "../game.py", "-p", "../format.py", "--out", "t.slow"]),
                     sorted(os.listdir("."))]
print(json.dumps(codes))
'''


@pytest.mark.slow  # a process of mdp, a command per signal
def test_every_termination_during_a_write_is_an_interruption_that_leaves_nothing(tmp_path):
    (tmp_path / "game.py").write_text(WALK.replace("WORTH", "3"))
    (tmp_path / "format.py").write_text(FORMAT)
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([sys.executable, "-c", SWEEP, json.dumps(_ending())],
                          cwd=work, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    codes = json.loads(done.stdout)
    assert {_named(int(n)): result for n, result in codes.items()} == \
        {_named(n): [130, []] for n in _ending()}
    assert done.stderr.splitlines() == ["mdp: interrupted"] * len(_ending())
