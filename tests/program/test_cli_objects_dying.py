"""A game's object whose ``__del__`` raises is one line of warning wherever it dies: during
the work, and as the command's last references to it go, after its answer (round 23: there
it was Python's traceback, mdp's own hook already given back)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a process per command
ROOT = Path(__file__).resolve().parents[2]

GAME = '''
import mdp

class State:
    def __init__(self, n):
        self.n = n
    def __eq__(self, other):
        return isinstance(other, State) and other.n == self.n
    def __hash__(self):
        return hash(self.n)
    def __del__(self):
        raise RuntimeError("del")

@mdp.hookimpl
def mdp_initial_state():
    return State(0)

@mdp.hookimpl
def mdp_actions(state):
    return [] if state.n >= 2 else ["on"]

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, State(state.n + 1))]

@mdp.hookimpl
def mdp_terminal_value(state):
    return state.n
'''


@pytest.mark.parametrize("command", [["solve"], ["policy", "--out", "p.csv"], ["advise", "n=0"]])
def test_a_state_that_raises_as_it_dies_is_a_line_of_warning(tmp_path, command):
    (tmp_path / "dying.py").write_text(GAME)
    done = subprocess.run([sys.executable, "-m", "mdp", command[0], "dying.py",
                           *command[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("mdp: ") or line.endswith(" written to p.csv")
                         for line in lines), done.stderr
    assert "mdp: warning: game dying: Exception ignored in State.__del__: RuntimeError: del" in lines


# Libraries with callbacks of their own at exit, that a game or plugin may be the first to
# import: they are not the game's, and are left whole for their callbacks (round 28: "import
# logging" in a game gave "Exception ignored in _removeHandlerRef: NameError: name
# '_acquireLock' is not defined", blamed on the game).
LIBRARIES = """
import asyncio, concurrent.futures, logging, multiprocessing, tempfile
import polars
logging.getLogger("mine").addHandler(logging.StreamHandler())
with concurrent.futures.ThreadPoolExecutor(1) as pool:
    pool.submit(int).result()
"""


@pytest.mark.parametrize("where", ["game", "plugin"])
def test_a_library_a_game_imports_first_is_not_let_go_with_it(tmp_path, where):
    (tmp_path / "reroll.py").write_text((LIBRARIES if where == "game" else "") +
                                        (ROOT / "docs" / "examples" / "reroll.py").read_text())
    (tmp_path / "mine.py").write_text(LIBRARIES + "import mdp\n@mdp.hookimpl\ndef mdp_analyses():"
                                      "\n    return []\n")
    plugin = ["-p", "mine.py"] if where == "plugin" else []
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", "reroll.py", *plugin],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
