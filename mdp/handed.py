"""What mdp hands a game's or a plugin's code: arrays it can read but not write. The
engine keeps using the arrays it hands a hook (the keys of the states asked about, the
results of a match), so a hook that wrote into them would change what the engine solves,
silently; instead it raises, and the hook is named. And the other way, what a hook hands
mdp to keep, copied (:func:`copied`): the game's own array or list, filled again at its next
answer, would change under mdp."""

from __future__ import annotations

import sys
from typing import Any


def read_only(values: Any) -> Any:
    """``values`` as it is, but a numpy array as a view of it that cannot be written."""
    numpy = sys.modules.get("numpy")  # not imported here: a command may not need it yet
    if numpy is None or not isinstance(values, numpy.ndarray):
        return values
    view = values.view()
    view.flags.writeable = False
    return view


def copied(values: Any) -> Any:
    """``values`` a hook gave, as mdp keeps them: a numpy array or a list copied (a tuple, and
    anything else, as it is)."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(values, numpy.ndarray):
        return values.copy()
    return list(values) if isinstance(values, list) else values
