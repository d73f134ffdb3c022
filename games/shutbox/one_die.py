"""The one-die rule (parameters ``one_die`` and ``one_die_mode``): once the open tiles are
low, the player may roll one die instead of the usual number (``choice``, a second choice
after the usual number), or must (``forced``, in the usual number's place).

A rule of the game's own, written as any rule plugin would write it: it wraps
:func:`~.hookspecs.shutbox_dice_options`, and the game registers it before the rule
plugins, which wrap it in turn.
"""

from __future__ import annotations

import numpy as np

import mdp


@mdp.hookimpl(wrapper=True)
def shutbox_dice_options(params, box, masks):
    options = yield
    rule = params["one_die"]
    if rule == "never":
        return options
    if rule == "max6":
        allowed = (masks & sum(1 << i for i, tile in enumerate(box.tiles) if tile > 6)) == 0
    elif rule == "sum6":
        allowed = box.open_sum(masks) <= 6
    else:
        allowed = np.ones(len(masks), dtype=bool)
    allowed &= options[:, 0] != 1
    if params["one_die_mode"] == "forced":
        return np.column_stack([np.where(allowed, 1, options[:, 0]), options[:, 1:]])
    return np.column_stack([options, allowed.astype(options.dtype)])
