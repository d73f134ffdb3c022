"""Reroll: roll a die, keep the face or roll again; the last roll must be kept.

The score is the face kept; the player maximizes its expectation. A state is
``(rolls_left, face)``, with ``face`` None before the first roll.
"""

from fractions import Fraction

import mdp

GAME_NAME = "reroll"


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("rolls", 3, int, "how many times the die may be rolled")]


@mdp.hookimpl
def mdp_check(params):
    if params["rolls"] < 1:
        raise mdp.ParamError(f"parameter rolls={params['rolls']}: at least 1 roll is needed")


@mdp.hookimpl
def mdp_describe(params):
    return f"Reroll: up to {params['rolls']} rolls of a die, keep the last"


@mdp.hookimpl
def mdp_objective(params):
    return mdp.Objective("expected face kept", "max")


@mdp.hookimpl
def mdp_estimate_states(params):
    return 1 + 6 * params["rolls"]  # exact: the start, then six faces per roll


@mdp.hookimpl
def mdp_initial_state(params):
    return (params["rolls"], None)


@mdp.hookimpl
def mdp_actions(params, state):
    rolls_left, face = state
    if face is None:
        return ["roll"]
    return ["keep", "roll"] if rolls_left > 0 else []  # no rolls left: the game is over


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    rolls_left, face = state
    if action == "keep":
        return [(1, (0, face))]
    return [(Fraction(1, 6), (rolls_left - 1, new_face)) for new_face in range(1, 7)]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    rolls_left, face = state
    return face


@mdp.hookimpl
def mdp_state_columns(params, state):
    rolls_left, face = state
    return {"rolls_left": rolls_left, "face": face}


@mdp.hookimpl
def mdp_action_columns(params, state, action):
    return {"action": action}
