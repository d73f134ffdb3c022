"""A target that names a module of an installed game or plugin, imported as the command
runs, is refused in the plain line every file the command reads gets: it was "cannot import
mdp_games.shutbox: ParamError: ...", a healthy game or plugin blamed, the refusal's class
named. Nothing is written."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a process per case

MDP = [sys.executable, "-m", "mdp.program.cli"]
ROOT = Path(__file__).resolve().parents[2]

# Modules the command imports: the game's package, a module of it, an installed plugin's.
MODULES = ["games/shutbox/__init__.py", "games/shutbox/one_die.py", "plugins/shutbox_doubles.py"]
COMMANDS = {
    "policy": ["policy", "shutbox", "--set", "tiles=1-3", "--format", "csv", "--out"],
    "solve --vary": ["solve", "shutbox", "--vary", "tiles=1-3,1-4", "--format", "csv", "--out"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("module", MODULES)
def test_a_module_of_an_installed_game_or_plugin_is_refused_plainly(tmp_path, module, command):
    target = ROOT / module
    before = hashlib.sha256(target.read_bytes()).hexdigest()
    done = subprocess.run([*MDP, *COMMANDS[command], str(target)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == (f"mdp: error: --out {target} names {target}, a file the command reads; "
                           "name another file to write\n")
    assert hashlib.sha256(target.read_bytes()).hexdigest() == before
    assert list(tmp_path.iterdir()) == []
