"""Shut the Box: roll dice and shut open tiles adding up to the roll, until all are shut.

Tiles numbered 1 to 9 start open. Each turn the player rolls the dice and shuts open tiles
whose values add up to the total rolled; when no set of open tiles adds up to it, the game
ends. The player wins by shutting every tile.

A state is an integer key (see :mod:`mdp_games.shutbox.box`): the open tiles and, between a
roll and the move, the total rolled. Before a roll the actions are the numbers of dice the
player may roll; after it, the sets of tiles to shut (as masks). The game is described once,
by the batch hooks (a frontier of states at a time); tests/brute_shutbox.py, a plain
solver sharing no code with it, checks every rule against it.
"""

from __future__ import annotations

import os

import numpy as np

import mdp

from ..dice import check_weights, sum_distribution
from . import expand, hookspecs, match, one_die, report, scoring, strategies
from .box import subsets_adding_to
from .columns import columns
from .params import PARAMS, check_in_force, check_payout, check_schedule
from .rules import box, scoring_rules

GAME_NAME = "shutbox"
RULE_PLUGINS = "shutbox"
"""The entry-point group of rule plugins registered with the game, like pytest's ``pytest11``."""


@mdp.hookimpl
def mdp_configure(plugins):
    plugins.add_hookspecs(hookspecs)
    plugins.register(scoring, name="shutbox.scoring")
    plugins.register(one_die, name="shutbox.one_die")
    plugins.register(strategies, name="shutbox.strategies")
    plugins.register(match, name="shutbox.match")
    plugins.register(report, name="shutbox.report")
    mdp.register_plugins(plugins, RULE_PLUGINS)


@mdp.hookimpl
def mdp_params():
    return PARAMS


@mdp.hookimpl
def mdp_check(params, game):
    rules = scoring_rules(game)
    if params["scoring"] not in rules:
        raise mdp.ParamError(f"parameter scoring={params['scoring']}: unknown scoring rule"
                             f"{mdp.did_you_mean(params['scoring'], rules)} "
                             f"(allowed: {', '.join(rules)})")
    if (params["scoring"] == "payout") != (params["payout"] is not None):
        raise mdp.ParamError("parameters scoring and payout go together: set both "
                             "scoring=payout and payout=TABLE, or neither")
    check_payout(params["payout"], params["tiles"])
    check_weights(params["weights"], params["faces"])
    check_schedule(game)
    check_in_force(game)  # else a rule would be dropped unsaid


@mdp.hookimpl
def mdp_variants():
    return mdp.read_variants(os.path.join(os.path.dirname(__file__), "variants.toml"))


@mdp.hookimpl
def mdp_describe(game):
    return f"Shut the Box: {box(game).describe()}"


@mdp.hookimpl
def mdp_objective(game):
    rule = box(game).scoring
    return mdp.Objective(rule.objective, rule.sense, probability=rule.probability)


@mdp.hookimpl
def shutbox_dice_options(box, masks):
    return box.usual_dice(masks)[:, None]


@mdp.hookimpl
def shutbox_rolls(params, dice):
    return [(p, total, None) for p, total in sum_distribution(dice, params["faces"], params["weights"])]


@mdp.hookimpl
def shutbox_moves(params, total):
    return subsets_adding_to(params["tiles"], total)


@mdp.hookimpl
def mdp_initial_state(game):
    b = box(game)
    return b.key(b.full)


# The game, a frontier of states at a time.


@mdp.hookimpl
def mdp_stage(game, states):
    """Twice the number of open tiles, plus one before the roll: every move lowers it."""
    masks, rolls = box(game).split(np.asarray(states))
    stages = np.bitwise_count(masks).astype(np.int16)  # at most 63 tiles
    stages <<= 1
    stages += rolls == 0
    return stages


@mdp.hookimpl
def mdp_expand(game, states, labels):
    b = box(game)
    if states[0] >> b.mask_bits == 0:  # not rolled yet: the keys are the masks
        return expand.before_roll(b, states)
    return expand.after_roll(b, states, labels)


@mdp.hookimpl
def mdp_columns(game, states, actions):
    """``open`` and ``roll`` of each state; with actions, ``dice`` and ``shut`` too (see
    :func:`.columns.columns`)."""
    return columns(box(game), states, actions)
