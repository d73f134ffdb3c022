"""Shut the Box rule plugin: at most ``max_flips`` tiles may be shut per roll.

It declares the parameter ``max_flips`` and wraps the game's legal moves, keeping the sets
of at most that many tiles. Unset (the default), it changes nothing.
"""

import mdp


def parse_max_flips(value):
    if value is None or value == "":
        return None
    try:
        limit = int(value)
    except (TypeError, ValueError):
        limit = 0
    if limit < 1:
        raise ValueError("expected a whole number of 1 or more (unset: no limit)")
    return limit


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("max_flips", None, parse_max_flips,
                      "at most this many tiles shut per roll (unset: no limit)")]


@mdp.hookimpl(wrapper=True)
def shutbox_moves(params):
    moves = yield
    limit = params["max_flips"]
    return moves if limit is None else [m for m in moves if m.bit_count() <= limit]


@mdp.hookimpl(wrapper=True)
def mdp_describe(params):
    text = yield
    limit = params["max_flips"]
    return text if limit is None else f"{text}; at most {limit} tiles shut per roll"
