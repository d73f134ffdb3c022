"""What a game's mdp_turns answers is checked as the model is compiled: a total that takes a
chance of winning out of 0 to 1, or that no float holds, and an answer of ``passes`` that
is not a boolean per transition, each refused in one line, naming the first transition
without one."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import HALF, Table

import mdp


class Race(Table):
    """Two players: ``go`` wins (1) or hands the same state to the other, at even chances.
    v = 1/2 + 1/2 (total - v): v = (1 + total) / 3, 2/3 for a chance of winning."""

    GAME_NAME = "race"

    def __init__(self, total=1, probability=True, passes=None):
        super().__init__({"s": {"go": [(HALF, "won"), (HALF, "s")]}}, {"won": 1}, initial="s")
        self.total, self.probability = total, probability
        self.passes = passes or (lambda states, nexts: [n == "s" for n in nexts])

    @mdp.hookimpl
    def mdp_objective(self):
        return mdp.Objective("chance of winning" if self.probability else "points", "max",
                             self.probability)

    @mdp.hookimpl
    def mdp_turns(self):
        return mdp.Turns(self.passes, total=self.total)


def test_a_chance_of_winning_against_the_other_is_one_less_theirs():
    assert mdp.solve(mdp.compile(mdp.load_game(Race())), exact=True).value == Fraction(2, 3)


@settings(max_examples=30, deadline=None)
@given(st.one_of(st.integers(-10**6, 10**6), st.fractions()).filter(lambda t: t != 1))
def test_a_total_other_than_1_is_refused_for_a_chance(total):
    with pytest.raises(mdp.ModelError, match=r"game race: mdp_turns gave total=.*, but "
                                             r"mdp_objective says the values are probabilities"):
        mdp.compile(mdp.load_game(Race(total)))


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.integers(-5, 5) | st.fractions(-5, 5, max_denominator=7))
def test_any_total_a_float_holds_is_solved_for_points(total):
    value = mdp.solve(mdp.compile(mdp.load_game(Race(total, probability=False))), exact=True).value
    assert value == (1 + Fraction(total)) / 3


@pytest.mark.parametrize("total", [10**400, -10**309, Fraction(10**400, 3)])
def test_a_total_no_float_holds_is_refused_not_a_traceback(total):
    with pytest.raises(mdp.ModelError, match=r"game race: mdp_turns gave total=-?\(a number of "
                                             r"about \d+ digits\), past what a float holds"):
        mdp.compile(mdp.load_game(Race(total, probability=False)))


@pytest.mark.parametrize("total", [Fraction(1, 10**400), Fraction(-7, 10**320)])
def test_a_total_below_a_float_is_refused(total):
    """Round 27: solved in floats as 0, exit 0, where the hook's docs promise a refusal."""
    with pytest.raises(mdp.ModelError, match=r"game race: mdp_turns gave total=.*, below what a "
                                             r"float holds \(about 2.2e-308\)"):
        mdp.compile(mdp.load_game(Race(total, probability=False)))


@pytest.mark.parametrize("kind", [np.int64, np.int8, np.uint16])
def test_numpys_whole_numbers_are_a_total_by_their_value(kind):
    """Round 27: refused as no int; by hand (Race): the mover's value is (1 + total) / 3."""
    value = mdp.solve(mdp.compile(mdp.load_game(Race(kind(2), probability=False))), exact=True).value
    assert value == 1


@pytest.mark.parametrize(("passes", "wrong"), [
    (lambda s, n: [x == "s" for x in n][:-1], "; the first wrong: 's' -> 's' has no answer"),
    (lambda s, n: ["yes" if x == "s" else "" for x in n], "; the first wrong: 's' -> 'won' gave ''"),
    (lambda s, n: [int(x == "s") for x in n], "; the first wrong: 's' -> 'won' gave 0"),
    (lambda s, n: [x == "s" for x in n] + [True], ""),
    (lambda s, n: True, ""),
])
def test_a_wrong_answer_of_passes_names_the_first_transition_without_one(passes, wrong):
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(mdp.load_game(Race(passes=passes)))
    assert str(error.value).startswith("game race: mdp_turns: passes gave ")
    assert str(error.value).endswith(f"not a boolean per transition (2){wrong}")
