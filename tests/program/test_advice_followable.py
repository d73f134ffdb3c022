"""A refusal's advice can be followed by the command that gave it (round 24: mdp simulate and
mdp report, which compute in floats and take no --exact, said "solve it exactly (--exact)",
and --exact was then "unrecognized arguments")."""

import pytest

from mdp.program.cli import main

TINY = '''
from fractions import Fraction
import mdp

GAME_NAME = "tiny"


@mdp.hookimpl
def mdp_initial_state():
    return "s"


@mdp.hookimpl
def mdp_actions(state):
    return ["a"] if state == "s" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 10**400), "w"), (1 - Fraction(1, 10**400), "l")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return {"w": 1, "l": 0}[state]
'''


@pytest.mark.parametrize("argv, followed", [
    (["simulate", "--games", "5"], "(mdp simulate computes in floats: mdp solve, policy and "
                                   "distribution take --exact)"),
    (["report", "--out", "r.html"], "(mdp report computes in floats: mdp solve, policy and "
                                    "distribution take --exact)"),
    (["solve"], "solve it exactly (--exact)"),
])
def test_the_advice_names_what_the_command_can_do(tmp_path, monkeypatch, capsys, argv, followed):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.py").write_text(TINY)
    assert main([argv[0], "tiny.py", *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.rstrip("\n").endswith(followed) and err.count("\n") == 1, err
    if "--exact" in followed and argv[0] != "solve":  # and what it names takes it
        assert main(["solve", "tiny.py", "--exact"]) == 0
