"""Advice where the game shows no column (round 24): of an action (``mdp_action_columns``
giving ``{}``, the documented way to show none, or the one action ``None``), or of a state
(``mdp_state_columns`` giving ``{}`` or only None): Polars' tracebacks, where ``mdp policy``
answered. A Polars frame of no column has no rows; the rows stand without columns."""

import json

import pytest

from mdp.program.cli import main

GAME = '''
from fractions import Fraction
import mdp

GAME_NAME = "one"


@mdp.hookimpl
def mdp_initial_state():
    return "s"


@mdp.hookimpl
def mdp_actions(state):
    return [ACTION] if state == "s" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 3), "won"), (Fraction(2, 3), "lost")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return {"won": 1, "lost": 0}[state]


@mdp.hookimpl
def mdp_state_columns(state):
    return {"at": state}
'''
"""One action, won at 1/3 (1 point) and lost else: worth 1/3 by hand."""

NO_COLUMNS = '''

@mdp.hookimpl
def mdp_action_columns(state, action):
    return {}
'''


@pytest.mark.parametrize("action, extra", [('"go"', NO_COLUMNS), ("None", "")], ids=["no columns", "None"])
def test_advice_of_an_action_with_no_column_of_its_own_is_its_row(tmp_path, capsys, action, extra):
    game = tmp_path / "one.py"
    game.write_text(GAME.replace("ACTION", action) + extra)
    assert main(["advise", str(game), "at=s", "--exact", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["state"] == {"at": "s"}
    assert said["actions"] == [{"value": 1 / 3, "value_exact": "1/3", "regret": 0.0, "regret_exact": "0",
                                "optimal": True}]
    assert main(["advise", str(game), "at=s"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["0.3333333333", "0.0000000000", "optimal"]


@pytest.mark.parametrize("columns", ["{}", '{"at": None}'])
def test_states_that_show_no_column_are_named_by_none(tmp_path, capsys, columns):
    game = tmp_path / "one.py"
    game.write_text(GAME.replace("ACTION", '"go"').replace('return {"at": state}', f"return {columns}"))
    assert main(["advise", str(game), "--exact", "--json"]) == 0  # the one state played
    assert json.loads(capsys.readouterr().out)["actions"][0]["value_exact"] == "1/3"
    assert main(["advise", str(game), "x=1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: unknown column x; ") and err.count("\n") == 1, err
    # Two states played, and no column to tell them apart: said so.
    two = GAME.replace("ACTION", '"go"').replace('return {"at": state}', f"return {columns}").replace(
        '[(Fraction(1, 3), "won"), (Fraction(2, 3), "lost")]',
        '[(1, "t")] if state == "s" else [(Fraction(1, 3), "won"), (Fraction(2, 3), "lost")]').replace(
        'if state == "s" else []', 'if state in ("s", "t") else []')
    game.write_text(two)
    assert main(["advise", str(game)]) == 2
    assert capsys.readouterr().err == ("mdp: error: 2 states of one have every column empty; no column "
                                       "of the game tells them apart\n")
