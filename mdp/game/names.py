"""The names of a plugin's that a user types on the command line: those it declares
(parameters, variants, strategies: ``--set NAME=VALUE``, ``--strategy NAME,...``) and those
of its columns (``COLUMN=VALUE``). One check for both, here; and the check of a game's name
(``GAME_NAME``, and a rule plugin's ``GAME``), which every message and the JSON show."""

from __future__ import annotations

from typing import Any, TypeGuard

from mdp.errors import ModelError, ParamError
from mdp.shown import one_line, seen

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


GAME_NAME = ("a game's name is text, not empty, with no line break or other control character "
             "and no space at either end")
"""What :func:`game_name` allows, in words."""


def game_name(name: Any) -> TypeGuard[str]:
    """Whether ``name`` can be a game's name (a game's ``GAME_NAME``, a name in a rule
    plugin's ``GAME``): text, not empty, printable, and without a space at either end, as
    every message, table and JSON document shows it."""
    return isinstance(name, str) and name.isprintable() and name != "" and name == name.strip()


def plain(name: Any) -> Any:
    """``name`` as plain text when it is text (a ``str`` subclass read by its ``str`` value,
    once, so that its own ``__str__``/``__format__`` cannot show the game under another
    name in messages than in the JSON); anything else as it is, for the check to refuse."""
    return str.__str__(name) if isinstance(name, str) else name


def name_of(module: Any, default: str) -> str:
    """The name of the game ``module``: its ``GAME_NAME``, else ``default`` (its file's
    name), a line break or another control character in it written as its escape, so that
    it cannot pass for a line of mdp's own output; either checked by the one rule of a
    game's name (:func:`game_name`: no space at either end, not empty)."""
    name = plain(getattr(module, "GAME_NAME", _NO_NAME))
    if name is _NO_NAME:
        name = one_line(default)
        if not game_name(name):
            raise ModelError(f"a game without GAME_NAME is named by its file's name, and {name!r} "
                             f"is not a game's name ({GAME_NAME}); set GAME_NAME, or rename "
                             "the file")
        return name
    if not game_name(name):
        raise ModelError(f"game {default}: GAME_NAME is {name!r}; {GAME_NAME}")
    return name


_NO_NAME = object()


def check_game_of(plugin: Any, shown: str, name: str) -> None:
    """Refuse a rule plugin that says it is for another game: its ``GAME``, a game's name
    (``GAME = "shutbox"``) or a tuple of names."""
    meant = getattr(plugin, "GAME", None)
    if meant is None:
        return
    games = (plain(meant),) if isinstance(meant, str) else meant
    if isinstance(games, tuple):
        games = tuple(map(plain, games))
    if not isinstance(games, tuple) or not games or not all(map(game_name, games)):
        raise ModelError(f"plugin {shown}: GAME is {meant!r}, not a game's name or a tuple of "
                         f"names ({GAME_NAME})")
    if name not in games:
        raise ParamError(f"plugin {shown} is a rule plugin of game {' or '.join(games)}, "
                         f"not of game {name}")

def one_name(name: str) -> str:
    """What makes two names one, for every name a game or plugin declares (parameters and
    their choices, variants, strategies, options, formats, commands) and the columns beside
    mdp's: as a table shows them (:func:`mdp.shown.seen`: the ligature ``ﬁ`` is ``fi``, a
    full-width ``Ａ`` is ``A``) and as a user may type them (``CSV`` beside ``csv``: capitals
    are not told apart). Two declared names of one key are refused."""
    return seen(name).casefold()


def named_twice(name: str, other: str) -> str:
    """Two names that are one, as a message says them: ``'fine'``, or ``'ﬁne' and 'fine',
    which read alike``."""
    return repr(name) if name == other else f"{other!r} and {name!r}, which read alike"
