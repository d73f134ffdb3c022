"""A command started with standard output closed (``mdp ... >&-``, file descriptor 1 absent)
that is asked for files (``--out``, ``--plot``) writes them and ends with 0, every command
alike: what it prints for people goes nowhere, as for a reader that went away. A command asked
for no file refuses in one line, and suggests ``--out`` only where the command takes it.

The commands are every command of the program that takes a file (an option of
``metavar="FILE"``), found in its parser, not listed here."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mdp.program.cli import _parser, main
from mdp.program.registry import commands_and_analyses

pytestmark = pytest.mark.xdist_group("stdout-closed")

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = [str(ROOT / "docs" / "examples" / "two_boxes.py")]  # a game played in rounds
ONE_MODEL = ["shutbox", "--set", "tiles=1-4"]  # a game of one model
VARY = ["shutbox", "--vary", "tiles=1-3,1-4"]
# What an argument a command cannot do without is given, by the argument (not the command).
REQUIRED = {"games": ["--games", "20"], "state": ["filled=", "throws_left=1", "face=4"]}
SUFFIX = {"--plot": ".png"}  # a file option's file, where its default does not say


def _subparsers():
    parser = _parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def _writing():
    """Every command that takes a file, with the arguments that ask for each of its files,
    and those files."""
    known = commands_and_analyses()
    for name, sub in _subparsers().items():
        actions = sub._actions
        files = [a for a in actions if a.metavar == "FILE" and a.option_strings]
        if not files:
            continue
        options = {o for a in actions for o in a.option_strings}
        game = VARY if "--vary" in options else ROUNDS if getattr(known[name], "rounds", False) \
            else ONE_MODEL
        argv = [name, *game]
        for action in actions:
            if action.required and action.dest in REQUIRED:
                argv += REQUIRED[action.dest]
        written = []
        for action in files:
            default = action.default if isinstance(action.default, str) else None
            suffix = Path(default).suffix if default else SUFFIX.get(action.option_strings[0], ".csv")
            written.append(f"{action.dest}{suffix}")
            argv += [action.option_strings[0], written[-1]]
        yield pytest.param(argv, written, id=name)


def _closed(argv, folder):
    return subprocess.run([sys.executable, "-m", "mdp", *argv], cwd=folder, stderr=subprocess.PIPE,
                          text=True, timeout=180, preexec_fn=lambda: os.close(1))


def test_every_command_that_takes_a_file_is_here():
    found = {param.id for param in _writing()}
    assert {"policy", "distribution", "simulate", "targets", "lengths", "strategies", "advise",
            "report", "export", "solve", "match"} <= found


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "files"), list(_writing()))
def test_a_command_asked_for_files_writes_them_with_standard_output_closed(tmp_path, argv, files):
    done = _closed(argv, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "--out" not in done.stderr
    for name in files:
        assert (tmp_path / name).stat().st_size > 0


def _closed_here(argv, folder, monkeypatch, capsys):
    """``mdp argv`` run in this process in ``folder``, standard output closed as Python leaves
    it when file descriptor 1 is absent at start-up (``sys.stdout`` None: the processes of the
    test above and below start so); its exit code and standard error."""
    monkeypatch.chdir(folder)
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", None)
        code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.slow
def test_a_command_asked_for_no_file_refuses_a_closed_standard_output_in_its_own_process(tmp_path):
    # The cases below run in this process: here one in a process started without descriptor 1.
    done = _closed(["policy", *ONE_MODEL], tmp_path)
    assert (done.returncode, done.stderr) == (
        2, "mdp: error: standard output is closed; redirect it to a file, or use --out\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "hint"), [
    (["policy", *ONE_MODEL], ", or use --out"),
    (["games"], ""),
    (["params", "shutbox"], ""),
    (["solve", *ONE_MODEL], ""),  # --out writes the table of --vary: without it, none
    (["match", *ROUNDS], ""),
    (["solve", *VARY], ", or use --out"),
])
def test_a_command_asked_for_no_file_refuses_a_closed_standard_output(tmp_path, argv, hint,
                                                                     monkeypatch, capsys):
    # match and solve without --vary said "or use --out", which they then refused: the
    # advice names --out only where the command, so used, takes it, as running it with
    # --out (standard output open) shows.
    assert _closed_here(argv, tmp_path, monkeypatch, capsys) == (
        2, f"mdp: error: standard output is closed; redirect it to a file{hint}\n")
    assert list(tmp_path.iterdir()) == []
    if "--out" in {o for a in _subparsers()[argv[0]]._actions for o in a.option_strings}:
        try:
            code = main([*argv, "--out", "t.csv"])
        except SystemExit as exit_:  # a usage error, as the process would end
            code = exit_.code
        assert (code == 0) == bool(hint), capsys.readouterr().err
