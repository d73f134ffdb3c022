"""A MemoryError raised in a game's or plugin's own code, anywhere mdp runs it (its import, a
format's writer, an analysis), is the plugin's: one line naming it, exit 2 (round 19, F18;
before, each was "out of memory (mdp may use ...); solve a smaller game", exit 3, for a game
of four states). One that mdp's own arrays raise stays "out of memory", exit 3."""

import pytest
from edited import edited
from models import WALK

from mdp.program.cli import main

GAME = WALK.replace("WORTH", "3")

RAISE = "\nraise MemoryError\n"

FORMAT_AND_ANALYSIS = '''
import mdp

def _write(frame, file):
    raise MemoryError

def _run(solution, game):
    raise MemoryError

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("mem", (".mem",), _write, "a format that runs out")]

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("memy", "an analysis that runs out", _run)]
'''

PROGRAM = "import mdp\n\n@mdp.hookimpl\ndef mdp_formats():\n    return []\n"


def _cases(tmp_path):
    game = edited(GAME, "walk", tmp_path, "")
    raising_game = edited(GAME, "walk", tmp_path / "raising", RAISE)
    rule = edited("import mdp\n", "rule", tmp_path, RAISE)
    program = edited(PROGRAM, "program", tmp_path, RAISE)
    plugin = edited(FORMAT_AND_ANALYSIS, "memory", tmp_path, "")
    name = plugin  # (named as given: its path)
    return {
        "a game's import": (["solve", raising_game], f"cannot import the game at {raising_game}: MemoryError"),
        "a rule plugin's import": (["policy", game, "-p", rule], f"cannot import the plugin at {rule}: MemoryError"),
        "a program plugin's import": (["formats", "-p", program],
                                      f"cannot import the plugin at {program}: MemoryError"),
        "a format's writer": (["policy", game, "-p", plugin, "--out", str(tmp_path / "m.mem")],
                              f"plugin {name}'s format mem raised MemoryError"),
        "an analysis": (["memy", game, "-p", plugin], f"plugin {name}'s analysis memy raised MemoryError"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("where", ["a game's import", "a rule plugin's import", "a program plugin's import",
                                   "a format's writer", "an analysis"])
def test_a_memory_error_raised_in_a_plugin_s_own_code_is_its_fault(tmp_path, capsys, where):
    argv, expected = _cases(tmp_path)[where]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == f"mdp: error: {expected}\n"
    assert not (tmp_path / "m.mem").exists()


MDP_RUNS_OUT = '''
import mdp
import mdp.engine.budget as budget

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("big", "asks mdp for more than there is", lambda solution, game: budget.allocate())]
'''


def test_a_memory_error_raised_in_mdp_s_own_code_that_a_plugin_called_is_too_large(tmp_path, capsys,
                                                                                     monkeypatch):
    # mdp's own code running out (its frame innermost: its arrays), called by a plugin: the
    # work is too large, exit 3, as before.
    import mdp.engine.budget as budget

    namespace = {"__name__": "mdp.engine.budget"}
    exec("def allocate():\n    raise MemoryError", namespace)  # a function of mdp's module
    monkeypatch.setattr(budget, "allocate", namespace["allocate"], raising=False)
    game = edited(GAME, "walk", tmp_path, "")
    plugin = edited(MDP_RUNS_OUT, "big", tmp_path, "")
    assert main(["big", game, "-p", plugin]) == 3
    assert capsys.readouterr().err.startswith("mdp: error: out of memory")
