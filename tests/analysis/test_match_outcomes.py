"""The outcome column of a match (mdp_match_rules) is checked where match reads it: integers
of any size a table keeps as integers (past 64 bits as Python ints: main stopped with a
traceback) give the match of their order; text, fractions, true/false, floats and a terminal
state without a result are refused in one line naming the game, the hook and the column
(main gave the payoff text or booleans, and blamed the payoff)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import KeptDie

import mdp


class Die(KeptDie):
    """Roll a three-sided die, then keep it or roll once more; the result is ``result(face)``
    and the higher result wins the stake from the other player."""

    def __init__(self, result):
        self.result = result

    @mdp.hookimpl
    def mdp_state_columns(self, state):
        return {"score": None if state[1] is None else self.result(state[1])}

    @mdp.hookimpl
    def mdp_match_rules(self):
        def payoff(results):
            won = np.array([(b > a) - (b < a) for a, b in results.tolist()])
            return np.stack([-won, won], axis=1)
        return mdp.MatchRules("score", payoff)


def brute_second():
    """The second player's winnings, by hand over the three faces: knowing the first's face
    a, keep a first face f if its sign(f - a) beats rolling again (the mean over g)."""
    def sign(x):
        return (x > 0) - (x < 0)

    def after(a):
        again = Fraction(sum(sign(g - a) for g in (1, 2, 3)), 3)
        return sum(max(Fraction(sign(f - a)), again) for f in (1, 2, 3)) / 3

    # The first player keeps a face f where leaving the second less beats rolling again.
    again = sum(after(g) for g in (1, 2, 3)) / 3
    return sum(min(after(f), again) for f in (1, 2, 3)) / 3


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 2**60), st.integers(-2**126, 2**126))
@pytest.mark.slow
def test_integer_results_of_any_size_play_the_match_of_their_order(scale, offset):
    """Results ``scale * face + offset`` (ordered as the faces): the second player wins
    :func:`brute_second` (2/81), past 64 bits too."""
    game = mdp.load_game(Die(lambda face: scale * face + offset))
    largest = max(abs(scale * f + offset) for f in (1, 2, 3))
    if largest >= 2**127:  # a table keeps it as text: refused below
        return
    values = mdp.match(mdp.compile(game), game, exact=True).values
    assert values == (-brute_second(), brute_second())
    floats = mdp.match(mdp.compile(game), game).values
    assert floats[1] == pytest.approx(float(brute_second()), rel=1e-12)


@pytest.mark.parametrize("result, held", [
    (lambda face: Fraction(face, 2), "text"),
    (lambda face: 2**200 + face, "text"),
    (lambda face: str(face), "text"),
    (lambda face: face > 1, "true/false"),
    (lambda face: face + 0.5, "floats"),
])
def test_results_that_are_not_integers_are_refused_naming_the_column(result, held):
    game = mdp.load_game(Die(result))
    with pytest.raises(mdp.ModelError, match=rf"^game die: mdp_match_rules's outcome column "
                       rf"'score' holds {held}\b.*; a player's result is an integer at every "
                       r"terminal state"):
        mdp.match(mdp.compile(game), game)


def test_a_terminal_state_without_a_result_is_refused():
    game = mdp.load_game(Die(lambda face: None if face == 3 else face))
    with pytest.raises(mdp.ModelError, match=r"^game die: mdp_match_rules's outcome column "
                       r"'score' has no value at a terminal state \(.*\); a player's result"):
        mdp.match(mdp.compile(game), game)
