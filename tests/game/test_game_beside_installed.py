"""A game kept in a folder that also holds installed packages (a virtual environment made
beside it, ``project/game.py`` and ``project/.venv/``, the common layout) loads and solves:
the modules taken out of ``sys.modules`` after a game's file is imported are the ones found
beside it (its helpers, imported afresh with it), never an installed package whose files
happen to lie below the same folder (U35-17: numpy's modules loaded as the game imported it
were taken out, and every command ended in two tracebacks, exit 1). Helpers beside two
games are still each their own."""

import sys

from mdp.program.cli import main

GAME = '''import mdp
import installed_here
from helper import POINTS

GAME_NAME = "{name}"


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return ["stop"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "end")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return POINTS + installed_here.sub.BONUS
'''


def test_an_installed_package_below_the_games_folder_stays_loaded(tmp_path, capsys, monkeypatch):
    site = tmp_path / "project" / ".venv" / "lib" / "site-packages"
    (site / "installed_here").mkdir(parents=True)
    (site / "installed_here" / "__init__.py").write_text("from . import sub\n")
    (site / "installed_here" / "sub.py").write_text("BONUS = 100\n")
    monkeypatch.syspath_prepend(str(site))
    for folder, points in (("project", 1), ("other", 2)):  # two games, a helper.py each
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "game.py").write_text(GAME.format(name=f"{folder}-game"))
        (tmp_path / folder / "helper.py").write_text(f"POINTS = {points}\n")
    monkeypatch.delitem(sys.modules, "installed_here", raising=False)
    monkeypatch.delitem(sys.modules, "installed_here.sub", raising=False)
    assert main(["solve", str(tmp_path / "project" / "game.py"), "--exact"]) == 0
    assert "exact: 101" in capsys.readouterr().out
    assert "installed_here" in sys.modules and "installed_here.sub" in sys.modules
    assert "helper" not in sys.modules  # the game's own helper, imported afresh with it
    assert main(["solve", str(tmp_path / "other" / "game.py"), "--exact"]) == 0
    assert "exact: 102" in capsys.readouterr().out
