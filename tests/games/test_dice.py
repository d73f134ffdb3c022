"""Dice shared by dice games (games/dice.py), against throws enumerated face by face."""

import itertools
from fractions import Fraction

import pytest

from mdp_games import dice


def enumerated(n, weights, key=sum):
    """Every ordered throw, face by face, filed under ``key`` of its faces (their sum)."""
    distribution = {}
    for faces_up in itertools.product(range(1, len(weights) + 1), repeat=n):
        p = Fraction(1)
        for face in faces_up:
            p *= weights[face - 1]
        if p:
            distribution[key(faces_up)] = distribution.get(key(faces_up), 0) + p
    return tuple((p, filed) for filed, p in sorted(distribution.items()))


@pytest.mark.parametrize(("n", "weights"), [
    (1, [Fraction(1, 6)] * 6),
    (2, [Fraction(1, 6)] * 6),
    (3, [Fraction(1, 4)] * 4),
    (3, [Fraction(1, 2), Fraction(1, 3), Fraction(0), Fraction(1, 6)]),
])
def test_sum_distribution_against_every_throw(n, weights):
    fair = len(set(weights)) == 1
    assert dice.sum_distribution(n, len(weights), None if fair else tuple(weights)) == enumerated(n, weights)


def test_two_fair_dice():
    # 7 comes up 6 ways in 36; 2 and 12 one way each.
    distribution = dict((total, p) for p, total in dice.sum_distribution(2, 6))
    assert distribution[7] == Fraction(6, 36) and distribution[2] == distribution[12] == Fraction(1, 36)


@pytest.mark.slow
def test_the_largest_throw_allowed():
    distribution = dice.sum_distribution(dice.MAX_DICE, dice.MAX_FACES)
    assert len(distribution) == 4951 and sum(p for p, _ in distribution) == 1


@pytest.mark.parametrize("text", ["1/6", "0.16", "2", "-1/6"])
def test_parse_fraction_is_exact(text):
    assert dice.parse_fraction(text) == Fraction(text)


@pytest.mark.parametrize("text", ["1e-9", "0x10", "", "1/", "one"])
def test_parse_fraction_refuses_other_numbers(text):
    with pytest.raises(ValueError, match="is not a number like 1/6, 0.16 or 2"):
        dice.parse_fraction(text)


@pytest.mark.parametrize(("n", "weights"), [
    (0, [Fraction(1, 6)] * 6),
    (1, [Fraction(1, 6)] * 6),
    (3, [Fraction(1, 6)] * 6),
    (5, [Fraction(1, 6)] * 6),
    (4, [Fraction(1, 2), Fraction(1, 3), Fraction(0), Fraction(1, 6)]),
])
def test_multiset_distribution_against_every_throw(n, weights):
    fair = len(set(weights)) == 1
    got = dice.multiset_distribution(n, len(weights), None if fair else tuple(weights))
    assert got == enumerated(n, weights, key=lambda faces: tuple(sorted(faces)))
    assert sum(p for p, _ in got) == 1


def test_five_dice_show_252_multisets_and_a_yahtzee_of_sixes_is_one_in_7776():
    # C(6 + 5 - 1, 5) = 252 multisets; all five dice showing 6 is (1/6)^5.
    got = dict((faces, p) for p, faces in dice.multiset_distribution(5, 6))
    assert len(got) == 252 and got[(6, 6, 6, 6, 6)] == Fraction(1, 7776)
    assert got[(1, 2, 3, 4, 5)] == Fraction(120, 7776)
