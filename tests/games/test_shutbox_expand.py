"""Shut the Box's batch expansion, state by state, against a plain enumeration written here.

The solved values (tests/games/test_shutbox*.py) do not see the order of a state's moves, which is
part of the game (the highest tile first: masks descending), nor boxes of more than twelve
tiles whose moves reach past the twelfth tile. These tests do.
"""

import collections
import itertools
from fractions import Fraction

import numpy as np
import pytest

import mdp
from mdp_games import shutbox

SHUTBOX = "games/shutbox"


def moves_of(tiles, mask, total, most=None):
    """Every set of open tiles adding up to ``total`` (at most ``most`` tiles), as masks,
    highest first: a plain recursion over the open tiles."""
    found = []

    def extend(i, chosen, left, count):
        if left == 0:
            found.append(chosen)
            return
        if i == len(tiles) or (most is not None and count == most):
            return
        if mask >> i & 1 and tiles[i] <= left:
            extend(i + 1, chosen | 1 << i, left - tiles[i], count + 1)
        extend(i + 1, chosen, left, count)

    extend(0, 0, total, 0)
    return sorted(found, reverse=True)


def states_with_open_tiles(b, count, rolled, samples=1500):
    """Keys of ``samples`` sets of ``count`` open tiles (all of them if ``None``), each with
    every total in ``rolled`` (0 for before the roll), sorted: states of one stage."""
    if samples is None:
        masks = [sum(1 << i for i in c) for c in itertools.combinations(range(len(b.tiles)), count)]
    else:
        rng = np.random.default_rng(0)
        masks = [sum(1 << int(i) for i in rng.choice(len(b.tiles), count, replace=False))
                 for _ in range(samples)]
    return np.array(sorted({b.key(m, t) for m in masks for t in rolled}), dtype=np.int64)


def rows(e, keys, states):
    """Per state of ``states`` (positions in ``keys``): its key, per action its slice of the
    outcomes, and its slice of the actions."""
    counts = np.asarray(e.action_counts, dtype=np.int64)
    firsts = np.cumsum(counts) - counts
    outcomes = np.ones(len(e.actions), dtype=np.int64) if e.all_choices \
        else np.asarray(e.outcome_counts, dtype=np.int64)  # choices: one next state each
    starts = np.cumsum(outcomes) - outcomes
    return [(int(keys[i]), [slice(starts[a], starts[a] + outcomes[a])
                            for a in range(firsts[i], firsts[i] + counts[i])],
             slice(firsts[i], firsts[i] + counts[i])) for i in states]


@pytest.mark.parametrize(("params", "open_tiles", "samples"), [
    pytest.param(dict(tiles="1-26", dice=1, faces=30), 13, 600,  # masks of three digits of twelve tiles
                 marks=pytest.mark.slow),
    pytest.param(dict(tiles="3,8,20,21,25,26,27,28,29,30,31,32,33,34,40", dice=5, faces=8), 8, 500,
                 marks=pytest.mark.slow),
    pytest.param(dict(tiles="1-16", dice=3, one_die="never", max_flips=2), 9, 1500,
                 marks=pytest.mark.slow),
    pytest.param(dict(tiles=",".join(str(10 * i) for i in range(1, 25)), dice=3, faces=100), 12, 300,
                 marks=pytest.mark.slow),
    (dict(), 5, None),
])
def test_moves_in_the_games_order(params, open_tiles, samples):
    game = mdp.load_game(SHUTBOX, **params)
    b = shutbox.box(game)
    keys = states_with_open_tiles(b, open_tiles, range(1, b.most_dice * b.faces + 1), samples)
    e = game.call("mdp_expand", states=keys, labels=True)
    # Building a model asks for no labels: the same next states, and no moves kept.
    unlabelled = game.call("mdp_expand", states=keys, labels=False)
    assert unlabelled.actions is None
    assert np.array_equal(unlabelled.next_states, e.next_states)
    assert np.array_equal(unlabelled.action_counts, e.action_counts)
    states = range(len(keys))
    if len(keys) > 2000:
        assert len(keys) > 16_384  # more than one chunk of states
    if b.key_type != np.uint32:  # keys past 32 bits; few of its many totals have moves
        states = [0, len(keys) - 1, *np.random.default_rng(1).choice(len(keys), 5000).tolist()]
    for key, outcomes, actions in rows(e, keys, states):
        mask, total = b.split(key)
        expected = moves_of(b.tiles, mask, total, game.params["max_flips"])
        assert np.asarray(e.actions[actions]).tolist() == expected
        assert [np.asarray(e.next_states[o]).tolist() for o in outcomes] == [
            [b.key(mask ^ move)] for move in expected]
    assert e.all_choices  # every move certain: one next state each, no outcome arrays
    assert len(e.terminal_values) == np.count_nonzero(np.asarray(e.action_counts) == 0)


def totals_of(dice, faces=6):
    """``{total: probability}`` of ``dice`` fair dice, every throw counted."""
    throws = list(itertools.product(range(1, faces + 1), repeat=dice))
    counts = collections.Counter(map(sum, throws))
    return {total: Fraction(n, len(throws)) for total, n in sorted(counts.items())}


@pytest.mark.slow
def test_rolls_of_a_stage_past_one_chunk():
    # One die or two for every state: two actions each, 48,620 in the stage.
    game = mdp.load_game(SHUTBOX, tiles="1-17", one_die="always")
    b = shutbox.box(game)
    keys = states_with_open_tiles(b, 8, [0], samples=None)
    assert len(keys) == 24_310
    e = game.call("mdp_expand", states=keys, labels=True)
    for key, outcomes, actions in rows(e, keys, range(len(keys))):
        assert np.asarray(e.actions[actions]).tolist() == [2, 1]
        for dice, o in zip((2, 1), outcomes):
            rolled = {b.split(int(k))[1]: e.probability_table[int(p)]
                      for k, p in zip(e.next_states[o], e.probabilities[o])}
            assert rolled == totals_of(dice)
            assert {b.split(int(k))[0] for k in e.next_states[o]} == {b.split(key)[0]}
    assert len(e.terminal_values) == 0


def test_open_sums_and_texts_of_a_box_of_forty_tiles():
    rng = np.random.default_rng(1)
    tiles = sorted(rng.choice(np.arange(1, 1001), 40, replace=False).tolist())
    game = mdp.load_game(SHUTBOX, tiles=",".join(map(str, tiles)))
    masks = rng.integers(0, 1 << 40, 3000, dtype=np.int64)
    masks[:3] = [0, (1 << 40) - 1, 1 << 39]
    chosen = [[t for i, t in enumerate(tiles) if m >> i & 1] for m in masks.tolist()]
    columns = mdp.game.columns.state_columns(game, masks)  # before a roll: keys are masks; lazy text made
    assert columns["open_sum"].tolist() == [sum(c) for c in chosen]
    assert columns["open"].tolist() == [" ".join(map(str, c)) for c in chosen]
    dense = masks & 0xFFF  # repeated masks: the text of each is written once
    columns = mdp.game.columns.state_columns(game, dense)
    assert columns["open"].tolist() == [
        " ".join(str(t) for i, t in enumerate(tiles) if m >> i & 1) for m in dense.tolist()]
