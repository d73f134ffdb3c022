"""A hook that forks (``os.fork``): the child ran on from where the hook returned and
finished mdp's command too, two JSON objects on standard output, both processes writing the
``--out`` file, exit 0 (round 19, F26). The child now ends, with no word and no file, where
it comes back into mdp (a check of the process, a write); the command that started goes on
alone: one answer, the right one."""

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a process each

# A coin: flip (1 at 1/2, by hand) or pass (0): value 1/2. The fork where WHERE says, once.
GAME = '''
import os
import mdp

def _fork(where):
    if os.environ["WHERE"] == where and not os.environ.get("FORKED"):
        os.environ["FORKED"] = "1"
        if os.fork() == 0:
            open(os.environ["CHILD"], "w").write("forked")  # the child was made

_fork("import")

@mdp.hookimpl
def mdp_describe(params):
    _fork("mdp_describe")
    return "a coin"

@mdp.hookimpl
def mdp_initial_state(params):
    _fork("mdp_initial_state")
    return "start"

@mdp.hookimpl
def mdp_actions(params, state):
    _fork("mdp_actions")
    return ["flip", "pass"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(params, state, action):
    return [(0.5, "won"), (0.5, "lost")] if action == "flip" else [(1, "lost")]

@mdp.hookimpl
def mdp_terminal_value(params, state):
    _fork("mdp_terminal_value")
    return 1 if state == "won" else 0

@mdp.hookimpl
def mdp_state_columns(params, state):
    _fork("mdp_state_columns")
    return {"at": state}
'''


@pytest.mark.parametrize("where", ["import", "mdp_describe", "mdp_initial_state", "mdp_actions",
                                   "mdp_terminal_value", "mdp_state_columns"])
@pytest.mark.parametrize("command", [["solve", "GAME", "--json"],
                                     ["policy", "GAME", "--out", "p.csv", "--json"]])
def test_a_hook_that_forks_gets_one_answer_from_the_command(tmp_path, where, command):
    game = tmp_path / "coin.py"
    game.write_text(GAME)
    words = [str(game) if word == "GAME" else word for word in command]
    env = {"WHERE": where, "CHILD": str(tmp_path / "child"), "PATH": "", "PYTHONPATH": ""}
    done = subprocess.run([sys.executable, "-m", "mdp", *words], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    forked = (tmp_path / "child").exists()
    assert forked or where == "mdp_state_columns" and command[0] == "solve"  # (solve shows none)
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout  # one answer, not the child's too
    said = json.loads(lines[0])
    if command[0] == "solve":
        assert said["value"] == 0.5  # flip: 1 at 1/2
    else:
        assert said["out"] == "p.csv"
        # a header, a row for each action of the one state that is not terminal
        assert (tmp_path / "p.csv").read_text().count("\n") == 3
    # no temporary file of a writer that the child left half done
    assert {p.name for p in tmp_path.iterdir()} <= {"coin.py", "__pycache__", "child", "p.csv"}
