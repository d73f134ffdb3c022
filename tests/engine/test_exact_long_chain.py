"""An exact solve keeps each layer's values as integers over the layer's scale, and brings a
successor's value to it by the factor from one scale to the other. Those factors were made
as a table of every pair of scales: as many integers as the square of the layers, each as
long as a scale (round 32, P32-11: a chain of 3,000 chance layers took 1.8 GB and more than
45 s; 6,000, minutes). Generated: chains of chance moves of any length, with a choice on the
way, solved exactly, against the value worked out by hand."""

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp


def chain(length: int, win: Fraction, stop_at: int):
    """From state i (below ``length``): "go" wins with chance ``win``, else moves to i + 1;
    at ``stop_at`` also "stop", worth 1/2. The end of the chain is worth 0, a win 1."""

    def actions(state):
        if isinstance(state, str) or state >= length:
            return []
        return ["go", "stop"] if state == stop_at else ["go"]

    def outcomes(state, action):
        return [(1, "stopped")] if action == "stop" else [(win, "win"), (1 - win, state + 1)]

    def terminal(state):
        return {"win": 1, "stopped": Fraction(1, 2)}.get(state, 0)

    return mdp.load_game(SimpleNamespace(
        GAME_NAME="chain", mdp_initial_state=mdp.hookimpl(lambda: 0),
        mdp_actions=mdp.hookimpl(actions), mdp_outcomes=mdp.hookimpl(outcomes),
        mdp_terminal_value=mdp.hookimpl(terminal)))


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.integers(1, 2500), st.sampled_from([Fraction(1, 7), Fraction(2, 9), Fraction(1, 2)]),
       st.integers(0, 2500))
def test_a_long_chain_is_solved_exactly(length, win, stop_at):
    solution = mdp.solve(mdp.compile(chain(length, win, stop_at)), exact=True)
    # By hand, from the end back: at state i the chance of a win before the end is
    # 1 - (1 - win)**(length - i); at stop_at the better of that and 1/2.
    value = 1 - (1 - win) ** (length - stop_at) if stop_at < length else None
    if value is not None:
        value = max(value, Fraction(1, 2)) * (1 - win) ** stop_at + (1 - (1 - win) ** stop_at)
    else:
        value = 1 - (1 - win) ** length
    assert solution.value == value
