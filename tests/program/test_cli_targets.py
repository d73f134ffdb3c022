"""The files a command writes are one set of distinct files, none of them a file it reads:
two targets that are the same file (by one name twice, two spellings, a link or a hard
link), or a target that is the game's or a plugin's file, are refused in one line before
any work, and nothing is written."""

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
KEPT = b"kept as it was\n"


@pytest.fixture
def no_compile(monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)


def _spelling(folder: Path, name: str, how: str) -> str:
    """Another name of the file ``folder/name``: as given, through ./ or sub/.., absolute,
    through a symbolic link, or a hard link (the file exists then)."""
    target = folder / name
    if how == "same":
        return name
    if how == "dot":
        return f"./{name}"
    if how == "up":
        (folder / "sub").mkdir(exist_ok=True)
        return f"sub/../{name}"
    if how == "absolute":
        return str(target)
    link = folder / f"link-{how}-{name}"
    if how == "symlink":
        link.unlink(missing_ok=True)
        link.symlink_to(name)
    else:  # a hard link needs the file
        if not target.exists():
            target.write_bytes(KEPT)
        link.unlink(missing_ok=True)
        os.link(target, link)
    return link.name


COMMANDS = {  # what writes a table and a picture: the arguments before the targets
    "distribution": ["distribution", "shutbox", "--set", "tiles=1-4", "--format", "csv"],
    "simulate": ["simulate", "shutbox", "--set", "tiles=1-4", "--games", "5", "--seed", "1",
                 "--format", "csv"],
}


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(COMMANDS)), extension=st.sampled_from(["png", "svg"]),
       how=st.sampled_from(["same", "dot", "up", "absolute", "symlink", "hardlink"]),
       exists=st.booleans(), plot_first=st.booleans())
def test_out_and_plot_naming_one_file_are_refused_before_any_work(
        tmp_path_factory, monkeypatch, capsys, no_compile, command, extension, how, exists,
        plot_first):
    folder = tmp_path_factory.mktemp("targets")
    monkeypatch.chdir(folder)
    name = f"picture.{extension}"
    if exists:
        (folder / name).write_bytes(KEPT)
    other = _spelling(folder, name, how)
    out, plot = (other, name) if plot_first else (name, other)
    before = sorted(p.name for p in folder.iterdir())
    assert main([*COMMANDS[command], "--out", out, "--plot", plot]) == 2
    err = capsys.readouterr().err
    # Each file as it was named: the same name twice too (the picture's was left out).
    assert err in (f"mdp: error: --out {out} and --plot {plot} name the same file; give each a "
                   "file of its own\n", f"mdp: error: --plot {plot} and --out {out} name the same "
                   "file; give each a file of its own\n"), err
    assert err.count("\n") == 1
    assert sorted(p.name for p in folder.iterdir()) == before  # no temporary file left
    if (folder / name).exists():
        assert (folder / name).read_bytes() == KEPT


@pytest.mark.slow
def test_distinct_targets_are_both_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*COMMANDS["distribution"], "--out", "table.svg", "--plot", "picture.svg"]) == 0
    assert (tmp_path / "table.svg").read_text().startswith("shut_sum,open_sum,probability\n")
    assert (tmp_path / "picture.svg").read_bytes().lstrip().startswith(b"<?xml")


GAME_COMMANDS = [
    ["policy", "{game}", "--format", "csv", "--out", "{target}"],
    ["distribution", "{game}", "--format", "csv", "--out", "{target}"],
    ["report", "{game}", "--out", "{target}"],
    ["export", "{game}", "--out", "{target}"],
    ["solve", "{game}", "--vary", "rolls=1,2", "--format", "csv", "--out", "{target}"],
]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.sampled_from(GAME_COMMANDS), folder_game=st.booleans(),
       how=st.sampled_from(["same", "dot", "absolute", "symlink"]))
def test_a_target_that_is_the_game_file_is_refused_before_any_work(
        tmp_path_factory, monkeypatch, capsys, no_compile, argv, folder_game, how):
    folder = tmp_path_factory.mktemp("game")
    monkeypatch.chdir(folder)
    source = (ROOT / "docs" / "examples" / "reroll.py").read_bytes()
    if folder_game:
        (folder / "reroll").mkdir()
        (folder / "reroll" / "__init__.py").write_bytes(source)
        game, file = "reroll", "reroll/__init__.py"
    else:
        (folder / "reroll.py").write_bytes(source)
        game = file = "reroll.py"
    target = _spelling(folder, file, how) if how != "symlink" or not folder_game else file
    assert main([part.format(game=game, target=target) for part in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: --out {target} is ") and err.count("\n") == 1, err
    assert "which the command reads; name another file to write" in err
    assert (folder / file).read_bytes() == source


def test_a_target_that_is_a_plugin_file_is_refused(tmp_path, monkeypatch, capsys, no_compile):
    monkeypatch.chdir(tmp_path)
    plugin = tmp_path / f"rule_{tmp_path.name.replace('-', '_')}.py"
    plugin.write_text("import mdp\n\nGAME = 'shutbox'\n\n\n@mdp.hookimpl\ndef mdp_describe():\n"
                      "    return 'described'\n")
    kept = plugin.read_bytes()
    assert main(["policy", "shutbox", "-p", str(plugin), "--format", "csv", "--out", plugin.name]) == 2
    assert capsys.readouterr().err == (f"mdp: error: --out {plugin.name} is the plugin "
                                       f"{plugin}, which the command reads; name another file "
                                       "to write\n")
    assert plugin.read_bytes() == kept


def test_a_file_beside_the_game_may_be_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reroll").mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "reroll.py", tmp_path / "reroll" / "__init__.py")
    assert main(["policy", "reroll", "--out", "reroll/policy.csv"]) == 0
    assert (tmp_path / "reroll" / "policy.csv").read_text().count("\n") == 26  # header + 25 rows


READ_COMMANDS = [  # a command with its targets: {target} where the read file is named
    ["policy", "shutbox", "{rules}", "--format", "csv", "--out", "{target}"],
    ["distribution", "shutbox", "{rules}", "--format", "csv", "--out", "x.csv", "--plot", "{target}"],
    ["report", "shutbox", "{rules}", "--out", "{target}"],
    ["export", "shutbox", "{rules}", "--out", "{target}"],
    ["solve", "shutbox", "--set", "tiles=1-3", "--set", "scoring=payout", "--vary",
     "payout={file},0:1", "--format", "csv", "--out", "{target}"],
]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.sampled_from(READ_COMMANDS), how=st.sampled_from(["same", "dot", "up", "absolute",
                                                                 "symlink", "hardlink"]))
def test_a_target_that_is_a_file_the_game_reads_is_refused_before_any_work(
        tmp_path_factory, monkeypatch, capsys, no_compile, argv, how):
    # --set payout=FILE: the game's parser reads the file; any file opened to read while the
    # command runs is one it reads, whoever opened it. Before, --out pay.txt replaced it.
    folder = tmp_path_factory.mktemp("read")
    monkeypatch.chdir(folder)
    table = b"0:100,1-3:5\n"
    (folder / "pay.svg").write_bytes(table)
    target = _spelling(folder, "pay.svg", how)
    rules = ["--set", "tiles=1-3", "--set", "scoring=payout", "--set", "payout=pay.svg"]
    given = [part for a in argv
             for part in (rules if a == "{rules}" else [a.format(target=target, file="pay.svg")])]
    assert main(given) == 2
    err = capsys.readouterr().err
    assert err.endswith(f" {target} names pay.svg, a file the command reads; name another file "
                        "to write\n") and err.count("\n") == 1, err
    assert (folder / "pay.svg").read_bytes() == table
    assert not (folder / "x.csv").exists()


def test_a_file_a_game_s_hook_reads_is_no_target_either(tmp_path, monkeypatch, capsys):
    # Whichever code opens it: here the game's own check reads a file of its own choosing.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.csv").write_text("kept\n")
    (tmp_path / "reader.py").write_text(
        "import mdp\n"
        "@mdp.hookimpl\ndef mdp_check(): open('notes.csv').read()\n"
        "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
        "@mdp.hookimpl\ndef mdp_actions(state): return []\n"
        "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n")
    assert main(["policy", "reader.py", "--out", "notes.csv"]) == 2
    assert capsys.readouterr().err == ("mdp: error: --out notes.csv names notes.csv, a file the "
                                       "command reads; name another file to write\n")
    assert (tmp_path / "notes.csv").read_text() == "kept\n"
    assert main(["policy", "reader.py", "--out", "other.csv"]) == 0


@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_a_symbolic_link_in_a_loop_is_refused_and_kept(tmp_path, monkeypatch, capsys, no_compile,
                                                       length, option):
    # A link is written through to the file it names; links in a loop name none, and the
    # first of them, taken for the file, was replaced by a regular file (exit 0).
    monkeypatch.chdir(tmp_path)
    names = [f"loop{i}.{'png' if option == '--plot' else 'csv'}" for i in range(length)]
    for i, name in enumerate(names):
        os.symlink(names[(i + 1) % length], name)
    assert main(["distribution", "shutbox", "--set", "tiles=1-4", option, names[0]]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: {names[0]}: a symbolic link in a loop") and err.count("\n") == 1
    assert all(os.path.islink(name) for name in names) and sorted(os.listdir()) == sorted(names)
