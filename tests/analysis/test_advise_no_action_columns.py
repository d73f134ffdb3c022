"""Advice at a state whose one action shows no column (round 24: a game whose
``mdp_action_columns`` gives ``{}``, the documented way to show none, or whose one action is
``None``, so that no ``action`` column is made): Polars' traceback, where ``mdp policy``
answered. The row of the action stands with no column of its own."""

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
    assert said["actions"] == [{"value": 1 / 3, "value_exact": "1/3", "regret": 0.0, "optimal": True}]
    assert main(["advise", str(game), "at=s"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["0.3333333333", "0.0000000000", "optimal"]
