"""A KeyboardInterrupt that a program plugin's hook raises of itself, as the commands are
collected, is the plugin's fault (exit code 2), never the user's Ctrl-C (exit code 130):
round 18, ``mdp_analyses`` and ``mdp_exports`` raising it gave ``mdp: interrupted``, 130.
Every hook of the program (:mod:`mdp.hookspecs.program`) in turn; and a plugin command's
change to the process is blamed on the command's plugin, not on the game it loaded."""

import os
import subprocess
import sys

import pytest
from models import WALK

from mdp.hookspecs import program

pytestmark = pytest.mark.slow  # a process each

HOOKS = sorted(name for name in dir(program) if name.startswith("mdp_"))

# A plugin that implements every hook of the program, the one HOOK names raising.
PLUGIN = '''
import os
import mdp

def _raise(hook):
    if os.environ.get("HOOK") == hook:
        raise KeyboardInterrupt

''' + "".join(f'''
@mdp.hookimpl
def {hook}():
    _raise("{hook}")
    return []
''' for hook in HOOKS)


def _mdp(tmp_path, *args, **env):
    return subprocess.run([sys.executable, "-m", "mdp.program.cli", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env={**os.environ, **env})


@pytest.mark.parametrize("hook", HOOKS)
def test_a_program_hook_that_raises_keyboard_interrupt_is_the_plugins_fault(tmp_path, hook):
    (tmp_path / "game.py").write_text(WALK.replace("WORTH", "3"))
    (tmp_path / "plugin.py").write_text(PLUGIN)
    command = "export" if hook == "mdp_exports" else "policy"  # (policy asks no exports)
    done = _mdp(tmp_path, command, "game.py", "-p", "plugin.py", "--out", "p.csv", HOOK=hook)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("mdp: error: ") and \
        f"{hook} raised KeyboardInterrupt" in line, line
    assert "interrupted" not in line.replace("no one interrupted", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.py", "plugin.py"]


# A plugin command that loads the game, then makes the change.
COMMAND = '''
import os, signal
import mdp
from mdp.program.arguments import add_game_arguments, load

def _run(args):
    load(args)
    CHANGE

def _arguments(parser):
    add_game_arguments(parser)

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("rules", "the rules", _run, _arguments)]
'''
CHANGES = ["os.chdir('..')", "os.umask(0o777)", "signal.signal(signal.SIGPIPE, signal.SIG_DFL)"]


@pytest.mark.parametrize("change", CHANGES)
def test_a_plugin_commands_change_to_the_process_is_blamed_on_its_plugin(tmp_path, change):
    (tmp_path / "game.py").write_text(WALK.replace("WORTH", "3"))
    (tmp_path / "cmd.py").write_text(COMMAND.replace("CHANGE", change))
    done = _mdp(tmp_path, "rules", "game.py", "-p", "cmd.py")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("mdp: error: plugin cmd.py's command rules "), done.stderr
    assert "game walk" not in done.stderr
