"""Shut the Box rule plugin: one tile per roll, the one numbered as the roll's total.

Tried without installing it: ``mdp solve shutbox -p docs/examples/shutbox_one_tile.py``.
"""

import mdp

GAME = "shutbox"  # the game it is a rule plugin of: refused by any other


@mdp.hookimpl(wrapper=True)
def shutbox_moves(total):
    moves = yield
    return [m for m in moves if m.bit_count() == 1]


@mdp.hookimpl(wrapper=True)
def mdp_describe():
    text = yield
    return f"{text}; one tile shut per roll"
