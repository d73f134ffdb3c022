"""Shut the Box's batch expansion, state by state, against a plain enumeration written here.

The solved values (tests/test_shutbox*.py) do not see the order of a state's moves, which is
part of the game (the highest tile first: masks descending), nor boxes of more than twelve
tiles whose moves reach past the twelfth tile. These tests do.
"""

import numpy as np
import pytest

import mdp
from mdp.discover import Budget, sweep
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


@pytest.mark.parametrize("params", [
    dict(tiles="1-26", dice=1, faces=30),  # three digits of twelve tiles
    dict(tiles="3,8,20,21,25,26,27,28,29,30,31,32,33,34,40", dice=5, faces=8),
    dict(tiles="1-16", dice=3, one_die="never", max_flips=2),
])
def test_moves_in_the_games_order_stage_by_stage(params):
    game = mdp.load_game(SHUTBOX, **params)
    b = shutbox.box(game)
    most = game.params["max_flips"]
    rng = np.random.default_rng(0)
    blocks = sweep(game, Budget(game, 120_000, None, (0, 0), None)).blocks
    largest, checked = 0, 0
    while True:
        try:
            block = next(blocks)
        except (StopIteration, mdp.TooLarge):
            break
        e, keys = block.expansion, block.keys
        if keys[0] & b.roll_mask == 0:
            continue
        largest = max(largest, len(keys))
        counts = np.asarray(e.action_counts, dtype=np.int64)
        starts = np.cumsum(counts) - counts
        picked = rng.choice(len(keys), min(len(keys), 150), replace=False)
        for i in [0, len(keys) - 1, *picked.tolist()]:
            mask, total = int(keys[i]) >> b.roll_bits, int(keys[i]) & b.roll_mask
            expected = moves_of(b.tiles, mask, total, most)
            got = slice(starts[i], starts[i] + counts[i])
            assert np.asarray(e.actions[got]).tolist() == expected
            assert np.asarray(e.next_states[got]).tolist() == [
                (mask ^ move) << b.roll_bits for move in expected]
            checked += 1
        assert e.all_choices  # every move certain: one next state each
        assert len(e.terminal_values) == np.count_nonzero(counts == 0)
    assert checked > 300
    assert largest > 16_384, largest  # more than one chunk of states in a stage


def test_open_sums_and_texts_of_a_box_of_forty_tiles():
    rng = np.random.default_rng(1)
    tiles = sorted(rng.choice(np.arange(1, 1001), 40, replace=False).tolist())
    game = mdp.load_game(SHUTBOX, tiles=",".join(map(str, tiles)))
    b = shutbox.box(game)
    masks = rng.integers(0, 1 << 40, 3000, dtype=np.int64)
    masks[:3] = [0, (1 << 40) - 1, 1 << 39]
    chosen = [[t for i, t in enumerate(tiles) if m >> i & 1] for m in masks.tolist()]
    columns = mdp.columns.state_columns(game, masks << b.roll_bits)  # lazy text made
    assert columns["open_sum"].tolist() == [sum(c) for c in chosen]
    assert columns["open"].tolist() == [" ".join(map(str, c)) for c in chosen]
    dense = masks & 0xFFF  # repeated masks: the text of each is written once
    columns = mdp.columns.state_columns(game, dense << b.roll_bits)
    assert columns["open"].tolist() == [
        " ".join(str(t) for i, t in enumerate(tiles) if m >> i & 1) for m in dense.tolist()]
