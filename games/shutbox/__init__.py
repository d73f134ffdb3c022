"""Shut the Box.

Tiles numbered 1 to 9 start open. Each turn the player rolls the dice and shuts open tiles
whose values add up to the total rolled; when no set of open tiles adds up to it, the game
ends. The player wins by shutting every tile.

A state is ``(open, roll)``: ``open`` is a bit mask of the open tiles (bit ``i`` for the
``i``-th tile), ``roll`` the total just rolled, or ``None`` before rolling. Before a roll the
actions are the numbers of dice the player may roll; after it, the masks of tiles to shut.
"""

import mdp
from games.shutbox.rules import PARAMS, box

GAME_NAME = "shutbox"


@mdp.hookimpl
def mdp_params():
    return PARAMS


@mdp.hookimpl
def mdp_describe(params):
    return f"Shut the Box: {box(params).describe()}"


@mdp.hookimpl
def mdp_objective(params):
    return mdp.Objective("chance of shutting the box", "max", probability=True)


@mdp.hookimpl
def mdp_initial_state(params):
    return (box(params).full, None)


@mdp.hookimpl
def mdp_actions(params, state):
    mask, roll = state
    if roll is None:
        return list(box(params).dice_options(mask)) if mask else []
    return box(params).moves(mask, roll)


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    mask, roll = state
    if roll is None:
        return [(p, (mask, total)) for p, total in box(params).roll(action)]
    return [(1, (mask & ~action, None))]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    mask, _ = state
    return 1 if mask == 0 else 0


@mdp.hookimpl
def mdp_state_columns(params, state):
    mask, roll = state
    return {"open": " ".join(map(str, box(params).open_tiles(mask))), "roll": roll}


@mdp.hookimpl
def mdp_action_columns(params, state, action):
    mask, roll = state
    if roll is None:
        return {"dice": action, "shut": None}
    return {"dice": None, "shut": " ".join(map(str, box(params).open_tiles(action)))}
