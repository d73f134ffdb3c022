"""Shut the Box rule plugin: a double lets the player shut one more tile.

With ``doubles=extra``, after a throw of two dice that show the same face the player shuts
tiles adding up to the total as usual and may shut one more open tile of their choice too.
One die, or three dice or more, never throw a double; where no open tiles add up to the
total, the game ends as usual, double or not. The extra tile counts toward ``max_flips``
(plugins/shutbox_flip_limit.py), so that ``max_flips=1`` leaves it no room: refused.
"""

import mdp
from mdp_games.dice import multiset_distribution
from mdp_games.shutbox.acting import thrown_counts
from mdp_games.shutbox.params import no_effect

GAME = "shutbox"  # the game it is a rule plugin of: refused by any other

DOUBLES = {"plain": "a double counts as its total", "extra": "a double lets one more tile be shut"}


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("doubles", "plain", mdp.parse_choice(DOUBLES),
                      "extra: after a double, one more open tile may be shut; plain: no")]


@mdp.hookimpl
def mdp_variants():
    return [mdp.Variant("doubles-extra", {"doubles": "extra"},
                        "riddler, and after a double one more open tile of the player's choice may be shut")]


@mdp.hookimpl
def mdp_check(params, game):
    thrown = thrown_counts(params)
    if params["doubles"] == "extra" and 2 not in thrown:
        raise no_effect(game, "doubles", "no throw is of two dice (of "
                        f"{' or '.join(map(str, sorted(thrown)))}); a double is two dice alike",
                        "throw two dice (dice=2, or a dice_schedule with :2)")
    if params["doubles"] == "extra" and params.get("max_flips") == 1:  # of shutbox_flip_limit
        raise no_effect(game, "doubles", "max_flips=1: the extra tile is shut with those of "
                        "the total, at least one, and counts toward max_flips",
                        "raise max_flips")


@mdp.hookimpl(wrapper=True)
def shutbox_rolls(params, dice):
    rolls = yield
    if params["doubles"] == "plain" or dice != 2:
        return rolls
    return [(p, sum(faces), "double" if faces[0] == faces[1] else None)
            for p, faces in multiset_distribution(dice, params["faces"], params["weights"])]


@mdp.hookimpl(wrapper=True)
def shutbox_moves(params, kind):
    moves = yield
    # Only where doubles=extra: another rule plugin may give its own rolls the kind "double".
    if params["doubles"] == "plain" or kind != "double":
        return moves
    tiles = range(len(params["tiles"]))
    return list({*moves, *(move | 1 << i for move in moves for i in tiles if not move >> i & 1)})


@mdp.hookimpl(wrapper=True)
def mdp_describe(params):
    text = yield
    return text if params["doubles"] == "plain" else f"{text}; a double lets one more tile be shut"
