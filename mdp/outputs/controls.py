"""The controls of the explorer of ``mdp report``'s page: one per state column, the game's
(:func:`~mdp.hookspecs.game.mdp_report_controls`) where it gives one, checked as they enter,
else a select of the values that occur."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.game.load import Game

CONTROL_KINDS = ("select", "toggles", "multiset", "derived")


def controls(game: Game, columns: list[str],
             values: Mapping[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """One control per state column: the game's (:func:`~mdp.hookspecs.game.mdp_report_controls`)
    where it gives one, else a select of the values that occur. With ``values`` (the text
    of the values each column takes), a toggles control's items are checked against them."""
    given = game.call("mdp_report_controls") or []
    if not isinstance(given, (list, tuple)):
        raise ModelError(f"game {game.name}: mdp_report_controls returned {given!r}, not a list")
    by_column: dict[str, dict[str, Any]] = {}
    for control in given:
        problem = _control_problem(control, columns)
        if not problem and values is not None and control["kind"] == "toggles":
            problem = _toggles_problem(control, values.get(control["column"]))
        if not problem and control["column"] in by_column:
            problem = f"a second control of column {control['column']!r}; one a column"
        if problem:
            raise ModelError(f"game {game.name}: mdp_report_controls gave {control!r}: {problem}")
        by_column[control["column"]] = {"label": control["column"], **control}
    if columns and all(by_column.get(c, {}).get("kind") == "derived" for c in columns):
        raise ModelError(f"game {game.name}: mdp_report_controls makes every column derived "
                         f"({', '.join(columns)}); one at least names a state")
    return [by_column.get(c, {"column": c, "kind": "select", "label": c}) for c in columns]


CONTROL_KEYS = {"select": ("hint", "none"), "toggles": ("hint", "items", "separator", "strike"),
                "multiset": ("hint", "items", "most", "none", "separator"), "derived": ()}
"""The keys of a control of each kind, besides ``column``, ``kind`` and ``label``."""

MOST = 1_000
"""The most items a multiset control may pick: a button each, on a page."""


def _control_problem(control: Any, columns: list[str]) -> str | None:
    if not isinstance(control, dict):
        return "not a dict"
    if control.get("column") not in columns:
        return f"column must be one of the state columns {', '.join(columns)}"
    if control.get("kind") not in CONTROL_KINDS:
        return f"kind must be one of {', '.join(CONTROL_KINDS)}"
    if control["kind"] in ("toggles", "multiset"):
        items = control.get("items")
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            return f"a {control['kind']} control needs items, a list of texts"
    allowed = ("column", "kind", "label", *CONTROL_KEYS[control["kind"]])
    unknown = [key for key in control if key not in allowed]
    if unknown:
        return f"unknown key {unknown[0]!r} for a {control['kind']} control (allowed: {', '.join(allowed)})"
    texts = [key for key in ("label", "hint", "none", "separator") if key in control]
    bad = next((key for key in texts if not isinstance(control[key], str)
                or key in ("label", "separator") and not control[key]), None)
    if bad:
        return f"{bad} must be a text{'' if bad in ('hint', 'none') else ', not empty'}"
    if control.get("strike", "off") not in ("on", "off"):
        return 'strike must be "on" or "off"'
    if control["kind"] == "multiset":
        most = control.get("most")
        if not isinstance(most, int) or isinstance(most, bool) or not 1 <= most <= MOST:
            return f"a multiset needs most, the most items picked, a whole number of 1 to {MOST:,}"
    try:
        json.dumps(control, allow_nan=False)
    except (TypeError, ValueError):
        return "not JSON (texts, numbers, lists and dicts only)"
    return None


def _toggles_problem(control: dict[str, Any], taken: list[str] | None) -> str | None:
    """What is wrong with a toggles control's items for the values its column takes: an
    item no value holds (a button that names no state), or a value the buttons cannot make."""
    if taken is None:  # a column whose values are not at hand (a round state's)
        return None
    separator, items = control.get("separator", " "), list(control["items"])
    held = [part for value in taken if value for part in value.split(separator)]
    odd = next((part for part in held if part not in items), None)
    if odd is not None:
        value = next(v for v in taken if v and odd in v.split(separator))
        return (f"the column takes {value!r}, whose {odd!r} is not one of its items "
                f"({', '.join(map(repr, items))}, joined by {separator!r})")
    unused = [item for item in items if item not in held]
    if unused:
        return (f"item {unused[0]!r} is in no value the column takes; the items are the "
                "texts its values are made of")
    return None
