"""A game kept in a folder that also holds installed packages (a virtual environment made
beside it, ``project/game.py`` and ``project/.venv/``, the common layout) loads and solves:
the modules taken out of ``sys.modules`` after a game's file is imported are the ones found
beside it (its helpers, imported afresh with it), never an installed package whose files
happen to lie below the same folder (U35-17: numpy's modules loaded as the game imported it
were taken out, and every command ended in two tracebacks, exit 1). Helpers beside two
games are still each their own."""

import sys

from models import ONE_MOVE

from mdp.program.cli import main

IMPORTS = "import installed_here\nfrom helper import POINTS\n"


def test_an_installed_package_below_the_games_folder_stays_loaded(tmp_path, capsys, monkeypatch):
    site = tmp_path / "project" / ".venv" / "lib" / "site-packages"
    (site / "installed_here").mkdir(parents=True)
    (site / "installed_here" / "__init__.py").write_text("from . import sub\n")
    (site / "installed_here" / "sub.py").write_text("BONUS = 100\n")
    monkeypatch.syspath_prepend(str(site))
    for folder, points in (("project", 1), ("other", 2)):  # two games, a helper.py each
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "game.py").write_text(ONE_MOVE.format(
            imports=IMPORTS, name=f"{folder}-game", value="POINTS + installed_here.sub.BONUS"))
        (tmp_path / folder / "helper.py").write_text(f"POINTS = {points}\n")
    try:
        assert main(["solve", str(tmp_path / "project" / "game.py"), "--exact"]) == 0
        assert "exact: 101" in capsys.readouterr().out
        assert "installed_here" in sys.modules and "installed_here.sub" in sys.modules
        assert "helper" not in sys.modules  # the game's own helper, imported afresh with it
        assert main(["solve", str(tmp_path / "other" / "game.py"), "--exact"]) == 0
        assert "exact: 102" in capsys.readouterr().out
    finally:  # (the package is this test's alone)
        for name in ("installed_here.sub", "installed_here"):
            sys.modules.pop(name, None)
