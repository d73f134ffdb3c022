"""No file the command has imported, or read while importing, is a target: the file of a
plugin of the program given with -p, the helper module a game or plugin imports from beside
it, a data file it reads as it is imported, and any module loaded (mdp's own) are each
refused as the output of every option that writes a file, in one line of its own, before
any work, and nothing is written. Before, --out onto a program plugin, a plugin's helper or
a file a plugin read at import replaced the user's source with the table."""

import itertools
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
REFUSED = ", a file the command reads; name another file to write\n"

WRITERS = [  # a command with the option that writes {target}
    ["policy", "{game}", "{plugin}", "--format", "csv", "--out", "{target}"],
    ["distribution", "{game}", "{plugin}", "--format", "csv", "--out", "x.csv", "--plot", "{target}"],
    ["report", "{game}", "{plugin}", "--out", "{target}"],
    ["export", "{game}", "{plugin}", "-o", "{target}"],
]

PLUGINS = {  # a plugin's hooks, by its kind
    "rule": "GAME = 'reroll'\n\n@mdp.hookimpl\ndef mdp_describe(params):\n    return 'described'\n",
    "program": "@mdp.hookimpl\ndef mdp_formats():\n    return []\n",
}

_NUMBERS = itertools.count()


@pytest.fixture
def no_compile(monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.sampled_from(WRITERS), kind=st.sampled_from(["game", *PLUGINS]),
       target=st.sampled_from(["importer", "helper", "data"]), absolute=st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_no_file_imported_or_read_at_import_is_a_target(
        tmp_path_factory, monkeypatch, capsys, no_compile, argv, kind, target, absolute):
    # The file (a game, a rule plugin, a program plugin) imports a helper beside it and reads
    # a data file at its import; each of the three is one the command reads.
    assume("--plot" not in argv or target == "data")  # a plot is written as .png or .svg
    folder = tmp_path_factory.mktemp("imported")
    monkeypatch.chdir(folder)
    number = next(_NUMBERS)
    helper, data = f"helper_{number}", f"data_{number}.svg"  # a plot's name
    (folder / f"{helper}.py").write_text("VALUE = 7\n")
    (folder / data).write_text("9\n")
    top = f"import mdp\nimport {helper}\nDATA = open({str(folder / data)!r}).read()\n"
    shutil.copy(ROOT / "docs" / "examples" / "reroll.py", folder / "reroll.py")
    if kind == "game":
        game = folder / "reroll.py"
        game.write_text(top + game.read_text())
        importer, plugin = "reroll.py", []
    else:
        importer = f"plugin_{number}.py"
        (folder / importer).write_text(top + PLUGINS[kind])
        plugin = ["-p", importer]
    name = {"importer": importer, "helper": f"{helper}.py", "data": data}[target]
    named = str(folder / name) if absolute else name
    kept = {path: path.read_bytes() for path in folder.iterdir()}
    given = [part for a in argv
             for part in (plugin if a == "{plugin}" else [a.format(game="reroll.py", target=named)])]
    assert main(given) == 2
    err = capsys.readouterr().err
    option = {"-o": "--out"}.get(option := argv[argv.index("{target}") - 1], option)
    assert err.startswith(f"mdp: error: {option} {named} ") and err.count("\n") == 1, err
    assert err.endswith(REFUSED) or err.endswith(", which the command reads; name another file "
                                                 "to write\n"), err
    assert "cannot import" not in err
    assert {path: path.read_bytes() for path in folder.iterdir()} == kept


def test_a_module_loaded_is_no_target(tmp_path, monkeypatch, capsys, no_compile):
    # mdp's own files: a hard link to one names the same file (replacing the link would
    # leave mdp as it is, should the refusal fail).
    monkeypatch.chdir(tmp_path)
    try:
        os.link(mdp.__file__, tmp_path / "own.py")
    except OSError:
        pytest.skip("no hard link from here to mdp's folder")
    assert main(["policy", "shutbox", "--set", "tiles=1-3", "--format", "csv",
                 "--out", "own.py"]) == 2
    assert capsys.readouterr().err == f"mdp: error: --out own.py names {mdp.__file__}{REFUSED}"
    assert os.path.samefile(tmp_path / "own.py", mdp.__file__)


def test_a_game_s_helper_refused_is_not_said_as_an_import_failure(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    number = next(_NUMBERS)
    (tmp_path / f"ghelp_{number}.py").write_text("VALUE = 7\n")
    game = (ROOT / "docs" / "examples" / "reroll.py").read_text()
    (tmp_path / "gfile.py").write_text(f"import ghelp_{number}\n" + game)
    assert main(["policy", "gfile.py", "--format", "csv", "--out", f"ghelp_{number}.py"]) == 2
    assert capsys.readouterr().err == (f"mdp: error: --out ghelp_{number}.py names "
                                       f"{tmp_path / f'ghelp_{number}.py'}{REFUSED}")
    assert main(["policy", "gfile.py", "--format", "csv", "--out", "other.csv"]) == 0
    assert (tmp_path / f"ghelp_{number}.py").read_text() == "VALUE = 7\n"
