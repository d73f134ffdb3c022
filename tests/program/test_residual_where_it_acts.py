"""``--residual`` acts only where value iteration runs: a game whose states come back, solved
in floats. Elsewhere it is refused in one line, where it was taken and did nothing (round 17,
R17-N7): with --exact and with --vary before any work, on a game of one pass once compiled
and before the solve. Where it acts, the value line says the bound of the error it leaves, so
that a rough value is not read as a precise one (distribution's header, from the rough solve,
disagreed with its table, from the policy, by more than the digits shown)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.readable import SEEN_ERROR, value_line
from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


@pytest.mark.parametrize("argv, said", [
    (["solve", "pig", "--set", "goal=10", "--exact"], "--exact solves by policy iteration"),
    (["distribution", "pig", "--set", "goal=10", "--exact"], "--exact solves by policy iteration"),
    (["solve", "pig", "--vary", "goal=10,12"], "--residual is for one rule set at a time"),
])
def test_refused_before_any_work(argv, said, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert main([*argv, "--residual", "0.01"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err


@pytest.mark.slow
@pytest.mark.parametrize("game", [["shutbox", "--set", "tiles=1-4"], [TWO_BOXES],
                                  ["yahtzee", "--set", "card=yahtzee", "--set", "boxes=yahtzee"]])
@pytest.mark.parametrize("command", ["solve", "distribution", "policy"])
def test_refused_on_a_game_of_one_pass_before_the_solve(game, command, capsys, monkeypatch):
    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)
    assert main([command, *game, "--residual", "0.01"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one pass solves it with no error to bound" in err


@pytest.fixture(scope="module")
def pig():
    model = mdp.compile(mdp.load_game("pig", goal=8))
    return model, mdp.solve(model).value  # to the default residual, 1e-12


@settings(max_examples=15, deadline=None)
@given(st.floats(1e-10, 1))
def test_the_value_line_says_the_bound_where_it_shows(pig, residual):
    model, precise = pig
    rough = mdp.solve(model, residual=residual)
    assert abs(rough.value - precise) <= rough.residual + 1e-12  # the bound holds
    line = value_line(rough)
    if rough.residual > SEEN_ERROR:
        assert line.endswith(f", within {rough.residual:.2g} (the bound of --residual)")
    else:
        assert "within" not in line


@pytest.mark.slow
@pytest.mark.parametrize("command", [["solve"], ["distribution"], ["lengths"], ["simulate", "--games", "20"],
                                     ["advise", "me=0", "opponent=0", "turn=0"]])
def test_every_command_printing_values_says_a_bound_that_shows(command, capsys):
    """Each command taking --residual, asked for a rough one, says the bound beside the values
    it prints (advise printed rough values as though exact); its --json gives it."""
    argv = [command[0], "pig", "--set", "goal=8", *command[1:], "--residual", "0.5"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "(the bound of --residual)" in out, out
    if command[0] == "advise":
        assert main([*argv, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["residual"] > SEEN_ERROR
