"""A match's payoff that answers for a row by the other rows asked with it (their number,
a total over them, how often it was asked) is refused in one line naming the game and the
hook, by ``match`` and by the later player's values (``advise --after``) alike: before,
the two ranked play by two different games (round 18, P23: a payoff times the number of
rows gave the second player +2/9 in ``match`` and -4 after a result of 3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import KeptDie

import mdp


class Die(KeptDie):
    """:class:`models.KeptDie` as a match: the higher face wins the stake; the payoff of
    the rows given is ``fair`` (+-1 a row) changed by ``how``."""

    def __init__(self, how):
        self.how = how
        self.calls = 0

    @mdp.hookimpl
    def mdp_state_columns(self, state):
        return {"face": state[1]}

    @mdp.hookimpl
    def mdp_match_rules(self):
        def payoff(results):
            self.calls += 1
            won = np.sign(results[:, 1] - results[:, 0])
            return self.how(np.stack([-won, won], axis=1), results, self.calls)
        return mdp.MatchRules("face", payoff)


IMPURE = {
    "times the rows": lambda fair, results, calls: fair * len(results),
    "times the calls": lambda fair, results, calls: fair * calls,
    "times the mean of every result given": lambda fair, results, calls: fair * results.mean(),
    "floats times the rows": lambda fair, results, calls: fair * (0.5 * len(results)),
}
PURE = {
    "fair": lambda fair, results, calls: fair,
    "floats, a third each": lambda fair, results, calls: fair / 3.0,
}


def _answers(how):
    """The match's and the later player's (after a first result of 3) answers, or the
    errors each raised."""
    said = []
    for ask in (lambda m, g: mdp.match(m, g, exact=False).values,
                lambda m, g: mdp.later_player_values(m, g, [3]).tolist()):
        game = mdp.load_game(Die(how))
        try:
            said.append(ask(mdp.compile(game), game))
        except mdp.ModelError as error:
            said.append(error)
    return said


@pytest.mark.parametrize("how", IMPURE)
def test_a_payoff_that_depends_on_the_other_rows_is_refused_by_both(how):
    for said in _answers(IMPURE[how]):
        assert isinstance(said, mdp.ModelError), said
        assert str(said).startswith("game die: the payoff of mdp_match_rules gave ")
        assert str(said).endswith("; a payoff answers for each row by that row alone")


@pytest.mark.parametrize("how", PURE)
def test_a_pure_payoff_passes(how):
    assert not any(isinstance(said, mdp.ModelError) for said in _answers(PURE[how]))


@settings(max_examples=20, deadline=None)
@given(stakes=st.lists(st.integers(1, 10**6), min_size=3, max_size=3))
def test_a_payoff_by_its_row_alone_passes_whatever_its_stakes(stakes):
    # A stake for each face of the winner (a pure function of the row): never refused
    def how(fair, results, calls):
        return fair * np.array(stakes)[results.max(axis=1) - 1][:, None]

    assert not any(isinstance(said, mdp.ModelError) for said in _answers(how))
