"""A game's parameters checked together by the game (:func:`check_together`), and left as
they were: a hook is handed them to read, and one that changes a value it was handed
(appends to a list, writes into an array) would have another game solved than the one asked
for, and JSON record what no one set. What the parameters show
(:meth:`~mdp.game.load.Game.shown_params`) is kept as the game loads, before any hook runs,
and compared where control comes back from the game's code (the game a
:class:`~mdp.game.load.Game`, which imports this module)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mdp.errors import ModelError, ParamError, said
from mdp.game.params import alike
from mdp.shown import clipped

KEPT = "params shown"
"""The key of the game's memo that keeps its parameters as they showed as it loaded."""

READS = "params read"
"""The key of the game's memo that holds, while :func:`reading`, the names its hooks read."""

WALKED = frozenset({"mdp_initial_state", "mdp_actions", "mdp_outcomes", "mdp_terminal_value",
                    "mdp_stage", "mdp_expand", "mdp_state_columns", "mdp_columns"})
"""The hooks that make a game's states, their values and their columns (a match's results
among them): what they read decides the model."""


class _Read(Mapping[str, Any]):
    """A game's parameters as a hook that makes its states is handed them, the name of each
    value it reads recorded in ``read`` (``params["bonus"]``, ``params.get``; a copy of the
    whole, ``dict(params)``, and its text, ``str(params)`` or an f-string, read every one);
    whether a name is there reads no value."""

    def __init__(self, params: Mapping[str, Any], read: set[str]) -> None:
        self._params, self._read = params, read

    def __getitem__(self, name: str) -> Any:
        self._read.add(name)
        return self._params[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._params)

    def __contains__(self, name: object) -> bool:  # (whether it is there: no read of it)
        return name in self._params

    def __len__(self) -> int:
        return len(self._params)

    def __repr__(self) -> str:  # (str and format too): the text of every value
        self._read.update(self._params)
        return repr(self._params)


def handed(game: Any, hook: str) -> Any:
    """The game ``hook`` is handed: where it makes the states and :func:`reading` is under
    way, one whose parameters record its reads (``params``, and ``game.params`` alike)."""
    watched = game._memo.get(READS) if hook in WALKED else None
    return game if watched is None else watched


@contextmanager
def reading(game: Any) -> Iterator[set[str]]:
    """Within it, the names of the parameters that ``game``'s hooks that make its states read
    (by name, as ``params`` or ``game.params``) are gathered in the set it gives: a parameter
    a game's match rules say only the match reads, read there, would change the model a
    match compiles once for all its values."""
    import attrs

    read: set[str] = set()
    # The game itself (its plugins and memo), its parameters read through the record.
    game._memo[READS] = attrs.evolve(game, params=_Read(game.params, read), memo=game._memo)
    try:
        yield read
    finally:
        game._memo.pop(READS, None)


def keep_shown(game: Any) -> None:
    """Keep the parameters as ``game`` shows them, a copy of each, before any of its hooks
    runs."""
    game.memo(KEPT, dict).update({name: _copied(value) for name, value in game.shown_params().items()})


def _copied(value: Any) -> Any:
    """A parameter as shown (text, a number, true/false, None, or lists and mappings of
    them: what JSON holds), copied by mdp's own hand, not by :mod:`copy`, whose tables a
    game's code may change."""
    if isinstance(value, (list, tuple)):
        return type(value)(map(_copied, value)) if type(value) in (list, tuple) else list(map(_copied, value))
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    return value


def check_params(game: Any) -> None:
    """Refuse, in one line that names the game and the parameter, a value of a parameter
    that the game's code changed since :func:`keep_shown`: compared as the parameters show."""
    kept = game.memo(KEPT, dict)
    if not kept:
        return
    now = game.shown_params()
    for name, was in kept.items():
        if alike(now[name], was) is False:
            raise ModelError(f"game {game.name}: parameter {name} was {said(was):.60} as the "
                             f"game loaded and is {said(now[name]):.60} now: its code changed "
                             "it; a hook reads its parameters and leaves them as they are")


def check_together(game: Any) -> None:
    """The game's checks of its parameters together (``mdp_check``): each raises a
    :class:`~mdp.ParamError` saying what is wrong, or returns ``None``; one that says
    nothing, or returns its complaint, is the plugin's fault."""
    try:
        answers = game.call("mdp_check")
    except ParamError as error:
        one = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], str) else None
        text = None if one is None else str.__str__(one).strip()  # as given, not as shown
        if text:
            raise ParamError(clipped(text, 1000)) from None  # (a page of it: its start and length)
        what = "an empty ParamError" if one is not None or not error.args else \
            f"ParamError({', '.join(map(said, error.args)):.60}), not one text"
        raise ModelError(f"game {game.name}: mdp_check raised {what}; it says what is wrong with "
                         "the parameters") from None
    odd = next((answer for answer in answers if answer is not None), None)
    if odd is not None:
        raise ModelError(f"game {game.name}: mdp_check returned {said(odd)}; a check raises "
                         "mdp.ParamError saying what is wrong, and returns None")
