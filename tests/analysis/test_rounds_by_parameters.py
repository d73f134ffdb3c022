"""A game that implements the round hooks but, under its parameters, starts no round
(``mdp_round_start`` gives ``None``: Yahtzee is one turn until a card is set) is a game of one
model everywhere: no analysis takes it for a game of rounds, nor says it is one (round 17,
R17-N5: one-turn Yahtzee's match said "game yahtzee is played in rounds")."""

import pytest
from models import two_boxes

import mdp
from mdp.program.cli import main


@mdp.hookimpl
def _no_round():
    return None


def test_a_game_whose_round_start_is_none_is_of_one_model():
    game = two_boxes(mdp_round_start=_no_round)
    assert not game.in_rounds and two_boxes().in_rounds
    solution = mdp.solve(mdp.compile(game))
    assert not isinstance(solution, mdp.RoundsSolution)
    assert solution.value == 0  # one round's turn alone, every end worth 0 (tests/models.py)
    with pytest.raises(mdp.ParamError, match="^game two-boxes is not played in matches: it has "
                       "no match rules .*under these parameters it is not played in rounds"):
        mdp.match_rules(game)


@pytest.mark.parametrize("argv", [
    ["match", "yahtzee"],
    ["advise", "yahtzee", "rolls_left=3", "kept=", "--after", "1"],
    ["targets", "yahtzee"],
])
def test_one_turn_yahtzee_is_never_said_to_be_played_in_rounds(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is played in rounds" not in err
    assert "not played in" in err or "is of one model" in err
