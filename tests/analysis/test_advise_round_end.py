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


ENDED = "game two-boxes: no round is played from the round states named (the game ends there), so no state within a round there can be reached"


@pytest.mark.parametrize("within", [[], ["throws_left=2"], ["throws_left=1", "face=3"],
                                    ["face=4", "scored_in=FACE"]])
@pytest.mark.parametrize("extra", [[], ["--at-least", "3", "--points", "1"], ["--exact"]])
def test_no_state_within_a_round_is_advised_where_the_game_has_ended(capsys, within, extra):
    """Both boxes filled, the game is over: no round is played there, and every state of a
    round named there is refused as unreachable (exit 2, one line), as ``policy --within``
    refuses that round state, by the same check (main advised "the round ends here", exit 0)."""
    argv = [str(EXAMPLES / "two_boxes.py"), "filled=FACE EVEN", *within, *extra]
    assert main(["advise", *argv]) == 2
    assert capsys.readouterr().err.strip() == f"mdp: error: {ENDED}"
    assert main(["policy", str(EXAMPLES / "two_boxes.py"), "--within", 'filled="FACE EVEN"']) == 2
    assert capsys.readouterr().err.strip() == f"mdp: error: {ENDED}"
