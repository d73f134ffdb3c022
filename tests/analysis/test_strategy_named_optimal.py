"""``optimal`` is mdp's name for optimal play: a strategy a game or plugin names so (in any
capitals) is refused naming the plugin, on every road that plays a strategy (round 32,
P32-21: ``mdp strategies`` refused it, but ``--strategy optimal`` played mdp's own and said
nothing of the plugin's)."""

from pathlib import Path

import pytest

from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
PLUGIN = '''import mdp

GAME = "reroll"


@mdp.hookimpl
def mdp_strategies():
    return [mdp.Strategy.per_state({name!r}, "keeps the first roll", lambda state, action: [1, 0])]
'''


@pytest.mark.parametrize("name", ["optimal", "Optimal"])
@pytest.mark.parametrize("argv", [["solve", "--strategy", "optimal"], ["distribution", "--strategy", "optimal"],
                                  ["strategies"], ["solve", "--strategy", "greedy"]])
def test_a_strategy_named_optimal_is_refused_naming_the_plugin(tmp_path, capsys, name, argv):
    plugin = tmp_path / "house.py"
    plugin.write_text(PLUGIN.format(name=name))
    assert main([argv[0], REROLL, "-p", str(plugin), *argv[1:]]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"mdp: error: game reroll: plugin {plugin}'s mdp_strategies names a strategy "
                                 f"{name!r}, as mdp names optimal play: name it otherwise\n"), err
