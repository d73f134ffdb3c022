"""Terminal values near a float's top whose regrets go past it (1.7e308 against -1.7e308):
the regret is infinite, said as a number past a float, and every command answers; before,
``lengths``, ``policy``, ``advise``, ``distribution`` and ``simulate`` refused in mdp's own
subtraction, pointing at ``--exact``, which a game of floats cannot take (round 18, P19)."""

import json
import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.engine.numeric import power_of_two_above
from mdp.program.cli import main

GAME = '''
import mdp

@mdp.hookimpl
def mdp_initial_state():
    return 0

@mdp.hookimpl
def mdp_actions(state):
    return ["a", "b"] if state == 0 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, {"a": 1, "b": 2}[action])]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {1: A, 2: B}[state]
'''

TOP = 1.7976931348623157e308  # the largest float
near_top = st.floats(1e307, TOP).flatmap(lambda x: st.sampled_from([x, -x]))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(a=near_top, b=near_top)
def test_a_regret_past_a_float_is_infinite(tmp_path_factory, a, b):
    path = tmp_path_factory.mktemp("g") / "game.py"
    path.write_text(GAME.replace("A", repr(a)).replace("B", repr(b)))
    game = mdp.load_game(str(path))
    with warnings.catch_warnings():  # as the command line does: a float gone wrong is an error
        warnings.simplefilter("error", RuntimeWarning)
        table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    regrets = dict(zip(table["action"].to_list(), table["regret"].to_list()))
    # The regret of the worse action, by Python's own subtraction (inf past a float)
    best, worst = max(a, b), min(a, b)
    assert sorted(regrets.values()) == sorted([0.0, best - worst])


def test_every_command_answers_and_json_says_past_a_float_as_null(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.py").write_text(GAME.replace("A", "1.7e308").replace("B", "-1.7e308"))
    for argv in (["lengths"], ["distribution"], ["simulate", "--games", "10"], ["policy"]):
        assert main([argv[0], "game.py", *argv[1:]]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["advise", "game.py", "state=0", "--json"]) == 0
    actions = json.loads(capsys.readouterr().out)["actions"]
    assert [(a["action"], a["regret"]) for a in actions] == [("a", 0.0), ("b", None)]


@pytest.mark.parametrize("largest", [1.0, 3.0, 1e300, 1.7e308, TOP])
def test_the_power_of_two_over_values_holds_in_a_float(largest):
    scale = power_of_two_above([largest])
    assert math.isfinite(scale) and largest / scale < 2  # squares of the ratio within a float
