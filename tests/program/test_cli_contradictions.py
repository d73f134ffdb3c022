"""Arguments that contradict each other are refused in one line, never taken as the last
one said: a column of the state given twice, and a rule plugin given to a game it is not
for."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
# The columns of a Shut the Box state, with values that name a state of the standard box.
SHUTBOX_STATE = {"open": ["1 2 3", "4 5", "1 2 3 4 5 6 7 8 9"], "roll": ["2", "7", "12"]}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_column_of_the_state_given_twice_is_refused(capsys, data):
    column = data.draw(st.sampled_from(sorted(SHUTBOX_STATE)), "column")
    values = data.draw(st.lists(st.sampled_from(SHUTBOX_STATE[column]), min_size=2, max_size=3),
                       "values")  # the same value twice too: said twice is said once too many
    others = [f"{name}={SHUTBOX_STATE[name][0]}" for name in SHUTBOX_STATE if name != column]
    items = [f"{column}={value}" for value in values]
    state = data.draw(st.permutations(items + others), "state")
    assert main(["advise", "shutbox", *state]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"mdp: error: state: column {column} is given twice (")
    assert all(repr(item) in err for item in items)
    # In Python as on the command line.
    with pytest.raises(mdp.ParamError, match=f"column {column} is given twice"):
        mdp.analyse(_solution(), "advise", _game(), state=state)


def _game():
    return mdp.load_game("shutbox", tiles="1-3")


def _solution():
    return mdp.solve(mdp.compile(_game()))


RULE_PLUGIN = '''
import mdp

GAME = {game!r}


@mdp.hookimpl
def mdp_describe():
    return "described by the plugin"
'''


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.one_of(st.sampled_from(["shutbox", "yahtzee"]),
                       st.lists(st.sampled_from(["shutbox", "yahtzee", "pig"]), min_size=1,
                                max_size=3).map(tuple)),
       loaded=st.sampled_from(["shutbox", "yahtzee"]))
def test_a_rule_plugin_for_another_game_is_refused(tmp_path_factory, capsys, games, loaded):
    folder = tmp_path_factory.mktemp("plugin")
    plugin = folder / f"rule_{folder.name}.py"  # a module name of its own: one process imports all
    plugin.write_text(RULE_PLUGIN.format(game=games))
    meant = (games,) if isinstance(games, str) else games
    code = main(["params", loaded, "-p", str(plugin)])
    err = capsys.readouterr().err
    if loaded in meant:
        assert code == 0, err
    else:
        assert code == 2
        assert err == (f"mdp: error: plugin {plugin} is a rule plugin of game "
                       f"{' or '.join(meant)}, not of game {loaded}\n")


@pytest.mark.parametrize("game", [3, "", (), ("shutbox", 3), ["shutbox"]])
def test_a_rule_plugin_that_names_its_game_wrongly_is_its_fault(tmp_path, capsys, game):
    plugin = tmp_path / f"rule_{tmp_path.name}.py"
    plugin.write_text(RULE_PLUGIN.format(game=game))
    with pytest.raises(mdp.ModelError, match=r"GAME is .*, not a game's name or a tuple of names"):
        mdp.load_game("shutbox", plugins=[str(plugin)])


@pytest.mark.parametrize("plugin", sorted((ROOT / "plugins").glob("shutbox_*.py"))
                         + [ROOT / "docs" / "examples" / "shutbox_one_tile.py"])
def test_the_shipped_rule_plugins_say_their_game(capsys, plugin):
    assert main(["solve", "yahtzee", "-p", str(plugin)]) == 2
    assert capsys.readouterr().err.endswith("is a rule plugin of game shutbox, not of game yahtzee\n")
