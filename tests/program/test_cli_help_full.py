"""What mdp prints as its command line is read (``--help``, a command's ``--help``,
``--version``, and ``mdp`` alone, which lists the commands) ends where every answer ends: a
full standard output (``> /dev/full``) is said in one line, exit code 2, as for any command
(round 19: exit 0, and the help or version lost unsaid); a closed one (``>&-``) is refused
without advising ``--out``, which these take not. Every command's ``--help`` is here, found
in the program's parser."""

import argparse
import os
import sys

import pytest

from mdp.program.cli import _parser, main


def _asking():
    subparsers = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return [[], ["--version"], ["--help"], ["-h"], *([name, "--help"] for name in subparsers.choices)]


def _ran(argv):
    try:
        return main(list(argv))
    except SystemExit as exited:  # (before: argparse's exit, past mdp)
        return exited.code


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a full device")
@pytest.mark.parametrize("argv", _asking(), ids=" ".join)
def test_help_and_version_to_a_full_standard_output_are_said(argv, monkeypatch, capsys):
    with open("/dev/full", "w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = _ran(argv)
        monkeypatch.undo()
    assert (code, capsys.readouterr().err) == (
        2, "mdp: error: cannot write to standard output: No space left on device\n")


@pytest.mark.parametrize("argv", _asking(), ids=" ".join)
def test_help_and_version_to_a_closed_standard_output_advise_no_out(argv, monkeypatch, capsys):
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", None)
        code = _ran(argv)
    assert (code, capsys.readouterr().err) == (
        2, "mdp: error: standard output is closed; redirect it to a file\n")
