"""The batch path of the engine (mdp_expand, mdp_stage) on the Ladder model of tests/models.py."""

from fractions import Fraction

import attrs
import numpy as np
import pytest

import mdp
from models import Ladder


@pytest.mark.parametrize(("start", "expected"), [(1, Fraction(5, 6)), (2, Fraction(3, 4)),
                                                 (3, Fraction(5, 8)), (4, Fraction(9, 16))])
def test_ladder_values_derived_by_hand(start, expected):
    game = mdp.load_game(Ladder(start))
    assert mdp.solve(game, exact=True).value == expected
    assert mdp.solve(game).value == pytest.approx(float(expected), rel=1e-15)


def test_batch_and_per_state_paths_build_the_same_model():
    game = mdp.load_game(Ladder(6))
    batch, per_state = mdp.compile(game), mdp.compile(game, batch=False)
    assert (batch.n_states, batch.n_actions, batch.n_outcomes) == (
        per_state.n_states, per_state.n_actions, per_state.n_outcomes)
    exact = [mdp.solve(m, exact=True) for m in (batch, per_state)]
    assert exact[0].value == exact[1].value
    for key in range(0, 13, 2):
        assert exact[0].value_of(key) == exact[1].value_of(key)


def test_batch_policy_marks_the_tie():
    policy = mdp.policy(mdp.solve(game := mdp.load_game(Ladder(3)), exact=True), game)
    at_three = policy.filter(policy["state"] == "6")
    assert at_three["optimal"].to_list() == [True, True]
    assert at_three["value_exact"].to_list() == ["5/8", "5/8"]


class Broken(Ladder):
    """The Ladder with one thing wrong in its expansion of position 2."""

    def __init__(self, fault):
        super().__init__(3)
        self.fault = fault

    @mdp.hookimpl
    def mdp_expand(self, states):
        expansion = super().mdp_expand(states)
        if 4 not in states.tolist():
            return expansion
        if self.fault == "sum":
            table = (Fraction(5, 6), Fraction(1, 6), Fraction(3, 4), Fraction(1, 5))
            return attrs.evolve(expansion, probability_table=table)
        if self.fault == "negative":
            table = (Fraction(7, 6), Fraction(-1, 6), Fraction(3, 4), Fraction(1, 4))
            return attrs.evolve(expansion, probability_table=table)
        if self.fault == "rising":
            return attrs.evolve(expansion, next_states=np.full_like(expansion.next_states, 6))
        if self.fault == "size":
            return attrs.evolve(expansion, actions=expansion.actions[:1])
        if self.fault == "raise":
            raise RuntimeError("no ladder here")
        return "not an expansion"


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("sum", r"game ladder: probabilities sum to 19/20, not 1 \(state 4, action 1\)"),
        ("negative", r"game ladder: negative probability -1/6 \(state 4, action 0\)"),
        ("rising", r"game ladder: the stage does not decrease: state 6 has stage 3, not below 2 \(state 4, action 0\)"),
        ("size", r"game ladder: mdp_expand gave 1 actions for 2 actions counted"),
        ("raise", r"game ladder: mdp_expand raised RuntimeError: no ladder here \(state 4\)"),
        ("type", r"game ladder: mdp_expand returned str, not an mdp.Expansion"),
    ],
)
def test_batch_errors_name_the_game_state_and_action(fault, message):
    with pytest.raises(mdp.ModelError, match=message):
        mdp.compile(mdp.load_game(Broken(fault)))


def test_batch_game_needs_an_int_initial_state():
    class Named(Ladder):
        @mdp.hookimpl
        def mdp_initial_state(self):
            return "top"

    with pytest.raises(mdp.ModelError, match="game ladder: a game with mdp_expand needs an int initial state, not 'top'"):
        mdp.compile(mdp.load_game(Named()))
