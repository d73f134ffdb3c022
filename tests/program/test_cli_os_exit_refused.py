"""``os._exit`` called from any game or plugin code that runs in a command is refused in one
line, exit code 2, naming whose code it was, and nothing is written: round 18, a hook's
``os._exit(0)`` ended mdp with status 0, no ``--out`` file and nothing said. A child process
that the code forks still ends with its own ``os._exit``."""

import subprocess
import sys

import pytest
from models import WALK

pytestmark = pytest.mark.slow  # a process each

# The game: walk away with 3 (by hand), its hook ending the process where WHERE says.
GAME = WALK.replace("import mdp", "import os\nimport mdp\nif os.environ['WHERE'] == 'import':\n"
                    "    os._exit(0)").replace(
    '    return {"walk": WORTH',
    '    if os.environ["WHERE"] == "hook":\n        os._exit(0)\n    return {"walk": 3')

# A program plugin: a command, an analysis and a format, each ending the process where asked.
PLUGIN = '''
import os
import mdp


def _end(where):
    if os.environ["WHERE"] == where:
        os._exit(0)


def _run(args):
    _end("command")
    print("never")


def _answer(solution, game):
    _end("analysis")
    return mdp.policy(solution, game)


def _write(frame, file):
    _end("format")
    frame.write_csv(file)


@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("ends", "ends the process", _run)]


@mdp.hookimpl
def mdp_analyses():
    _end("analyses")
    return [mdp.Analysis("ending", "ends the process", _answer)]


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("endcsv", (".end",), _write, "a CSV, or the end")]
'''

ARGS = ["policy", "game.py", "-p", "plugin.py", "--out", "p.end"]
PLACES = {  # where, the command run, and who the line names
    "import": (ARGS, "cannot import the game at"),
    "hook": (ARGS, "game walk: mdp_terminal_value"),
    "command": (["ends", "-p", "plugin.py"], "plugin plugin.py's command ends"),
    "analysis": (["ending", "game.py", "-p", "plugin.py", "--out", "a.csv"],
                 "plugin.py's analysis ending"),
    "format": (ARGS, "plugin.py's format endcsv"),
    "analyses": (ARGS, "mdp_analyses"),
}


@pytest.mark.parametrize("where", PLACES)
def test_os_exit_in_game_or_plugin_code_is_refused(tmp_path, where):
    (tmp_path / "game.py").write_text(GAME)
    (tmp_path / "plugin.py").write_text(PLUGIN)
    args, who = PLACES[where]
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "WHERE": where})
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("mdp: error: ") and who in line, line
    assert "os._exit(0), which is refused: the exit code is mdp's" in line, line
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".pyc" and
                  p.name != "__pycache__") == ["game.py", "plugin.py"]


FORKS = WALK.replace("import mdp", "import os\nimport mdp").replace(
    '    return {"walk": WORTH',
    '    pid = os.fork()\n    if pid == 0:\n        os._exit(3)\n'
    '    return {"walk": os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])')


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="a child forked")
def test_a_child_forked_by_a_hook_ends_with_its_own_os_exit(tmp_path):
    # The value is the child's exit code, 3: it ended as it asked, the refusal being the
    # command's process's alone.
    (tmp_path / "game.py").write_text(FORKS)
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "solve", "game.py", "--exact"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "exact: 3/1" in done.stdout.splitlines()
