"""A round state that an error names is named in the game's words, by its round columns beside
its key, wherever the engine (which has no game) names it by its key alone (round 32,
P32-17: "mdp_round_rule gave next -5 from round state 2", where the report's check said
"round state 2 (played 1, banked 0)" and a user could not tell which score card "round state
359,615" is). Each round state of Two boxes at fault in turn, its words by hand."""

from pathlib import Path

import pytest

from mdp.program.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py"
# Two boxes' round states are bit masks of the boxes filled: FACE is 1, EVEN 2.
WORDS = {0: 'filled=""', 1: "filled=FACE", 2: "filled=EVEN"}
RULE = "following = np.where(filled & bit, -1, filled | bit)"


@pytest.mark.parametrize("key", sorted(WORDS))
def test_a_round_state_at_fault_is_named_by_its_round_columns(tmp_path, capsys, key):
    game = tmp_path / "two_boxes.py"
    game.write_text(EXAMPLE.read_text().replace(
        RULE, f"following = np.where(filled == {key}, -5, np.where(filled & bit, -1, filled | bit))"))
    assert main(["solve", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"mdp_round_rule gave next -5 from round state {key} ({WORDS[key]}) at the end " in err, err


def test_a_game_without_round_columns_keeps_the_key_alone(tmp_path, capsys):
    game = tmp_path / "two_boxes.py"
    source = EXAMPLE.read_text().replace(RULE, "following = np.where(filled == 1, -5, np.where("
                                         "filled & bit, -1, filled | bit))")
    game.write_text(source.replace("def mdp_round_columns(", "def _no_round_columns("))
    assert main(["solve", str(game)]) == 2
    assert "from round state 1 at the end " in capsys.readouterr().err
