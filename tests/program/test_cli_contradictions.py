"""Arguments that contradict each other are refused in one line, never taken as the last
one said: a column of the state given twice, and a rule plugin given to a game it is not
for."""

import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
# The columns of a Shut the Box state, with values that name a state of the standard box.
SHUTBOX_STATE = {"open": ["1 2 3", "4 5", "1 2 3 4 5 6 7 8 9"], "roll": ["2", "7", "12"]}


@pytest.mark.slow
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
@pytest.mark.slow  # half a second or more of CPU
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


def _single_valued_options():
    """Every command's options that take one value, with two values each takes (from a few
    candidates, as the option's own type reads them)."""
    import argparse

    from mdp.program.cli import _parser

    found = []
    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if type(action).__name__ != "_Once":
                continue
            candidates = list(action.choices or []) or ["1", "2", "7", "a.csv", "b.json", "all", "x", "a=1", "a=2"]
            read = []
            for text in map(str, candidates):
                try:
                    value = action.type(text) if action.type else text
                except Exception:  # noqa: BLE001  (not a value of this option)
                    continue
                if value not in [v for _, v in read]:
                    read.append((text, value))
            if len(read) >= 2:
                found.append((name, action.option_strings, [t for t, _ in read]))
    return found


OPTIONS = _single_valued_options()


def test_the_options_said_once_are_those_of_every_command():
    said = {(command, options[0]) for command, options, _ in OPTIONS}
    assert {("policy", "--out"), ("simulate", "--games"), ("simulate", "--seed"),
            ("solve", "--variant"), ("policy", "--within"), ("match", "--players")} <= said


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow  # half a second or more of CPU
def test_a_single_valued_option_given_twice_with_two_values_is_refused(capsys, data):
    # Before: the last said silently won (--out a.csv --out b.csv wrote b.csv alone).
    command, options, values = data.draw(st.sampled_from(OPTIONS), "option")
    said, again = data.draw(st.sampled_from(options)), data.draw(st.sampled_from(options))  # -o, --out
    first, second = data.draw(st.lists(st.sampled_from(values), min_size=2, max_size=2, unique=True))
    same = data.draw(st.booleans(), "the same value twice")
    argv = [command, said, first, again, first if same else second]
    try:
        code = main(argv)
    except SystemExit as exited:  # the parser's own refusal (here, of the game not given)
        code = exited.code
    err = capsys.readouterr().err
    if same:  # said twice alike is no contradiction: the parse goes on (here to a missing game)
        assert "given twice" not in err
        return
    assert code == 2
    # Each value as it was typed, not what the option's type made of it (a dict's repr).
    assert err == (f"mdp: error: {again} is given twice ({said} {shlex.quote(first)} and {again} "
                   f"{shlex.quote(second)}): give it once\n")
