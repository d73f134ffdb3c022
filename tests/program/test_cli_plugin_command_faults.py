"""A plugin's command that closes standard output, raises GeneratorExit or a BaseException of
its own, or whose ``arguments`` raise KeyboardInterrupt of themselves: one line blaming the
plugin, exit code 2 (they were a traceback, and an "interrupted", exit code 130, though no one
interrupted)."""

import subprocess
import sys

import pytest

from mdp.program.cli import main

MDP = [sys.executable, "-m", "mdp.program.cli"]

PLUGIN = '''
import sys
import mdp

def arguments(parser):
    ARGUMENTS

def run(args):
    RUN
    return 0

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("cc", "a command", run, arguments)]
'''

CASES = {
    "closes sys.stdout": ("pass", "sys.stdout.close()", ["cc"],
                          "mdp: error: plugin plug.py's command cc closed standard output "
                          "(sys.stdout) while its code ran; a game or plugin must leave the "
                          "process as it found it"),
    "KeyboardInterrupt in arguments": (
        "raise KeyboardInterrupt", "pass", ["cc"],
        "mdp: error: plugin plug.py's command cc: adding its arguments raised KeyboardInterrupt, "
        "and no one interrupted it"),
    "GeneratorExit in run": ("pass", "raise GeneratorExit", ["cc"],
                             "mdp: error: plugin plug.py's command cc raised GeneratorExit"),
    "a BaseException of its own in run": (
        "pass", "raise type('Halt', (BaseException,), {})('stop')", ["cc"],
        "mdp: error: plugin plug.py's command cc raised Halt: stop"),
}


# In this process, main returning the exit code the program ends with (mdp.program.cli); the
# standard output closed in a process of its own, where the process's is what is closed.
@pytest.mark.parametrize("case", CASES)
def test_the_plugin_is_blamed_in_one_line(tmp_path, monkeypatch, capsys, case):
    arguments, run, argv, line = CASES[case]
    (tmp_path / "plug.py").write_text(PLUGIN.replace("ARGUMENTS", arguments).replace("RUN", run))
    if case == "closes sys.stdout":
        done = subprocess.run([*MDP, "-p", "plug.py", *argv], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
        code, err = done.returncode, done.stderr
    else:
        monkeypatch.chdir(tmp_path)
        code, err = main(["-p", "plug.py", *argv]), capsys.readouterr().err
    assert (code, err) == (2, line + "\n")


def test_help_with_such_a_plugin_warns_and_answers(tmp_path, monkeypatch, capsys):
    (tmp_path / "plug.py").write_text(PLUGIN.replace("ARGUMENTS", "raise KeyboardInterrupt")
                                      .replace("RUN", "pass"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:  # --help ends the program, with 0
        main(["-p", "plug.py", "--help"])
    done = capsys.readouterr()
    assert exited.value.code == 0 and "usage: mdp" in done.out
    assert done.err.startswith("mdp: warning: plugin plug.py's command cc: adding its "
                                  "arguments raised KeyboardInterrupt")
