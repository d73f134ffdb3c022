"""A strategy's own code (the weights of an mdp.Strategy, the function of one state of
Strategy.per_state, the aims of an mdp.RoundsStrategy), an export's writer and a command's
arguments, raising one of mdp's own exceptions, is at fault like a hook raising it
(tests/game/test_hook_raises_mdps_own.py): one line naming the strategy or plugin, exit 2,
never mdp's own word (round 28: they were passed on as they were, ``TooLarge`` exit 3)."""

from pathlib import Path

import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
RAISED = ["MdpError", "ParamError", "ModelError", "TooLarge", "CycleError", "GameNotFound"]

STRATEGIES = '''
import mdp

def fail(*args):
    raise mdp.errors.RAISED("words of the plugin")

@mdp.hookimpl
def mdp_strategies():
    return [mdp.Strategy("weights", "raises", fail), mdp.Strategy.per_state("one", "raises", fail)]
'''
AIMS = '''

@mdp.hookimpl
def mdp_strategies():
    def fail(*args):
        raise mdp.errors.RAISED("words of the plugin")
    return [mdp.RoundsStrategy("aims", "raises", fail)]
'''
PROGRAM = '''
import mdp

def fail(*args):
    raise mdp.errors.RAISED("words of the plugin")

@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("broken", "raises", fail)]

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("broken", "raises", lambda args: 0, fail)]
'''


def _said(capsys, code):
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "raised " in err and ": words of the plugin" in err, err
    return err


@pytest.mark.slow
@pytest.mark.parametrize("raised", RAISED)
@pytest.mark.parametrize("strategy", ["weights", "one", "aims"])
def test_a_strategy_raising_mdps_own_exception_is_its_fault(tmp_path, capsys, raised, strategy):
    if strategy == "aims":
        game = tmp_path / "two_boxes.py"
        game.write_text((ROOT / "docs" / "examples" / "two_boxes.py").read_text()
                        + AIMS.replace("RAISED", raised))
        argv = ["simulate", str(game), "--strategy", strategy, "--games", "3"]
    else:
        (tmp_path / "mine.py").write_text(STRATEGIES.replace("RAISED", raised))
        argv = ["simulate", "shutbox", "--set", "tiles=1-3", "-p", str(tmp_path / "mine.py"),
                "--strategy", strategy, "--games", "3"]
    err = _said(capsys, main(argv))
    assert f"strategy {strategy}" in err


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("raised", RAISED)
@pytest.mark.parametrize("where", ["export", "command"])
def test_an_export_or_commands_arguments_raising_mdps_own_exception_is_the_plugins_fault(
        tmp_path, capsys, monkeypatch, raised, where):
    (tmp_path / "prog.py").write_text(PROGRAM.replace("RAISED", raised))
    monkeypatch.chdir(tmp_path)
    argv = ["export", "shutbox", "--set", "tiles=1-3", "--format", "broken", "--out", "m.txt"] \
        if where == "export" else ["broken"]
    err = _said(capsys, main([*argv, "-p", "prog.py"]))
    assert "plugin prog" in err and not (tmp_path / "m.txt").exists()
