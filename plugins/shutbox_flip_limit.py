"""Shut the Box rule plugin: at most ``max_flips`` tiles may be shut per roll.

It declares the parameter ``max_flips`` and the variant ``max-two-flips``, and wraps the
game's legal moves, keeping the sets of at most that many tiles. Unset (the default), it
changes nothing. A limit that no roll reaches (as many tiles as a throw can shut, or more)
is refused as doing nothing.
"""

import mdp
from mdp.shown import counted
from mdp_games.dice import counted_dice
from mdp_games.shutbox.acting import most_shut, thrown_counts
from mdp_games.shutbox.params import no_effect

GAME = "shutbox"  # the game it is a rule plugin of: refused by any other

_parse_limit = mdp.parse_int(1, why="unset: no limit")


def parse_max_flips(value):
    """A whole number of 1 or more; unset (``None`` or ``""``): no limit."""
    return None if value is None or value == "" else _parse_limit(value)


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("max_flips", None, parse_max_flips,
                      "at most this many tiles shut per roll (unset: no limit)")]


@mdp.hookimpl
def mdp_variants():
    durango = {"one_die": "sum6", "one_die_mode": "forced"}
    return [mdp.Variant("max-two-flips", {**durango, "max_flips": "2"},
                        "durango, and at most two tiles may be shut per roll")]


@mdp.hookimpl
def mdp_check(params, game):
    limit = params["max_flips"]
    if limit is None:
        return
    # doubles=extra (plugins/shutbox_doubles.py) lets one more tile be shut after a double
    most = most_shut(params) + (params.get("doubles") == "extra")
    if limit >= most:
        of = (f"of tiles {mdp.show_int_list(params['tiles'])}, with throws of at most "
              f"{counted_dice(max(thrown_counts(params)))}")
        shuts = "a tile" if most == 0 else f"more than {counted(most, 'tile')}"
        # (max_flips is 1 or more: below 1, or below 2 where no roll shuts more than one, no
        # value of it would act)
        raise no_effect(game, "max_flips", f"no roll shuts {shuts} ({of})",
                        f"set max_flips below {most}" if most > 1 else None)


@mdp.hookimpl(wrapper=True)
def shutbox_moves(params):
    moves = yield
    limit = params["max_flips"]
    return moves if limit is None else [m for m in moves if m.bit_count() <= limit]


@mdp.hookimpl(wrapper=True)
def mdp_describe(params):
    text = yield
    limit = params["max_flips"]
    return text if limit is None else f"{text}; at most {counted(limit, 'tile')} shut per roll"
