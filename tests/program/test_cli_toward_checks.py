"""The options of play toward a total, checked as the docs say: refusals come before the work
they would waste (the exact chances of every total that cannot be worked out refused before
the solve), --points may be less than 0, one number parser refuses blanks, and mdp simulate
refuses --exact, which it would take and ignore."""

import json
from pathlib import Path

import pytest

import mdp
from mdp.program.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
STATE = ["filled=FACE", "throws_left=1", "face=4"]


def _code(argv):
    try:
        return main(argv)
    except SystemExit as ended:  # argparse's own refusal
        return ended.code


@pytest.mark.parametrize("argv", [["distribution", EXAMPLE, "--at-least", "9", "--exact"],
                                  ["advise", EXAMPLE, *STATE, "--at-least", "9", "--exact"]])
def test_exact_chances_past_the_limit_are_refused_before_the_solve(argv, capsys, monkeypatch):
    monkeypatch.setattr("mdp.engine.rounds.reach.MOST_EXACT_COLUMNS", 10)

    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)
    assert _code(argv) == 3
    err = capsys.readouterr().err
    assert "round states and totals to solve, too many in exact numbers (at most 10)" in err
    assert "Traceback" not in err


def test_points_so_far_may_be_less_than_0(capsys):
    # FACE filled, -5 points so far, at least 3 wanted: 8 more. EVEN takes the 4 thrown for
    # 8 points, surely enough (chance 1); throwing again needs a 4 or a 6, 1/3.
    assert main(["advise", EXAMPLE, *STATE, "--at-least", "3", "--points", "-5", "--exact",
                 "--json"]) == 0
    actions = {a["action"]: a for a in json.loads(capsys.readouterr().out)["actions"]}
    assert actions["EVEN"]["value_exact"] == "1" and actions["again"]["value_exact"] == "1/3"


@pytest.mark.parametrize("argv, said", [
    (["solve", EXAMPLE, "--at-least", " 5"], "--at-least  5: expected a whole number, without "
     "blanks around it"),
    (["distribution", EXAMPLE, "--at-least", "5 "], "without blanks around it"),
    (["simulate", EXAMPLE, "--games", " 10"], "without blanks around it"),
    (["simulate", EXAMPLE, "--games", "10", "--exact"], "--exact: mdp simulate plays games at "
     "random and counts them; mdp distribution --exact gives the exact chance of every outcome"),
])
def test_refused_in_one_line_before_any_work(argv, said, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert _code(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
