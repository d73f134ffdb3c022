"""The game a frontier of states at a time (:func:`~mdp.hookspecs.game.mdp_expand`): before a
roll, each state's choices of dice and the rolls they make; after it, each state's moves."""

from __future__ import annotations

import numpy as np

import mdp

from .box import Box
from .moves import children, move_trie, ranges

CHUNK = 1 << 14
"""States expanded at a time: a chunk's temporaries stay in the processor's cache."""


def before_roll(b: Box, masks: np.ndarray) -> mdp.Expansion:
    """Each state's choices of dice, and for each the rolls it may make: the distributions
    of the numbers of dice chosen lie end to end in one table, of which each choice reads a
    run. The empty box is the one terminal state."""
    masks = masks.astype(b.key_type)
    live = masks != 0
    choices, dice = b.dice_options(masks[live])
    action_counts = np.zeros(len(masks), dtype=np.uint8)
    action_counts[live] = choices
    distributions = {n: b.rolls(n) for n in np.flatnonzero(np.bincount(dice)).tolist()}
    table = sorted({p for d in distributions.values() for p, _ in d})
    prob_id = {p: i for i, p in enumerate(table)}
    starts = np.zeros(b.most_dice + 1, dtype=np.int64)
    lengths = np.zeros(b.most_dice + 1, dtype=np.int64)
    rolls, ids = [], []
    for n, distribution in distributions.items():
        starts[n], lengths[n] = len(rolls), len(distribution)
        rolls += [roll for _, roll in distribution]
        ids += [prob_id[p] for p, _ in distribution]
    totals = np.array(rolls, dtype=b.key_type) << b.mask_bits  # rolled, no tile open
    ids = np.array(ids, dtype=np.min_scalar_type(len(table)))
    outcome_counts = lengths[dice]
    keys = np.repeat(masks[live], choices)  # each choice's state, rolled 0
    next_states = np.empty(int(outcome_counts.sum()), dtype=b.key_type)
    probabilities = np.empty(len(next_states), dtype=ids.dtype)
    at = 0
    for chunk in mdp.slices(len(dice), size=CHUNK):
        picks = ranges(starts[dice[chunk]], outcome_counts[chunk])
        out = slice(at, at + len(picks))
        np.take(totals, picks, out=next_states[out], mode="clip")  # "raise" buffers
        next_states[out] |= np.repeat(keys[chunk], outcome_counts[chunk])
        np.take(ids, picks, out=probabilities[out], mode="clip")
        at += len(picks)
    return mdp.Expansion(
        action_counts=action_counts,
        actions=dice.astype(np.uint8),
        outcome_counts=outcome_counts.astype(np.min_scalar_type(lengths.max())),
        next_states=next_states,
        probabilities=probabilities,
        probability_table=tuple(table),
        terminal_values=b.values(masks[~live]),
    )


def after_roll(b: Box, keys: np.ndarray, labels: bool) -> mdp.Expansion:
    """Each state's legal moves, in the game's order, read off the trie of moves (see
    :class:`~.moves.MoveTrie`) a chunk of states at a time, so that the temporaries stay small.

    First each state is walked down the trie, which finds its moves as runs of the trie's
    list of moves, and counts them: that sizes the output. Then the runs are copied, front
    to back, straight into the output, and made next states there. The moves themselves
    (the actions' labels) are kept only when asked for: at 20 tiles they are 380 MB."""
    trie = move_trie(b)
    chunks = mdp.slices(len(keys), size=CHUNK)
    counts = np.empty(len(keys), dtype=trie.count_type)
    runs = []
    for chunk in chunks:
        masks, rolls = _split(b, keys[chunk])
        counts[chunk], cells, ends = trie.walk(masks, rolls)
        runs.append((masks, cells, ends))
    next_states = np.empty(int(counts.sum(dtype=np.int64)), dtype=b.key_type)
    actions = np.empty_like(next_states) if labels else None
    at = 0
    for chunk, (masks, cells, ends) in zip(chunks, runs):
        picks, _, _ = children(cells, ends)
        moves = next_states[at:at + len(picks)]
        np.take(trie.moves, picks, out=moves, mode="clip")  # "raise" buffers
        if labels:
            actions[at:at + len(picks)] = moves
        # mask ^ move is mask & ~move: a move's tiles are open. The result is the key of
        # the state before the next roll.
        moves ^= np.repeat(masks, counts[chunk])
        at += len(picks)
    # Every move is certain: one next state each, no outcome arrays.
    return mdp.Expansion.choices(counts, actions, next_states,
                                 b.values(b.split(keys[counts == 0])[0]))


def _split(b: Box, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks (in :attr:`Box.key_type`) and rolls of a chunk of state keys."""
    masks, rolls = b.split(keys)
    return masks.astype(b.key_type), rolls
