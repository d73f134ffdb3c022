"""What a game prints after mdp's answer (from an exit callback, a ``__del__``, a
``weakref.finalize``, a thread still running as the program ends) goes to standard error:
standard output holds the answer alone (round 18, P3: it ended the JSON on stdout)."""

import json
import subprocess
import sys

import pytest

GAME = '''
import atexit, os, sys, threading, time, weakref
import mdp

class Noisy:
    def __del__(self):
        print("NOISE del")

class Kept:
    pass

KEPT = [Noisy(), Kept()]
atexit.register(lambda: print("NOISE atexit"))
weakref.finalize(KEPT[1], print, "NOISE finalize")
threading.Thread(target=lambda: (time.sleep(0.3), print("NOISE thread"))).start()
atexit.register(lambda: os.write(1, b"NOISE descriptor\\n"))


@mdp.hookimpl
def mdp_initial_state():
    return 0

@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state == 0 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, 1)]

@mdp.hookimpl
def mdp_terminal_value(state):
    return 1
'''


@pytest.mark.slow  # a process
@pytest.mark.parametrize("argv", [["solve", "late.py", "--json"], ["policy", "late.py"]])
def test_what_a_game_prints_after_the_answer_goes_to_standard_error(tmp_path, argv):
    (tmp_path / "late.py").write_text(GAME)
    done = subprocess.run([sys.executable, "-m", "mdp", *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "NOISE" not in done.stdout
    if argv[-1] == "--json":
        assert json.loads(done.stdout)["value"] == 1  # the one terminal value, 1
    else:  # the policy table: its header and the one row of state 0
        assert len(done.stdout.splitlines()) == 2
    said = sorted(line for line in done.stderr.splitlines() if line.startswith("NOISE"))
    assert said == ["NOISE atexit", "NOISE del", "NOISE descriptor", "NOISE finalize",
                    "NOISE thread"]
