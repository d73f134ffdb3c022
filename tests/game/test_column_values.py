"""A value of a game's column that no table holds (a list, a dict, a set, bytes, an object)
is the fault of the hook that gave it, named with the state (and action) it gave it for, where
the columns are read: not of the table format that later failed to write it."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

GOOD = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-2, 2), st.text(max_size=3),
                 st.fractions(max_denominator=4), st.integers(0, 9).map(np.int64))
BAD = st.one_of(st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=1), st.integers(),
                max_size=1), st.sets(st.integers(), max_size=2), st.binary(max_size=2),
                st.just(object()), st.just((1, 2)), st.just(np.array([1, 2])),
                # numbers no table holds as they are: said why (were "a column's value is a number")
                st.just(np.longdouble(1) / 3), st.just(complex(1, 2)), st.just(np.complex64(1)))


def _why(value):
    """What a refusal of ``value`` says a column's value may be, by hand."""
    if isinstance(value, (complex, np.complexfloating)):
        return "a column's numbers are real: no table holds a complex one"
    if isinstance(value, np.longdouble) and np.finfo(np.longdouble).nmant > 52:
        return "has more digits than a table's column of floats holds: give a float, or a Fraction"
    return "a column's value is a number, text, true/false or None"


def _game(value, where):
    """Start, one action to an end; the column ``pos`` (of states) or ``move`` (of actions) is
    ``value`` at the start (and None, which a column of any kind holds, at the end)."""
    hooks = dict(
        mdp_initial_state=lambda: "s",
        mdp_actions=lambda state: ["go"] if state == "s" else [],
        mdp_outcomes=lambda state, action: [(1, "end")],
        mdp_terminal_value=lambda state: 1,
        mdp_state_columns=lambda state: {"pos": value if where == "state" and state == "s" else None},
        mdp_action_columns=lambda state, action: {"move": value if where == "action" else 0})
    for name, hook in hooks.items():
        hook.__name__ = name
    return SimpleNamespace(GAME_NAME="g", **{n: mdp.hookimpl(h) for n, h in hooks.items()})


@settings(max_examples=100, deadline=None)
@given(st.one_of(GOOD, BAD), st.sampled_from(["state", "action"]))
@pytest.mark.slow  # half a second or more of CPU
def test_a_column_value_no_table_holds_is_the_hooks_fault(value, where):
    game = mdp.load_game(_game(value, where))
    holds = value is None or isinstance(value, (bool, int, float, str, Fraction, np.int64))
    if holds:
        assert mdp.policy(mdp.solve(mdp.compile(game)), game).height == 1
        return
    with pytest.raises(mdp.ModelError) as error:  # as the states are walked, or the table made
        mdp.policy(mdp.solve(mdp.compile(game)), game)
    hook, column = ("mdp_state_columns", "pos") if where == "state" else ("mdp_action_columns", "move")
    place = "state 's'" + (", action 'go'" if where == "action" else "")
    assert str(error.value).startswith(f"game g: {hook} gives column '{column}' the value ")
    assert f"({type(value).__name__}) ({place}); " in str(error.value) and _why(value) in str(error.value)


def test_the_command_line_blames_the_hook_not_the_format(tmp_path, capsys):
    game = tmp_path / "listed.py"
    game.write_text("import mdp\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 's'\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return ['a'] if state == 's' else []\n"
                    "@mdp.hookimpl\ndef mdp_outcomes(state, action): return [(1, 'e')]\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n"
                    "@mdp.hookimpl\ndef mdp_state_columns(state): return {'pos': [1, 2]}\n")
    for argv in (["policy"], ["policy", "--format", "csv"], ["report", "--out", str(tmp_path / "r.html")]):
        assert main([argv[0], str(game), *argv[1:]]) == 2
        assert capsys.readouterr().err == (
            "mdp: error: game listed: mdp_state_columns gives column 'pos' the value [1, 2] "
            "(list) (state 's'); a column's value is a number, text, true/false or None\n")


@settings(max_examples=40, deadline=None)
@given(st.one_of(GOOD, BAD))
@example("³").via("shown alike the round state 3's '3'")
def test_a_round_column_value_no_table_holds_is_the_round_hooks_fault(value):
    from models import two_boxes

    from mdp.game.columns import round_columns

    @mdp.hookimpl
    def mdp_round_columns(states):  # round state 2 gets the value generated, the others theirs
        other = str if isinstance(value, str) else int  # a column holds text or numbers
        return {"filled": [value if int(s) == 2 else other(s) for s in states]}

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    states = np.arange(4)
    holds = value is None or isinstance(value, (bool, int, float, str, Fraction, np.int64))
    if holds:
        try:
            assert len(round_columns(game, states, [])["filled"]) == 4
        except mdp.ModelError as error:  # a value alike another round state's: named so
            # (equal, or shown alike: '³' beside '3', by Unicode's compatibility forms)
            assert "the same columns" in str(error) or "columns that tables show alike" in str(error)
        return
    with pytest.raises(mdp.ModelError) as error:
        round_columns(game, states, [])
    assert str(error.value).startswith("game two-boxes: mdp_round_columns gives column 'filled' "
                                       "the value ")
    assert f"({type(value).__name__}) (round state 2); " in str(error.value)
    assert _why(value) in str(error.value)
