"""Games of rounds in the engine (mdp/engine/rounds.py), on the small game of tests/models.py
(two_boxes) whose value is worked out here by hand, and the faults a game of rounds can make."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, two_boxes

import mdp


def test_a_game_of_rounds_compiles_to_its_round_and_its_round_states():
    rounds = mdp.compile(two_boxes())
    assert isinstance(rounds, mdp.Rounds)
    assert rounds.n_rounds == 2 and rounds.start == 0
    assert [k.tolist() for k in rounds.keys] == [[0], [1, 2], [3]]
    assert rounds.round.n_terminal == 12  # two boxes times six faces


def test_the_value_of_a_game_of_rounds_is_the_hand_derivation_exactly_and_in_floats():
    rounds = mdp.compile(two_boxes())
    exact = mdp.solve(rounds, exact=True)
    assert exact.value == TWO_BOXES and exact.exact
    assert exact.value_of(1) == 4 and exact.value_of(2) == Fraction(7, 2) and exact.value_of(3) == 0
    floats = mdp.solve(rounds)
    assert floats.value == pytest.approx(float(TWO_BOXES), rel=1e-15)
    summary = floats.summary()
    assert (summary["round_states"], summary["rounds"], summary["states"]) == (4, 2, 19)


def test_minimizing_a_game_of_rounds_takes_the_worse_box():
    # The least: f + 4 against 2f [f even] + 7/2 at the least: 4.5, 6, 6.5, 8, 6.5, 9.5 ... the
    # second round worth 7/2 (A left) or 4 (B left) as before, the first min(f + 4, ...).
    least = [min(f + 4, (2 * f if f % 2 == 0 else 0) + Fraction(7, 2)) for f in range(1, 7)]
    assert mdp.solve(mdp.compile(two_boxes()), exact=True, sense="min").value == sum(least) / 6


def test_terminal_values_and_policies_do_not_apply_to_a_game_of_rounds():
    rounds = mdp.compile(two_boxes())
    with pytest.raises(mdp.ParamError, match="terminal= and policy= do not apply"):
        mdp.solve(rounds, terminal=[0] * 12)


def test_an_end_not_allowed_that_chance_alone_reaches_is_the_games_fault():
    @mdp.hookimpl
    def mdp_outcomes(state, action):  # the box is drawn at random, not chosen
        if state[0] == "throw":
            return [(Fraction(1, 12), ("end", box, f)) for f in range(1, 7) for box in "AB"]
        raise AssertionError("no other action")

    with pytest.raises(mdp.ModelError, match="from round state 1, a round can come to an end "
                       "that mdp_round_rule does not allow there"):
        mdp.solve(mdp.compile(two_boxes(mdp_outcomes=mdp_outcomes)))


def test_a_round_state_reached_after_different_numbers_of_rounds_is_refused():
    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            # From 0 the ends lead to 1 or to 2; from 1 to 2 again.
            following = np.where(states[:, None] == 0, np.arange(len(ends)) % 2 + 1,
                                 np.where(states[:, None] == 1, 2, -1))
            return mdp.RoundEnds(following, np.zeros(following.shape, dtype=np.int64))
        return rule

    with pytest.raises(mdp.ModelError, match="round state 2 is reached after 2 rounds and after "
                       "fewer"):
        mdp.compile(two_boxes(mdp_round_rule=mdp_round_rule))


@pytest.mark.parametrize("answer, message", [
    (lambda states, ends: (states, states), "must return an mdp.RoundEnds, not tuple"),
    (lambda states, ends: mdp.RoundEnds(np.zeros((len(states), 3), dtype=np.int64),
                                        np.zeros((len(states), 3))),
     r"gave next of shape \(1, 3\); expected one row per round state and one column per end "
     r"of the round: \(1, 12\)"),
    (lambda states, ends: mdp.RoundEnds(np.zeros((len(states), 12)), np.zeros((len(states), 12))),
     "gave next as float64; round states are keys of a signed int type"),
    (lambda states, ends: mdp.RoundEnds(np.where(states[:, None] == 0, 1, -1) + np.zeros((1, 12), int),
                                        np.full((len(states), 12), np.nan)),
     r"gave points nan from round state 0 at the end \('end', 'A', 1\); points are finite"),
])
def test_a_wrong_answer_of_mdp_round_rule_is_reported_with_what_was_expected(answer, message):
    hook = mdp.hookimpl(lambda ends: lambda states: answer(states, ends))
    hook.__name__ = "mdp_round_rule"
    with pytest.raises(mdp.ModelError, match=message):
        mdp.compile(two_boxes(mdp_round_rule=hook))


def test_round_states_past_the_state_limit_are_refused():
    @mdp.hookimpl
    def mdp_round_rule(ends):  # 1, then 12, then 144 round states
        def rule(states):
            following = states[:, None] * 12 + np.arange(1, 13)
            return mdp.RoundEnds(np.where(states[:, None] <= 12, following, -1),
                                 np.ones(following.shape, dtype=np.int64))
        return rule

    assert mdp.compile(two_boxes(mdp_round_rule=mdp_round_rule)).n_round_states == 157
    with pytest.raises(mdp.TooLarge, match="more than 100 round states after 2 rounds; raise the limit"):
        mdp.compile(two_boxes(mdp_round_rule=mdp_round_rule), max_states=100)


@settings(max_examples=40, deadline=None)
@given(start=st.one_of(st.just("empty card"), st.booleans(), st.integers(-(2**70), -1),
                       st.integers(2**63, 2**70), st.integers(2**63, 2**64 - 1).map(np.uint64),
                       st.floats()))
def test_a_round_start_that_is_not_an_int_key_is_refused(start):
    # Before: a start of 2**64 was an OverflowError traceback.
    @mdp.hookimpl
    def mdp_round_start():
        return start

    with pytest.raises(mdp.ModelError, match=r"mdp_round_start must give a round state as an int "
                       r"key from 0 to 2\*\*63 - 1, not "):
        mdp.compile(two_boxes(mdp_round_start=mdp_round_start))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=12, max_size=12), st.sampled_from(["array", "object", "numpy"]),
       st.integers(0, 11))
def test_points_of_true_or_false_are_refused_wherever_they_are(flags, kind, at):
    # Before: an array of numpy bools was taken as points 0 and 1 (3/1 for a game of
    # rounds), and a bool among numbers gave numpy's "boolean subtract is not supported".
    def points(n):
        if kind == "array":
            return np.array([flags] * n, dtype=bool)
        row = [1] * 12
        row[at] = bool(flags[at]) if kind == "object" else np.bool_(flags[at])
        return np.array([row] * n, dtype=object)

    def answer(states, ends):
        return mdp.RoundEnds(np.where(states[:, None] == 0, 1, -1) + np.zeros((1, 12), int),
                             points(len(states)))

    hook = mdp.hookimpl(lambda ends: lambda states: answer(states, ends))
    hook.__name__ = "mdp_round_rule"
    first = 0 if kind == "array" else at
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(two_boxes(mdp_round_rule=hook))
    said = str(error.value)
    assert said.startswith(f"game two-boxes: mdp_round_rule gave points {flags[first]} ") and \
        "from round state 0 at the end " in said and \
        said.endswith("points are numbers (int, Fraction or float)"), said
