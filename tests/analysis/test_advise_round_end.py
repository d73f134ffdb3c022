"""A state with no actions is said for what it is: in a game of rounds, an end of the round
(play goes on from the round state it leads to); in a game of one model, the game's end.
Before, an end of the first round of Two boxes was said to end the game."""

from pathlib import Path

import pytest

from mdp.program.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize(("argv", "line"), [
    ([str(EXAMPLES / "two_boxes.py"), "filled=", "face=4", "scored_in=FACE"], "no actions: the round ends here"),
    ([str(EXAMPLES / "reroll.py"), "rolls_left=0", "face=3"], "no actions: the game is over"),
])
def test_a_state_without_actions_is_said_for_what_it_is(capsys, argv, line):
    assert main(["advise", *argv]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == line
