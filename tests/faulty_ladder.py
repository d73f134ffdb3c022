"""The Ladder of tests/models.py as a game of batch hooks whose every hook can misbehave on
demand (tests/faulty.py)."""

from faulty import injectable
from models import Ladder

import mdp

GAME_NAME = "faulty_ladder"
LADDER = Ladder(4)


@mdp.hookimpl
@injectable
def mdp_describe():
    return "a ladder of 4"


@mdp.hookimpl
@injectable
def mdp_initial_state():
    return LADDER.mdp_initial_state()


@mdp.hookimpl
@injectable
def mdp_stage(states):
    return LADDER.mdp_stage(states)


@mdp.hookimpl
@injectable
def mdp_expand(states):
    return LADDER.mdp_expand(states)


@mdp.hookimpl
@injectable
def mdp_columns(states, actions):
    columns = {"position": [int(s) // 2 for s in states]}
    if actions is not None:
        columns["move"] = [None if a is None else ("walk", "jump")[a] for a in actions]
    return columns
