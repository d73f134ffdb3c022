"""An exception that an older wrapper sets (``outcome.force_exception``) is said as its author's,
whatever its class, and an object of the game's own module that the game registers (under
any name) is the game's own code, its faults said as the game's (round 34, P34-04: one such
object was "plugin house" for an Exception and the game for a KeyboardInterrupt or
SystemExit, and a program plugin's forced KeyboardInterrupt named no plugin)."""

import pytest
from models import COIN

from mdp.program.cli import main

# The coin of tests/models.py; WRAPPER is a class whose older wrapper of mdp_terminal_value
# sets an exception, registered by the game itself (OWN) or given with -p.
WRAPPER = '''import mdp

GAME = "coin"


class Forcing:
    @mdp.hookimpl(hookwrapper=True)
    def mdp_terminal_value(self, params, state):
        outcome = yield
        outcome.force_exception(RAISED)
'''
OWN = '''

@mdp.hookimpl
def mdp_configure(plugins):
    plugins.register(Forcing(), name="house")
'''
RAISED = {"ValueError('v')": "ValueError: v", "mdp.ModelError('nope')": "ModelError: nope",
          "RecursionError()": "RecursionError", "KeyboardInterrupt()": "KeyboardInterrupt",
          "SystemExit(0)": "SystemExit: 0"}


@pytest.mark.parametrize("raised", sorted(RAISED))
def test_an_object_of_the_game_s_own_is_the_game_s_whatever_it_sets(tmp_path, capsys, raised):
    game = tmp_path / "coin.py"
    game.write_text(COIN + WRAPPER.replace("import mdp\n\nGAME = \"coin\"\n", "").replace(
        "RAISED", raised) + OWN)
    assert main(["solve", str(game)]) == 2
    assert capsys.readouterr().err == \
        f"mdp: error: game coin: mdp_terminal_value raised {RAISED[raised]} (state 'win')\n"


@pytest.mark.parametrize("raised", sorted(RAISED))
@pytest.mark.slow
def test_a_rule_plugin_s_object_is_the_plugin_s_whatever_it_sets(tmp_path, capsys, raised):
    (tmp_path / "coin.py").write_text(COIN)
    plugin = tmp_path / "forcing.py"
    plugin.write_text(WRAPPER.replace("RAISED", raised) + "\n\nmdp_terminal_value = Forcing().mdp_terminal_value\n")
    assert main(["solve", str(tmp_path / "coin.py"), "-p", str(plugin)]) == 2
    assert capsys.readouterr().err == (f"mdp: error: game coin: plugin {plugin}'s mdp_terminal_value "
                                       f"raised {RAISED[raised]} (state 'win')\n")


@pytest.mark.parametrize("raised", ["KeyboardInterrupt()", "SystemExit(0)", "ValueError('v')"])
def test_a_program_plugin_s_forced_exception_is_the_plugin_s(tmp_path, capsys, raised):
    plugin = tmp_path / "forcing.py"
    plugin.write_text("import mdp\n\n\n@mdp.hookimpl(hookwrapper=True)\ndef mdp_analyses():\n"
                      f"    outcome = yield\n    outcome.force_exception({raised})\n")
    (tmp_path / "coin.py").write_text(COIN)
    assert main(["-p", str(plugin), "solve", str(tmp_path / "coin.py")]) == 2
    assert capsys.readouterr().err == (f"mdp: error: a plugin of mdp: plugin {plugin}'s mdp_analyses "
                                       f"raised {RAISED[raised]}\n")
