"""``mdp games`` lists each game with the first line of its docstring, under ``python -OO``
too (round 24: PYTHONOPTIMIZE=2 drops docstrings, and every description was empty)."""

import json
import os
import subprocess
import sys

import pytest


@pytest.mark.slow  # two processes: the optimisation is read as Python starts
def test_games_are_described_whatever_python_drops():
    def listed(**env):
        done = subprocess.run([sys.executable, "-m", "mdp", "games", "--json"], capture_output=True,
                              text=True, timeout=120, env={**os.environ, **env})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    plain = listed()
    assert all(row["description"] for row in plain)
    assert listed(PYTHONOPTIMIZE="2") == plain
