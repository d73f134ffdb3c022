"""``mdp games`` lists each game with the first line of its docstring, under ``python -OO``
too (round 24: PYTHONOPTIMIZE=2 drops docstrings, and every description was empty), read in
the encoding its source declares (round 25: a latin-1 source gave none), its control
characters as escapes (round 25: an installed game's escape sequence coloured the terminal,
its backspace ate a letter)."""

import json
import os
import subprocess
import sys

import pytest
from models import WALK

# An installed game: a module beside an entry_points.txt, as pip leaves them.
SOURCE = b'# -*- coding: latin-1 -*-\n"""Caf\xe9 \x1b[31mred\x1b[0m,\x07 bell\x08over."""\n'


@pytest.mark.slow  # four processes: the optimisation is read as Python starts
def test_games_are_described_whatever_python_drops(tmp_path):
    (tmp_path / "odd_game.py").write_bytes(SOURCE + WALK.encode("ascii"))
    info = tmp_path / "odd_game-0.1.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[mdp.games]\nodd = odd_game\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))

    def listed(*options, **env):
        done = subprocess.run([sys.executable, "-m", "mdp", "games", *options], capture_output=True,
                              text=True, timeout=120, env={**os.environ, "PYTHONPATH": path, **env})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if options else done.stdout

    plain = listed("--json")
    assert all(row["description"] for row in plain)
    assert {"name": "odd", "description": "Café \x1b[31mred\x1b[0m,\x07 bell\x08over."} in plain
    assert listed("--json", PYTHONOPTIMIZE="2") == plain
    for lines in (listed(), listed(PYTHONOPTIMIZE="2")):
        [odd] = [line for line in lines.splitlines() if line.startswith("odd ")]
        assert odd.split(None, 1)[1] == "Café \\x1b[31mred\\x1b[0m,\\x07 bell\\x08over."
