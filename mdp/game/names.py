"""The names of a plugin's that a user types on the command line: those it declares
(parameters, variants, strategies: ``--set NAME=VALUE``, ``--strategy NAME,...``) and those
of its columns (``COLUMN=VALUE``). One check for both, here."""

from __future__ import annotations

from typing import Any

WORD = "a word of text, no spaces, '=' or ',', not starting with '-'"
"""What :func:`typable` allows of a declared name, in words."""

COLUMN = ("a column's name is typed as COLUMN=VALUE: text, not empty, with no '=', no "
          "control character, no space at either end and no '-' first")
"""What :func:`typable` allows of a column's name, in words."""


def typable(name: Any, *, word: bool) -> bool:
    """Whether a user can type ``name``: text, not empty, printable (no newline, tab or other
    control character), without ``=``; with ``word`` (a declared name, one word of a list)
    no space anywhere nor ``,``, else (a column's name, quoted where it has a space) none at
    either end, which the command line drops. Neither starts with ``-``, which the command
    line reads as an option (``--strategy -h`` asks for help)."""
    if not isinstance(name, str) or not name or not name.isprintable() or "=" in name or name[0] == "-":
        return False
    if word:
        return not any(c.isspace() or c == "," for c in name)
    return name == name.strip()
