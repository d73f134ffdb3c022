"""A score card played with other rolls than three says so in its rules line (round 24: rolls
1 to 4 gave 17.5 to 24.7 under one description), and the card's own three go unsaid."""

import pytest

import mdp


@pytest.mark.parametrize("rolls", [1, 2, 3, 4])
def test_the_rules_line_names_the_rolls_of_a_turn(rolls):
    described = mdp.load_game("yahtzee", card="yatzy", boxes="ones", rolls=rolls).describe()
    said = f", up to {rolls} roll{'s' * (rolls != 1)} a turn"
    assert described.endswith("boxes ones" + ("" if rolls == 3 else said)), described
