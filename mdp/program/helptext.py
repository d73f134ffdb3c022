"""The help of the ``mdp`` program: argparse's formatter, as wide as the terminal."""

from __future__ import annotations

import argparse
import os


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal as it would make it, but without
    importing :mod:`shutil` for the width: that module and the compression modules it imports
    slow the start, and argparse makes a formatter for every argument added."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:  # shutil.get_terminal_size().columns - 2, as argparse has it
            width = terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)

    def _expand_help(self, action: argparse.Action) -> str:
        """argparse's ``%(default)s`` filled in; a help whose ``%`` is no such format (a
        plugin command's own argument's ``share in %``) shown as written, not a traceback."""
        try:
            return super()._expand_help(action)
        except (KeyError, TypeError, ValueError):
            return action.help or ""

    def _format_text(self, text: str) -> str:
        """A description, ``%(prog)s`` filled in where argparse does, else as written."""
        try:
            return super()._format_text(text)
        except (KeyError, TypeError, ValueError):
            return super()._format_text(text.replace("%", "%%"))


def as_written(text: str) -> str:
    """A text of mdp's fields (a command's, an analysis's or an option's help, a description)
    for argparse, which reads ``%`` as a format: shown as written, ``100% sure`` too."""
    return text.replace("%", "%%")


def terminal_columns() -> int:
    """The columns of :func:`shutil.get_terminal_size`: ``$COLUMNS``, else the terminal's,
    else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    from mdp.program.stdout import stdout  # mdp's own: file descriptor 1 is standard error's

    try:
        return os.get_terminal_size(stdout().fileno()).columns or 80
    except (AttributeError, ValueError, OSError):  # no standard output, or not a terminal
        return 80
