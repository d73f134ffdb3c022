"""In a match money changes hands among the players (mdp_match_rules: who pays whom): a
payoff whose row does not add up to 0 (every player paid, say) is refused in one line,
naming the results and what it gave, where it was accepted without a word."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import KeptDie

import mdp


class Die(KeptDie):
    """Roll a three-sided die, then keep it or roll once more: the result is the face."""

    def __init__(self, extra):
        self.extra = extra  # what is paid beyond the winner's stake, per results (a, b)

    @mdp.hookimpl
    def mdp_state_columns(self, state):
        return {"score": state[1]}

    @mdp.hookimpl
    def mdp_match_rules(self):
        def payoff(results):
            won = np.sign(results[:, 1] - results[:, 0])
            paid = np.stack([-won, won], axis=1)
            paid[:, 0] += [self.extra.get((int(a), int(b)), 0) for a, b in results]
            return paid
        return mdp.MatchRules("score", payoff)


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(1, 3), st.integers(1, 3)), st.integers(-3, 3),
                       max_size=3))
def test_a_payoff_is_played_only_where_each_row_adds_up_to_nothing(extra):
    game = mdp.load_game(Die(extra))
    off = sorted((a, b) for (a, b), c in extra.items() if c)
    if not off:  # zero-sum: the second player's winnings are the first's losses
        values = mdp.match(mdp.compile(game), game, exact=True).values
        assert values[0] == -values[1]
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.match(mdp.compile(game), game, exact=True)
    a, b = off[0]
    won = (b > a) - (b < a)
    assert str(error.value) == (
        f"game die: the payoff of mdp_match_rules gave [{-won + extra[(a, b)]}, {won}] for the "
        f"results [{a}, {b}], adding up to {extra[(a, b)]}: in a match money changes hands "
        "among the players, so what each row pays adds up to 0")


class Typed(Die):
    """The zero-sum payoff, given as an array of ``dtype``: -1 as uint64 is 2**64 - 1."""

    def __init__(self, dtype):
        super().__init__({})
        self.dtype = dtype

    @mdp.hookimpl
    def mdp_match_rules(self):
        rules = Die.mdp_match_rules(self)
        return mdp.MatchRules("score", lambda results: rules.payoff(results).astype(self.dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_a_row_adds_up_as_the_numbers_it_holds_in_every_integer_type(dtype):
    # Round 24: uint64 rows [2**64 - 1, 1] added up to 0 by wrapping around, and the match
    # paid 2**63 in a game that pays 1. Added as the numbers they are, they add up to 2**64.
    game = mdp.load_game(Typed(dtype))
    if np.iinfo(dtype).min < 0:  # -1 is -1: the game's own match
        assert mdp.match(mdp.compile(game), game, exact=True).values == \
            mdp.match(mdp.compile(mdp.load_game(Die({}))), game, exact=True).values
        return
    top = int(np.iinfo(dtype).max)
    with pytest.raises(mdp.ModelError, match=rf"gave \[{top}, 1\] for the results \[\d, \d\], adding up to "
                       rf"{top + 1}: in a match"):
        mdp.match(mdp.compile(game), game, exact=True)
