"""A card named by the upper total a player counts, where the card keeps another (0 once the
bonus is out of reach, docs/writing-a-game.rst): the refusal says which values the round
states with the other columns have, so the player can name the card as the game keeps it."""

import pytest

import mdp


@pytest.mark.slow
def test_an_upper_total_the_card_does_not_keep_is_answered_with_the_one_it_does():
    # Ones, twos and sixes score at most 5 + 10 + 30 = 45 < 63 (by hand): the bonus is out of
    # reach from the start, so every card keeps upper 0.
    game = mdp.load_game("yahtzee", card="yahtzee", boxes="ones,twos,sixes")
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ParamError) as raised:
        mdp.advise(solution, game, filled="ones twos", upper=5, rolls_left=3, kept="")
    assert str(raised.value).startswith("no reachable round state has filled='ones twos', "
                                        "upper=5; those with filled='ones twos' have upper 0; ")
    advice = mdp.advise(solution, game, filled="ones twos", upper=0, rolls_left=3, kept="")
    assert advice.state["upper"] == 0
