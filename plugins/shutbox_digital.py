"""Shut the Box rule plugin: the ``digital`` scoring rule.

The tiles left open are read as one number, in ascending order: 1, 3 and 4 score 134, and a
shut box scores 0. Lower is better.
"""

import numpy as np

import mdp
from mdp_games.shutbox.scoring import ScoringRule

GAME = "shutbox"  # the game it is a rule plugin of: refused by any other


def digital_values(box, masks):
    """Each mask's open tiles written one after another, as a number."""
    digits = sum(len(str(tile)) for tile in box.tiles)
    # Past 18 digits the numbers outgrow 64 bits: compute with Python integers instead.
    values = np.zeros(len(masks), dtype=np.int64 if digits <= 18 else object)
    for i, tile in enumerate(box.tiles):
        is_open = ((masks >> i) & 1).astype(bool)
        values[is_open] = values[is_open] * 10 ** len(str(tile)) + tile
    return values


@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("digital", "expected digital score", "min", digital_values,
                        "the open tiles read as one number in ascending order (1, 3, 4: 134)")]
