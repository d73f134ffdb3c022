"""How the explorer of ``mdp report`` draws a Shut the Box position: the tiles as buttons
to switch open or shut, and the roll as a list."""

from __future__ import annotations

import mdp


@mdp.hookimpl
def mdp_report_controls(params):
    return [
        {"column": "open", "kind": "toggles", "label": "Open tiles",
         "items": [str(tile) for tile in params["tiles"]],
         "hint": "Press a tile to shut it or open it again."},
        {"column": "roll", "kind": "select", "label": "Roll", "none": "not rolled yet (how many dice?)"},
    ]
