"""Pig a frontier of states at a time (:func:`~mdp.hookspecs.game.mdp_expand`): every
state's throws laid out in slots, one per kind of throw, and the slots that apply kept."""

from __future__ import annotations

import numpy as np

import mdp

from .rules import HOLD, ROLL, Rules


def expand(r: Rules, states: np.ndarray) -> mdp.Expansion:
    states = np.asarray(states, dtype=np.int64)
    playing = states != r.won
    me, opponent, turn = r.split(states[playing])
    goal = r.goal
    throws = r.throws()
    n, k = len(me), len(throws) + 1  # a slot per kind of throw, and one for the win
    nexts = np.zeros((n, k), dtype=np.int64)
    counts = np.zeros((n, k), dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    for j, (kind, points, count) in enumerate(throws):
        if kind == "pass":
            nexts[:, j] = r.key(opponent, me, 0)
            counts[:, j] = count
        elif kind == "reset":
            nexts[:, j] = r.key(opponent, 0, 0)
            counts[:, j] = count
        else:
            wins = me + turn + points >= goal
            nexts[:, j] = np.where(wins, 0, r.key(me, opponent, turn + points))
            counts[:, j] = np.where(wins, 0, count)
            won += np.where(wins, count, 0)
    nexts[:, -1], counts[:, -1] = r.won, won
    if r.dice == 2:  # with no score, losing it is losing the turn: one outcome, not two
        same = me == 0
        counts[same, 1] += counts[same, 0]
        counts[same, 0] = 0
    kept = counts > 0
    holds = turn > 0
    actions_per_state = np.zeros(len(states), dtype=np.int64)
    actions_per_state[playing] = 1 + holds
    # Rows in state order: a state's roll (its kept slots), then its hold.
    roll_outcomes = kept.sum(axis=1)
    per_action = np.stack([roll_outcomes, np.where(holds, 1, 0)], axis=1)
    action_mask = np.stack([np.ones(n, dtype=bool), holds], axis=1)
    outcome_counts = per_action[action_mask]
    hold_next = r.key(opponent, me + turn, 0)
    width = k + 1
    all_next = np.concatenate([nexts, hold_next[:, None]], axis=1)
    all_prob = np.concatenate([counts, np.full((n, 1), r.outcomes)], axis=1)
    all_kept = np.concatenate([kept, holds[:, None]], axis=1)
    assert all_next.shape[1] == width
    codes = np.stack([np.full(n, ROLL), np.full(n, HOLD)], axis=1)[action_mask]
    return mdp.Expansion(
        action_counts=actions_per_state,
        actions=codes,
        outcome_counts=outcome_counts,
        next_states=all_next[all_kept],
        probabilities=all_prob[all_kept],
        probability_table=r.table(),
        terminal_values=np.ones(int((~playing).sum()), dtype=np.int64),
    )


def passes(r: Rules, states, next_states) -> np.ndarray:
    """Whether each transition passes the turn: it leads to a turn total of 0 (a 1 thrown,
    or a hold), not to the win."""
    nexts = np.asarray(next_states, dtype=np.int64)
    return (nexts != r.won) & (nexts % r.goal == 0)
