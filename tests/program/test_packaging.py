"""What `pip install .` puts in site-packages, and how the program starts."""

import os
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import mdp

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_installed_under_its_unique_name():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = config["package-dir"]
    assert folders == {"mdp": "mdp", "mdp_games": "games", "mdp_plugins": "plugins"}
    found = {
        ".".join([name, *path.relative_to(ROOT / folder).parent.parts])
        for name, folder in folders.items()
        for path in (ROOT / folder).rglob("__init__.py")
    }
    assert sorted(config["packages"]) == sorted(found)


@pytest.mark.slow
def test_the_wheel_installs_no_top_level_name_but_mdp_and_its_two_packages(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                           "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("exact_mdp-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"mdp", "mdp_games", "mdp_plugins"}
    assert "mdp_games/shutbox/variants.toml" in names
    assert "mdp/outputs/report.html" in names  # the page of mdp report, package data
    assert "mdp/py.typed" in names  # the annotations are part of the package (PEP 561)


@pytest.mark.slow
def test_a_command_runs_where_nothing_imported_the_import_machinery_before_it(tmp_path):
    # An installed mdp (not editable) starts without the editable install's finder, which
    # imports importlib.util at start-up: mdp's audit hook of the files a command reads ran
    # in the midst of that module's first import, and every command, the README's first
    # too, ended in a circular import's traceback. python -S starts so: the three packages
    # under their installed names and the dependencies on the path, no .pth file run
    # (checked, or the test would prove nothing).
    for name, folder in {"mdp": "mdp", "mdp_games": "games", "mdp_plugins": "plugins"}.items():
        (tmp_path / name).symlink_to(ROOT / folder)
    code = (f"import sys; sys.path[:0] = {[str(tmp_path), *site.getsitepackages()]!r}; "
            "assert 'importlib.util' not in sys.modules; "
            "from mdp.program.cli import main; sys.exit(main(['solve', 'games/shutbox']))")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "chance of shutting the box: 9.7614%" in done.stdout  # the published figure


def test_python_dash_m_mdp_works_like_mdp(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", "shutbox", "--set", "tiles=1-6",
                           "--set", "dice=1", "--exact", "--json"],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert '"exact": "145/1944"' in done.stdout


def test_the_distribution_names_its_licence_and_version(tmp_path):
    # What pip show reports: the licence (MIT, the LICENSE file shipped), the version, and
    # mdp.__version__ and mdp --version (on standard output) agree with it.
    from importlib.metadata import metadata

    meta = metadata("exact-mdp")
    assert meta["License-Expression"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert mdp.__version__ == meta["Version"]
    done = subprocess.run([sys.executable, "-m", "mdp", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"mdp {meta['Version']}\n", "")


@pytest.mark.slow
@pytest.mark.parametrize("scoring", ["win", "score", "digital"])
def test_a_game_loaded_from_another_folder_takes_the_installed_plugins_rules(tmp_path, capsys, scoring):
    # As `pip install . && mdp solve games/shutbox` does: the game loaded from the repository's
    # folder, its installed plugins (digital's scoring rule) importing the installed
    # mdp_games.shutbox: one file, two modules, two ScoringRule classes. The rule was refused
    # as "not a ScoringRule", and the Quick start's first command failed.
    from mdp.program.cli import main

    shutil.copytree(ROOT / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__"))
    assert main(["solve", str(tmp_path / "games" / "shutbox"), "--set", f"scoring={scoring}"]) == 0
    assert "6,184 states" in capsys.readouterr().out
