"""What the value of a game's states means, and which way is better
(:func:`~mdp.hookspecs.game.mdp_objective`)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from mdp.errors import said


def _one_line_name(objective: Any, attribute: Any, name: Any) -> None:
    if not (isinstance(name, str) and name and name.isprintable()):
        raise ValueError(f"mdp.Objective: name {said(name)}: it is text on one line, shown "
                         "before the value")
    if name == "exact":  # the label of the exact value's line, which it would pass for
        raise ValueError("mdp.Objective: name 'exact' is the label of the exact value's "
                         "line; name what the value means (\"chance of winning\")")


def _sense(objective: Any, attribute: Any, sense: Any) -> None:
    if sense not in ("max", "min") or not isinstance(sense, str):
        raise ValueError(f"mdp.Objective: sense {said(sense)}: it is 'max' or 'min'")


def _flag(objective: Any, attribute: Any, probability: Any) -> None:
    if not isinstance(probability, bool):
        raise ValueError(f"mdp.Objective: probability {said(probability)}: it is True or False")


@attrs.frozen
class Objective:
    """What the value of a state means, and which way is better; each checked as it is
    made (a :class:`ValueError` of one line)."""

    name: str = attrs.field(default="value", validator=_one_line_name)
    """Shown before the value: text on one line, not ``"exact"`` (the exact value's label)."""
    sense: Literal["max", "min"] = attrs.field(default="max", validator=_sense)
    probability: bool = attrs.field(default=False, validator=_flag)
    """Values are probabilities (shown as percentages too)."""
