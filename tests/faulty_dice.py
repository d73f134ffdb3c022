"""Hold or roll, a small game of per-state hooks whose every hook can misbehave on demand
(tests/faulty.py): roll a die up to ``rolls`` times, keep a face or roll again, score the
face kept; or stop at once for 3."""

from fractions import Fraction

from faulty import injectable

import mdp

GAME_NAME = "faulty_dice"


@mdp.hookimpl
@injectable
def mdp_params():
    return [mdp.Param("rolls", 2, int, "rolls allowed")]


@mdp.hookimpl
@injectable
def mdp_check(params):
    if params["rolls"] < 1:
        raise mdp.ParamError("rolls: at least 1")


@mdp.hookimpl
@injectable
def mdp_describe(params):
    return f"hold or roll, {params['rolls']} rolls"


@mdp.hookimpl
@injectable
def mdp_objective(params):
    return mdp.Objective("face kept", "max")


@mdp.hookimpl
@injectable
def mdp_estimate_states(params):
    return 2 + 6 * params["rolls"]


@mdp.hookimpl
@injectable
def mdp_initial_state(params):
    return (params["rolls"], 0)


@mdp.hookimpl
@injectable
def mdp_actions(params, state):
    left, face = state
    if left < 0:
        return []
    if face == 0:
        return ["stop", "roll"]
    return ["keep", "roll"] if left > 0 else ["keep"]


@mdp.hookimpl
@injectable
def mdp_outcomes(params, state, action):
    left, face = state
    if action == "stop":
        return [(1, (-1, 3))]
    if action == "keep":
        return [(1, (-1, face))]
    return [(Fraction(1, 6), (left - 1, f)) for f in range(1, 7)]


@mdp.hookimpl
@injectable
def mdp_terminal_value(params, state):
    return state[1]


@mdp.hookimpl
@injectable
def mdp_state_columns(params, state):
    left, face = state
    return {"rolls_left": max(left, 0), "face": face}


@mdp.hookimpl
@injectable
def mdp_action_columns(params, state, action):
    return {"move": action}
