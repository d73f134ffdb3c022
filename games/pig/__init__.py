"""Pig, for two players: roll a die as often as you like; a 1 loses the turn, holding banks it.

The rolls add up to a turn total; a 1 loses it and passes the die; holding banks it and passes
the die; the first to reach the goal (100) wins.

Two players take turns, so the game can come back to a state it has been in. A state is
seen from the player to move (:mod:`.rules`): its value is the mover's chance of winning,
and a transition that passes the die counts as one less the other player's chance
(:func:`~mdp.hookspecs.game.mdp_turns`). Under optimal play by both, the first player
wins 53.06% of the time (Neller and Presser, "Optimal Play of the Dice Game Pig", The UMAP
Journal 25(1), 2004); benchmarks/pig_reference.py solves it independently in plain numpy.

Two-dice Pig (``--set dice=2``): two dice are thrown; a single 1 loses the turn total, two
1s the whole score, and any other throw adds its sum.
"""

from __future__ import annotations

import numpy as np
import polars as pl

import mdp

from . import expand, strategies
from .rules import ACTIONS, rules

GAME_NAME = "pig"

PARAMS = [
    mdp.Param("goal", 100, mdp.parse_int(2, 200, why="the states grow as its cube"),
              help="the score that wins"),
    mdp.Param("faces", 6, mdp.parse_int(2, 20), help="faces of a die"),
    mdp.Param("dice", 1, mdp.parse_int(1, 2),
              help="dice thrown: 1, or 2 (a 1 loses the turn total, two 1s the whole score)"),
]


@mdp.hookimpl
def mdp_configure(plugins):
    plugins.register(strategies, name="pig.strategies")


@mdp.hookimpl
def mdp_params():
    return PARAMS


@mdp.hookimpl
def mdp_variants():
    return [
        mdp.Variant("standard", {}, "one die, to 100"),
        mdp.Variant("two-dice", {"dice": "2"}, "two dice: a 1 loses the turn total, two 1s the whole score"),
        mdp.Variant("to-50", {"goal": "50"}, "one die, to 50"),
    ]


@mdp.hookimpl
def mdp_describe(game):
    return rules(game).describe()


@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("chance the player to move wins", "max", probability=True)


@mdp.hookimpl
def mdp_initial_state(game):
    return rules(game).key(0, 0, 0)


@mdp.hookimpl
def mdp_estimate_states(game):
    """Exact with one die of 3 faces or more, whose throws reach every score from 2: each
    score (0, or 2 to goal - 1) for either player, each turn total (0, or 2 up to the goal
    less the mover's score, less 1), and the won state."""
    r = rules(game)
    if r.dice != 1 or r.faces < 3:
        return None
    scores = [0, *range(2, r.goal)]
    return len(scores) * sum(1 + max(0, r.goal - 2 - me) for me in scores) + 1


@mdp.hookimpl
def mdp_stage(game, states):
    """One stage per sum of the two scores, the highest sum lowest: a hold raises the sum,
    a throw keeps it (its states may come back). With two dice a score can fall: one stage."""
    r = rules(game)
    states = np.asarray(states, dtype=np.int64)
    if r.dice == 2:
        return np.where(states == r.won, 0, 1)
    me, opponent, _ = r.split(states)
    return np.where(states == r.won, 0, 2 * r.goal - me - opponent)


@mdp.hookimpl
def mdp_expand(game, states):
    return expand.expand(rules(game), states)


@mdp.hookimpl
def mdp_turns(game):
    r = rules(game)
    return mdp.Turns(lambda states, nexts: expand.passes(r, states, nexts), total=1)


@mdp.hookimpl
def mdp_columns(game, states, actions):
    """``me``, ``opponent`` and ``turn`` of each state (none for the won state); with
    actions, ``action``: roll or hold."""
    r = rules(game)
    states = np.asarray(states, dtype=np.int64)
    me, opponent, turn = r.split(states)
    frame = pl.DataFrame({"me": me, "opponent": opponent, "turn": turn,
                          "playing": states != r.won})
    playing = pl.col("playing")
    columns = {name: series for name, series in frame.select(
        pl.when(playing).then(pl.col(name)).alias(name)
        for name in ("me", "opponent", "turn")).to_dict().items()}
    if actions is not None:
        codes = [ACTIONS[int(a)] if a is not None else None for a in actions] \
            if not isinstance(actions, np.ndarray) else np.array(ACTIONS)[actions]
        columns["action"] = codes
    return columns
