"""SIGTERM or SIGHUP while mdp starts is an interruption like Ctrl-C: one line, "mdp:
interrupted", exit code 130, not the operating system's 143 or 129 with no word (the handlers
were set only once the command ran, about 0.3 s in). The signal is sent by the process to
itself as it imports one of the modules of its start, generated; an ignored one (nohup)
stays ignored."""

import os
import signal
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

STARTED = '''
import builtins, os, signal, sys
import mdp.program

number, module, ignored = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
if ignored:
    signal.signal(number, signal.SIG_IGN)
real = builtins.__import__
sent = []


def importing(name, *args, **kwargs):
    if name == module and not sent:
        sent.append(name)
        os.kill(os.getpid(), number)
    return real(name, *args, **kwargs)


builtins.__import__ = importing
code = mdp.program.main(["solve", "shutbox", "--set", "tiles=1-3"])
sys.exit(code if sent else 99)  # 99: the module was not imported, no signal sent
'''
MODULES = ["mdp.program.stdout", "mdp.program.cli", "argparse", "numpy",
           "mdp.program.arguments", "mdp.game.load", "mdp.engine.parallel"]


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.sampled_from([signal.SIGTERM, signal.SIGHUP]), st.sampled_from(MODULES), st.booleans())
def test_a_termination_while_mdp_starts_is_an_interruption(number, module, ignored):
    done = subprocess.run([sys.executable, "-c", STARTED, str(int(number)), module, str(int(ignored))],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if ignored:
        assert done.returncode == 0 and done.stderr == "", done.stderr
    else:
        assert (done.returncode, done.stderr) == (130, "mdp: interrupted\n")
