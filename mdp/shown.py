"""A value as it is shown to people, the one rule of :mod:`mdp.outputs.readable`, here apart
so that any room may show a value as tables do (the check of a game's round columns, which
two round states must not show alike) without importing the outputs: this module imports
nothing of mdp."""

from __future__ import annotations

from typing import Any

DIGITS = 15
"""Significant digits of a float shown to people."""


def readable(value: Any) -> str:
    """``value`` for people: a float to :data:`DIGITS` significant digits (``4.25``,
    ``0.0976137161704307``, ``1e-20``), ``None`` as nothing, anything else as ``str``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{DIGITS}g}"
    return one_line(str(value))


def one_line(text: str) -> str:
    """``text`` as it is shown to people on a line of its own (a game's label, a state's
    value): a line break or another control character as its escape (``\\n``), so that it
    cannot break the line or forge another; letters of any script as they are."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
                   for c in text)
