"""A game whose mdp_state_columns give a state other columns when asked again is refused in
one line, as one whose mdp_actions give other actions is: the columns are fingerprinted as
the states are found and checked when a table shows them. A hook that gave ``face`` 7 the
second time filled every row of the policy table with 7, and mdp advise suggested a state
that does not exist."""

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

STATES = [("roll", 2), ("face", 1, 1), ("face", 1, 2), ("end", 1), ("end", 2)]
"""Roll a coin (faces 1 and 2), then keep the face: five states, two of them ends."""


def _game(changed, how):
    """The coin; the columns of the state ``changed`` are other ones from the second time
    they are asked (``how``: another value, a NaN, another order), or never (None)."""
    asked = {}

    def mdp_initial_state():
        return ("roll", 2)

    def mdp_actions(state):
        return {"roll": ["roll"], "face": ["keep"]}.get(state[0], [])

    def mdp_outcomes(state, action):
        if action == "roll":
            return [(Fraction(1, 2), ("face", 1, f)) for f in (1, 2)]
        return [(1, ("end", state[2]))]

    def mdp_terminal_value(state):
        return state[1]

    def mdp_state_columns(state):
        asked[state] = asked.get(state, 0) + 1
        # A NaN made anew each time: the same columns (its hash is not the same each time).
        row = {"stage": state[0], "face": state[-1] if state[0] != "roll" else None,
               "odds": float("nan")}
        if state == changed and asked[state] > 1:
            row = {"value": dict(row, face=7), "nan": dict(row, face=float("nan")),
                   "order": dict(reversed(row.items()))}[how]
        return row

    hooks = {f.__name__: mdp.hookimpl(f) for f in (
        mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value, mdp_state_columns)}
    return mdp.load_game(SimpleNamespace(GAME_NAME="coin", **hooks))


def _tables(game):
    """Everything that shows the states' columns: the terminal states, the policy table,
    and advice (naming the state after a roll of 1)."""
    solution = mdp.solve(mdp.compile(game), exact=True)
    return [solution.model.terminals, mdp.policy(solution, game),
            mdp.advise(solution, game, stage="face", face=1).actions]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([None, *STATES]), st.sampled_from(["value", "nan", "order"]))
def test_other_columns_asked_again_are_refused_naming_the_state(changed, how):
    game = _game(changed, how)
    if changed is None:
        terminals, policy, advice = _tables(game)
        # By hand: each face half the time, kept: 3/2 after the roll, the face after it.
        assert policy.select("stage", "face", "value_exact").rows() == [
            ("roll", None, "3/2"), ("face", 1, "1"), ("face", 2, "2")]
        assert terminals["face"].to_list() == [1, 2] and advice.height == 1
        return
    with pytest.raises(mdp.ModelError) as error:
        _tables(game)
    message = str(error.value)
    assert message.startswith("game coin: asked again, mdp_state_columns gave {")
    assert message.endswith(f" (state {changed!r}): other columns than as the game was compiled; "
                            "a game must give the same columns of a state each time it is asked")
