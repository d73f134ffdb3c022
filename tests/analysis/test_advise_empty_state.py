"""A state whose columns are all empty (a game's initial state, here) is named by leaving
every column out, as docs/cli.rst promises ("a column left out must be empty in the state"):
main refused it, and its hint ended "e.g. the initial state: " with nothing to type."""

from fractions import Fraction

import pytest

import mdp
from mdp.program.cli import main

ONE = '''
from fractions import Fraction
import mdp


@mdp.hookimpl
def mdp_initial_state():
    return ("start", None)


@mdp.hookimpl
def mdp_actions(state):
    return {"start": ["throw"], "face": ["keep", "again"]}.get(state[0], [])


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "keep":
        return [(1, ("end", state[1]))]
    return [(Fraction(1, 6), ("face" if action == "throw" else "end", f)) for f in range(1, 7)]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[1]


@mdp.hookimpl
def mdp_state_columns(state):
    return {"face": state[1], "done": state[0] == "end" or None}
'''
"""Throw a die, then keep it or throw again. The start has no face and is not done: every
column empty. By hand: keep 4, 5 or 6 (mean 5), else throw again (7/2): 17/4."""


@pytest.fixture
def one(tmp_path):
    path = tmp_path / "one.py"
    path.write_text(ONE)
    return str(path)


def test_every_column_left_out_names_the_state_where_all_are_empty(one, capsys):
    assert main(["advise", one, "--exact"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "state: every column empty"
    assert out[3].split()[:2] == ["throw", "4.2500000000"]
    game = mdp.load_game(one)
    advice = mdp.advise(mdp.solve(mdp.compile(game), exact=True), game)
    assert advice.actions["value_exact"].to_list() == [str(Fraction(17, 4))]


def test_the_hint_never_shows_an_empty_example(one, capsys):
    assert main(["advise", one, "face=9"]) == 2  # (face= names the state where it is empty)
    err = capsys.readouterr().err.strip()
    assert err == ("mdp: error: no reachable state has face='9'; name a state of one by its "
                   "columns face, done (COLUMN=VALUE, a column empty in the state left out; "
                   "every one is empty in the initial state)")


def test_several_states_with_every_column_empty_are_told_apart_or_refused(tmp_path, capsys):
    """Every state without a column that says something: several states have them all
    empty, and leaving every column out is refused, never one of them taken."""
    path = tmp_path / "two.py"
    path.write_text(ONE.replace('return {"face": state[1], "done": state[0] == "end" or None}',
                                'return {"face": state[1] if state[0] == "end" else None}'))
    assert main(["advise", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("mdp: error: 7 states of two have every column empty; no column of the "
                   "game tells them apart")


def test_columns_after_an_option_still_name_the_state(one, capsys):
    """The columns may now be left out, and argparse then gives them nothing at the first
    option: those after it are still the state's."""
    assert main(["advise", one, "--exact", "face=3"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "state: face 3"
    with pytest.raises(SystemExit) as stopped:
        main(["advise", one, "--exact", "face=3", "--nonsense"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --nonsense (" in capsys.readouterr().err  # face=3 is fine


@pytest.mark.parametrize("game", ["pig", "shutbox", "docs/examples/reroll.py"])
def test_leaving_every_column_out_never_names_an_end_where_play_begins_elsewhere(capsys, game):
    # Round 23: `mdp advise pig` said "no actions: the game is over", exit 0 (Pig's state of
    # no columns is its end). Leaving every column out names a state that is played, or is
    # refused with the columns to name and the initial state.
    code = main(["advise", game, "--set", "goal=5"] if game == "pig" else ["advise", game])
    out, err = capsys.readouterr()
    assert "the game is over" not in out
    if code != 0:
        assert code == 2 and err.startswith(f"mdp: error: name a state of {game.split('/')[-1].removesuffix('.py')} "
                                            "by its columns ") and "e.g. the initial state: " in err, err
