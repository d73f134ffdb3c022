"""A second signal (Ctrl-C, SIGTERM, SIGHUP) while mdp handles the first, or while it starts,
is ignored: one line, ``mdp: interrupted``, exit code 130, never a traceback (round 19: two
Ctrl-C a millisecond apart gave a ``KeyboardInterrupt`` traceback, ``mdp: interrupted`` twice
on one line, or, with SIGTERM second, death by SIGTERM). The process sends both to itself:
the first as it imports one of the modules of its start or of its command, generated; the
second at once after it (taken while the first is on its way out), or as mdp says the line."""

import os
import signal
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

TWICE = '''
import builtins, os, signal, sys
import mdp.program

first, second, module, when = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
real = builtins.__import__
sent = []


def importing(name, *args, **kwargs):
    if name == module and not sent:
        sent.append(name)
        os.kill(os.getpid(), first)
        if when == "at once":
            os.kill(os.getpid(), second)
    return real(name, *args, **kwargs)


class Saying:  # standard error, which sends the second signal as the line is said
    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        if when == "saying" and "interrupted" in text:
            os.kill(os.getpid(), second)
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


sys.stderr = Saying(sys.stderr)
builtins.__import__ = importing
sys.argv = ["mdp", "solve", "shutbox", "--set", "tiles=1-3"]
code = mdp.program.main()
sys.exit(code if sent else 99)  # 99: the module was not imported, no signal sent
'''
# of its start (before the command line watches Ctrl-C), and of its command
MODULES = ["mdp.program.stdout", "mdp.program.cli", "argparse", "mdp.game.load",
           "mdp.engine.parallel"]
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SIGNALS), st.sampled_from(SIGNALS), st.sampled_from(MODULES),
       st.sampled_from(["at once", "saying"]))
def test_a_second_signal_is_ignored(first, second, module, when):
    done = subprocess.run([sys.executable, "-c", TWICE, str(int(first)), str(int(second)), module, when],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert (done.returncode, done.stderr) == (130, "mdp: interrupted\n")


def test_after_a_command_interrupted_in_python_a_signal_interrupts_again(monkeypatch, capsys):
    # mdp used from Python (main(argv)): the interruption taken is the command's alone; the
    # next signal interrupts what runs next, not ignored as the first command's second.
    from mdp.errors import terminations_interrupt
    from mdp.program import arguments, main

    def load(*args, **kwargs):
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(arguments, "load", load)
    assert main(["solve", "shutbox"]) == 130
    assert capsys.readouterr().err == "mdp: interrupted\n"
    with terminations_interrupt(), pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGTERM)
