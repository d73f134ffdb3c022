"""Plain ``mdp advise`` of a game of rounds says what its values are of: the points still to
score from the state on, not the final total (round 20: the table showed them and said
nothing; a player at a card with points on it could not tell which it was), in a line
``values: ...`` and in ``--json``'s ``values``, with the play's own words after a
``--strategy``."""

import json
from pathlib import Path

import pytest

from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
STATE = [TWO_BOXES, "filled=FACE", "throws_left=1", "face=4"]
STILL = "the points still to score from this state on, not those already scored"


def _run(capsys, *argv):
    capsys.readouterr()
    assert main(["advise", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # half a second or more: the game solved
def test_advice_of_a_game_of_rounds_says_its_values_are_the_points_to_come(capsys):
    lines = _run(capsys, *STATE, "--exact").splitlines()
    assert lines[1] == f"values: {STILL}"
    said = json.loads(_run(capsys, *STATE, "--exact", "--json"))
    assert said["values"] == STILL
    # By hand: FACE is filled (its points, whatever they were, are scored); a 4 in EVEN scores
    # 2 * 4 = 8 and ends the game, so EVEN's value is 8: the points to come, not a total.
    assert {a["action"]: a["value"] for a in said["actions"]}["EVEN"] == 8


def test_a_strategy_s_words_follow(capsys):
    lines = _run(capsys, *STATE, "--strategy", "greedy").splitlines()
    assert lines[1] == f"values: {STILL}; expected total playing greedy"
    assert json.loads(_run(capsys, *STATE, "--strategy", "greedy", "--json"))["strategy"] == "greedy"


def test_toward_a_total_the_header_says_it_alone(capsys):
    out = _run(capsys, *STATE, "--at-least", "8", "--points", "2")
    assert "values:" not in out and "best chance" in out
