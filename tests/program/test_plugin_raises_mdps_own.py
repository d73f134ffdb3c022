"""What a program plugin's own code raises (its analysis's run, its format's writer) is the
plugin's fault, named, exit 2, whatever it is: one of mdp's own exceptions (``TooLarge`` was
exit 3 with the plugin's words as mdp's), an ``OSError`` (said to be mdp failing to write to
standard output), a ``BrokenPipeError`` of a pipe of its own (taken for the reader of standard
output gone: exit 0, no file). A ``ParamError`` is its way to refuse the user's words, and a
broken pipe where standard output's reader did go is the reader's (quiet, as Unix tools are)."""

import subprocess
import sys

import pytest

from mdp.program.cli import main

PLUGIN = '''
import errno
import mdp

def fail():
    RAISE

def run(solution, game):
    if WHERE == "run":
        fail()
    return mdp.policy(solution, game)

def write(frame, file):
    if WHERE == "format":
        fail()
    frame.write_csv(file)

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("xan", "raises", run)]

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("xcsv", (".xcsv",), write, "raises")]
'''

RAISED = {
    "raise mdp.TooLarge('too big here')": "TooLarge: too big here",
    # mdp's own function refusing what the plugin's code gave it (round 31: a bare line)
    "mdp.parse_choice([1, 2])": "ParamError: mdp.parse_choice: allowed is [1, 2]; expected a "
                                "list (or dict, or set) of names, each a text",
    "mdp.parse_int(5, 1)": "ParamError: mdp.parse_int: minimum is 5 and maximum is 1; expected a "
                           "minimum of at most the maximum",
    "raise mdp.ModelError('boom')": "ModelError: boom",
    "raise OSError(errno.ENOSPC, 'No space left on device')": "OSError: [Errno 28] No space left on device",
    "raise BrokenPipeError(errno.EPIPE, 'Broken pipe')": "BrokenPipeError: [Errno 32] Broken pipe",
}


def _plugin(tmp_path, where, raised):
    """The plugin, named as given (-p excp.py, in its folder)."""
    (tmp_path / "excp.py").write_text(PLUGIN.replace("WHERE", repr(where)).replace("RAISE", raised))
    return "excp.py"


@pytest.mark.slow
@pytest.mark.parametrize("raised", RAISED)
@pytest.mark.parametrize("where", ["run", "format"])
def test_what_a_plugins_own_code_raises_is_its_fault(tmp_path, capsys, monkeypatch, where, raised):
    plugin = _plugin(tmp_path, where, raised)
    monkeypatch.chdir(tmp_path)
    argv = ["xan", "shutbox", "--set", "tiles=1-2", "-p", plugin] if where == "run" else \
        ["policy", "shutbox", "--set", "tiles=1-2", "-p", plugin, "--out", "o.xcsv"]
    assert main(argv) == 2
    kind = "analysis xan" if where == "run" else "format xcsv"
    said = capsys.readouterr().err
    if where == "format" and raised.startswith("raise OSError"):  # a writer's: the file's, as a full disk's
        assert said == "mdp: error: cannot write to o.xcsv: No space left on device\n"
    else:
        assert said == f"mdp: error: plugin excp.py's {kind} raised {RAISED[raised]}\n"
    assert not (tmp_path / "o.xcsv").exists()


def test_a_plugins_param_error_is_its_refusal_of_the_users_words(tmp_path, capsys, monkeypatch):
    plugin = _plugin(tmp_path, "run", "raise mdp.ParamError('top=0: give 1 or more')")
    monkeypatch.chdir(tmp_path)
    assert main(["xan", "shutbox", "--set", "tiles=1-2", "-p", plugin]) == 2
    assert capsys.readouterr().err == "mdp: error: top=0: give 1 or more\n"


@pytest.mark.slow  # a process: standard output a pipe whose reader goes
def test_a_plugin_format_to_a_reader_that_went_is_quiet(tmp_path):
    plugin = _plugin(tmp_path, "none", "pass")
    done = subprocess.run(f"{sys.executable} -m mdp policy shutbox -p {plugin} --format xcsv | head -1",
                          shell=True, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.stdout == "open,roll,dice,shut,value,optimal,regret\n" and done.stderr == ""


RULE = '''
GAME = "reroll"
import mdp

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("k", "a", MAKE, "k")]
'''


@pytest.mark.parametrize("make", ["mdp.parse_choice([1, 2])", "mdp.parse_int(5, 1)", "mdp.parse_choice(3)"])
def test_a_rule_plugin_that_gives_mdps_function_a_wrong_argument_is_named(tmp_path, capsys,
                                                                           monkeypatch, make):
    """The game's line named neither the plugin nor its hook: "mdp.parse_choice: ..." alone,
    as if the user had given it."""
    (tmp_path / "rule.py").write_text(RULE.replace("MAKE", make))
    monkeypatch.chdir(tmp_path)
    assert main(["solve", str(__import__("pathlib").Path(__file__).resolve().parents[2] / "docs" /
                              "examples" / "reroll.py"), "-p", "rule.py"]) == 2
    assert capsys.readouterr().err.startswith(
        "mdp: error: game reroll: plugin rule.py's mdp_params raised ParamError: mdp.parse_")
