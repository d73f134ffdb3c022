"""The game's words for its states and actions: readable columns for tables, and a short
description of one state (and action) for error messages."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.errors import PLUGIN_FAULTS, ModelError, fault, passed_on, said
from mdp.game.apart import distinct_actions
from mdp.game.cells import allowed, cell, kind, mixed, one_kind, scalars, to_frame
from mdp.game.names import COLUMN, named_twice, one_name, typable
from mdp.handed import copied
from mdp.shown import seen  # round states compared as shown: 0.3 as 0.30000000000000004

if TYPE_CHECKING:  # for annotations alone: the game's loader names states with describe

    from mdp.game.load import Game


@attrs.frozen(eq=False)
class LazyColumn:
    """A column made when a table is made rather than when the model is compiled: a
    function and its arguments, plain data (not the game). For the text of the millions of
    terminal states of a large game, which a solve never reads; ``model.terminals`` makes it.

    >>> mdp.LazyColumn(rows=len(codes), make=text_of, arguments=(names, codes))   # doctest: +SKIP
    """

    rows: int
    make: Callable[..., Any]
    arguments: tuple[Any, ...] = ()

    def __len__(self) -> int:
        return self.rows

    def __call__(self) -> Any:
        return self.make(*self.arguments)


_PENDING: weakref.WeakKeyDictionary[LazyColumn, list[Callable[[Any], None]]] = \
    weakref.WeakKeyDictionary()
"""The comparisons of a lazy column with the rows asked again (:func:`same_again`), done as
it is made: only a table makes it."""


def made(values: Any, game: str, name: str) -> Any:
    """A column's values, a :class:`LazyColumn` made: one whose function raises (anything)
    is the game's fault, named by the column ``name`` of ``game``, and so is one whose rows
    differ from those asked again (:func:`same_again`), compared now."""
    if not isinstance(values, LazyColumn):
        return values
    try:
        got = values()
    except PLUGIN_FAULTS as error:
        if passed_on(error, f"game {game}"):
            raise
        raise ModelError(f"game {game}: mdp_columns' lazy column {name!r} raised "
                         f"{fault(error, hook=True)} as it was made") from None
    for compare in _PENDING.get(values, ()):
        compare(got)
    return got


def state_columns(game: Game, states: np.ndarray | Sequence[Any], lazy: bool = False,
                  prints: np.ndarray | None = None) -> dict[str, Any]:
    """The readable columns of ``states`` (see :func:`~mdp.hookspecs.game.mdp_state_columns`);
    with ``lazy``, a :class:`LazyColumn` the game gives is kept as it is. ``prints``: the
    :func:`row_print` of each state's columns as the game first gave them (the model's
    ``column_prints``), which they must match."""
    if game.implements("mdp_columns"):
        return _batch(game, states, None, lazy)
    return _rows(game, [(state, None) for state in states], actions=False, prints=prints)


def table_state_columns(game: Game, states: np.ndarray | Sequence[Any],
                        prints: np.ndarray | None = None) -> dict[str, Any]:
    """The columns a policy table shows of ``states``, with no action's (for naming a state
    as a player sees it: ``mdp advise``); ``prints`` as :func:`state_columns` takes them."""
    if game.implements("mdp_columns"):
        return _batch(game, states, [None] * len(states))
    return _rows(game, [(state, None) for state in states], actions=False, prints=prints)


def round_columns(game: Game, states: np.ndarray, beside: Sequence[str]) -> dict[str, Any]:
    """The readable columns of round states (a game of rounds): the game's
    (:func:`~mdp.hookspecs.game.mdp_round_columns`), else ``round_state``, the key. ``beside``
    names the columns of a state and action of the round, which tables and mdp advise put
    beside them: a round column of one of those names, or of one a table of round states adds
    (:data:`ROUNDS_COLUMNS`), is refused."""
    if not game.implements("mdp_round_columns"):
        if "round_state" in beside:
            raise ModelError(f"game {game.name}: a state or action of the round has a column "
                             "'round_state', which the tables of a game of rounds add "
                             "themselves (a round state's key, the game giving no "
                             "mdp_round_columns); name it otherwise")
        return {"round_state": states}
    columns = _checked(game, game.call("mdp_round_columns", states=states), len(states),
                       hook="mdp_round_columns", taken=(*TABLE_COLUMNS, *ROUNDS_COLUMNS))
    same_again(game, "mdp_round_columns", columns, states, "round state", lambda rows: _checked(
        game, game.call("mdp_round_columns", states=states[np.array(rows)]), len(rows),
        hook="mdp_round_columns", taken=(*TABLE_COLUMNS, *ROUNDS_COLUMNS)))
    near = {one_name(name): name for name in beside}
    both = [(name, near[one_name(name)]) for name in columns if one_name(name) in near]
    if both:
        name, other = both[0]
        alike = "" if name == other else f" as {other!r} (the two read alike)"
        raise ModelError(f"game {game.name}: mdp_round_columns names a column {name!r}, which a "
                         f"state or action of the round has too{alike} ({', '.join(beside)}); a "
                         "table holds one column of each name, in any capitals, so name it otherwise")
    _cells_checked(game, "mdp_round_columns", columns, states, "round state")
    import polars as pl

    frame = to_frame(columns, f"game {game.name}")
    texts = [c for c in frame.columns if frame[c].dtype.is_float() or frame[c].dtype == pl.String]
    shown = frame.with_columns(pl.Series(c, list(map(seen, frame[c])), pl.String) for c in texts)
    twice = shown.is_duplicated().arg_true()
    if len(twice):
        rows = [i for i, row in enumerate(shown.iter_rows()) if row == shown.row(int(twice[0]))][:2]
        keys = np.asarray(states)[rows].tolist()
        a, b = (", ".join(f"{n}={v!r}" for n, v in zip(columns, frame.row(i))) for i in rows)
        raise ModelError(f"game {game.name}: mdp_round_columns gives round states {keys[0]} and "
                         f"{keys[1]} " + (f"the same columns ({a})" if str(a) == str(b) else
                         f"columns that tables show alike ({a}; {b})")
                         + "; the columns of a round state name it, as tables and mdp advise "
                         "read them")
    return columns


def row_columns(game: Game, states: np.ndarray | Sequence[Any], actions: Sequence[Any],
                prints: np.ndarray | None = None) -> dict[str, Any]:
    """The readable columns of (state, action) pairs, one row per pair (policy tables);
    ``prints``, one per pair, as :func:`state_columns` takes them."""
    columns = _batch(game, states, actions) if game.implements("mdp_columns") else \
        _rows(game, list(zip(states, actions)), actions=True, prints=prints)
    distinct_actions(game, states, actions, columns)
    return columns


def _batch(game: Game, states: Any, actions: Sequence[Any] | None,
           lazy: bool = False) -> dict[str, Any]:
    """The columns :func:`~mdp.hookspecs.game.mdp_columns` gives ``states`` (and ``actions``),
    checked, and the same when asked again (:func:`same_again`)."""
    columns = _checked(game, game.call("mdp_columns", states=states, actions=actions),
                       len(states), lazy)
    same_again(game, "mdp_columns", columns, states, "state", lambda rows: _checked(
        game, game.call("mdp_columns", states=_part(states, rows),
                        actions=None if actions is None else _part(actions, rows)), len(rows)))
    return columns


def _part(items: Any, rows: list[int]) -> Any:
    return items[np.array(rows)] if isinstance(items, np.ndarray) else [items[i] for i in rows]


SAME_AGAIN_ROWS = 1024
"""The rows of a batch asked again, each one place later (:func:`same_again`): the terminal
states of a large game are one batch of a million, whose columns, asked again whole and
compared row by row, took longer than its solve."""


def same_again(game: Game, hook: str, columns: dict[str, Any], states: Any, what: str,
               ask: Callable[[list[int]], dict[str, Any]]) -> None:
    """Refuse a batch column hook that gives a state other columns when asked again: the
    first, middle and last row of a batch are asked again, each alone (a batch of one: that
    row twice), and its first :data:`SAME_AGAIN_ROWS` rows with each one place later (the
    last of them first; ``ask`` is given the places), and each must get the columns it got
    (a column made lazily, compared as a table makes it: :func:`made`). An impure hook (one
    that counts its calls or remembers what it was asked) or one whose answer for a state
    depends on where it stands in its batch or on the others asked with it (two states' names
    swapped in a batch of five) would show values that change from table to table."""
    n = len(states)
    near = min(n, SAME_AGAIN_ROWS)  # the batch's first rows, each one place later
    for rows in ([[0, 0]] if n == 1 else [[0], [n // 2], [n - 1], [near - 1, *range(near - 1)]] if n else []):
        again = ask(rows)
        if list(again) != list(columns):
            raise ModelError(f"game {game.name}: asked again, {hook} gave the columns "
                             f"{list(again)} for {what} {said(_plain(states[rows[0]]))}, not "
                             f"{list(columns)} as in a batch of {n:,}; a game must give the "
                             "same columns each time it is asked")
        for name, values in columns.items():
            compare = functools.partial(_compare, game, hook, what, states, name, rows,
                                        [_plain(v) for v in made(again[name], game.name, name)])
            if isinstance(values, LazyColumn):  # made for a table alone: compared then
                _PENDING.setdefault(values, []).append(compare)
            else:
                compare(values)


def _compare(game: Game, hook: str, what: str, states: Any, name: str, rows: list[int],
             again: list[Any], values: Any) -> None:
    """Refuse the column ``name``'s ``values`` of a batch of ``states`` whose ``rows`` were
    asked again and given ``again``."""
    wrong = next((j for j, row in enumerate(rows) if repr(again[j]) != repr(_plain(values[row]))), None)
    if wrong is not None:
        row = rows[wrong]
        raise ModelError(f"game {game.name}: asked again, {hook} gave {name}="
                         f"{again[wrong]!r} for {what} {said(_plain(states[row]))}, not "
                         f"{name}={_plain(values[row])!r} as in a batch of {len(states):,}; a "
                         "game must give the same columns each time it is asked, whatever "
                         f"other {what}s are asked with it")


def sources(game: Game, names: Any) -> dict[str, str]:
    """Who gave each of the columns ``names`` of a table of states and actions, for messages:
    ``{"face": "game reroll, mdp_state_columns"}``."""
    hook = "mdp_columns" if game.implements("mdp_columns") else \
        "mdp_state_columns or mdp_action_columns" if game.implements("mdp_action_columns") else \
        "mdp_state_columns"
    return {name: f"game {game.name}, {hook}" for name in names}


TABLE_COLUMNS = ("value", "value_exact", "optimal", "regret", "regret_exact", "probability", "cumulative",
                 "exact", "games", "frequency")
"""The columns mdp's tables add beside the game's (policy, advice, distribution with its
running sum, simulation): a game's column of one of these names would be silently replaced,
or shown beside one of its name, so it is refused."""

ROUNDS_COLUMNS = ("round", "points")
"""The columns the tables of a game of rounds add beside its round columns (the round
played from a round state, in the policy; the total, in a simulation): refused as round
columns too."""

TURNS_COLUMNS = ("player",)
"""The column the tables of a game two players take in turns add beside its outcome columns
(who is to move at the end): refused as an outcome column of such a game."""


def free(game: str, names: Any, hook: str, taken: tuple[str, ...] = TABLE_COLUMNS) -> None:
    """Refuse names of ``game``'s columns (given by ``hook``) that :func:`typed` refuses, or
    that are ``taken``, or shown alike (:func:`mdp.shown.seen`) or in other capitals
    (``Value``: one header to a reader of tables that ignores case): the names mdp's tables
    add beside them. Every name a game gives a table's column passes here, with the names
    that table adds."""
    typed(game, names, hook)
    seen: dict[str, str] = {}
    for name in names:  # two of its own that read alike: one header to such a reader
        other = seen.setdefault(one_name(name), name)
        if other != name:
            raise ModelError(f"game {game}: {hook} names columns {named_twice(name, other)}; "
                             "a table holds one column of a name, in any capitals")
    shown = set(map(one_name, taken))
    clash = [name for name in names if one_name(name) in shown]
    if clash:
        raise ModelError(f"game {game}: {hook} names a column {clash[0]!r}, which mdp's "
                         f"tables add themselves ({', '.join(taken)}); name it otherwise")


def typed(game: str, names: Any, hook: str) -> None:
    """Refuse names of ``game``'s columns (given by ``hook``) that are not text, or that a
    user cannot type as COLUMN=VALUE (:func:`~mdp.game.names.typable`)."""
    odd = [name for name in names if not isinstance(name, str)]
    if odd:
        raise ModelError(f"game {game}: {hook} names a column {said(odd[0])}, not a str; "
                         "a column's name is text")
    untypable = [name for name in names if not typable(name, word=False)]
    if untypable:
        raise ModelError(f"game {game}: {hook} names a column {untypable[0]!r}, which no "
                         f"one can type; {COLUMN}")


def _checked(game: Game, columns: Any, rows: int, lazy: bool = False,
             hook: str = "mdp_columns", taken: tuple[str, ...] = TABLE_COLUMNS) -> dict[str, Any]:
    if not isinstance(columns, dict):
        raise ModelError(f"game {game.name}: {hook} returned {type(columns).__name__}, "
                         "not a dict of columns")
    if not columns:
        raise ModelError(f"game {game.name}: {hook} returned no columns; give one at least "
                         "(or leave the hook out)")
    free(game.name, columns, hook, taken)
    if not lazy:
        columns = {name: made(values, game.name, name) for name, values in columns.items()}
    # Copied as they are read: a game's own array (a view of one it fills again) or list
    # would be written over by its next answer, under the table that holds it.
    columns = {name: copied(values) for name, values in columns.items()}
    for name, values in columns.items():
        if isinstance(values, (str, bytes, dict)) or not isinstance(values, LazyColumn) and not (
                hasattr(values, "__len__") and hasattr(values, "__getitem__")):
            raise ModelError(f"game {game.name}: {hook} gave column {name!r} as "
                             f"{type(values).__name__}; a column is a list or an array of "
                             f"values, one per row")
        if isinstance(values, np.ndarray):  # one value a row: refused here, before any use
            scalars(f"game {game.name}", name, values)
        if len(values) != rows:
            raise ModelError(f"game {game.name}: {hook} gave {len(values):,} values in "
                             f"column {name!r} for {rows:,} rows")
    return columns


def _rows(game: Game, pairs: list[tuple[Any, Any]], actions: bool,
          prints: np.ndarray | None = None) -> dict[str, list[Any]]:
    """Columns from the per-state hooks, one call per state and per action; ``prints``, one
    per pair, the :func:`row_print` that each state's columns must have."""
    columns: dict[str, list[Any]] = {}
    names: list[str] | None = None
    last_state, state_row = object(), {}
    kinds: dict[str, tuple[str, Any, str]] = {}  # each column's kind, first value, where
    for place, (state, action) in enumerate(pairs):
        if state is not last_state:
            state_row = _row(game, "mdp_state_columns", {"state": _text(state)}, state=state)
            last_state = state
            if prints is not None and row_print(state_row) != prints[place]:
                raise ModelError(f"game {game.name}: asked again, mdp_state_columns gave "
                                 f"{said(state_row)} (state {said(state)}): other columns than "
                                 "as the game was compiled; a game must give the same columns "
                                 "of a state each time it is asked")
        row, of_action = dict(state_row), {}
        if actions and action is not None:  # a state named alone has no action columns
            of_action = _row(game, "mdp_action_columns", {"action": _text(action)},
                             state=state, action=action)
            both = [name for name in of_action if name in state_row]
            if both:
                raise ModelError(f"game {game.name}: mdp_action_columns and mdp_state_columns "
                                 f"both name a column {both[0]!r} (state {said(state)}, action "
                                 f"{said(action)}); a table holds one of each name")
            row.update(of_action)
        if names is None:
            typed(game.name, state_row, "mdp_state_columns")
            typed(game.name, of_action, "mdp_action_columns")
            free(game.name, row, "mdp_state_columns" if not actions else
                  "mdp_state_columns or mdp_action_columns")
            names = list(row)
            columns = {name: [] for name in names}
        elif list(row) != names:
            where = f"state {said(state)}" + (f", action {said(action)}" if actions else "")
            raise ModelError(f"game {game.name}: columns {list(row)} differ from {names} ({where})")
        where = f"state {said(state)}" + (f", action {said(action)}" if actions else "")
        for name, value in row.items():  # one kind of value a column, named where it changed
            given = kind(value)
            if given is None:
                columns[name].append(value)
                continue
            seen = kinds.setdefault(name, (given, value, where))
            if seen[0] != given:
                hook = "mdp_action_columns" if name in of_action else "mdp_state_columns"
                raise ModelError(mixed(f"game {game.name}: {hook}", name, seen, (given, value, where)))
            columns[name].append(value)
    return columns


class SameColumns:
    """Checks, state by state as a walk finds them, that every state gives the same columns
    (:func:`~mdp.hookspecs.game.mdp_state_columns`): the policy shows some states, the
    outcomes others, and a state of other columns would pass unseen, or fail in a table."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names: list[str] | None = None
        self.first: Any = None
        self.kinds: dict[str, tuple[str, Any, Any]] = {}  # each column's kind, value, state
        self.active = game.implements("mdp_state_columns")

    def __call__(self, state: Any) -> int | None:
        """The :func:`row_print` of the state's columns (None, the game giving none)."""
        if not self.active:
            return None
        row = _row(self.game, "mdp_state_columns", {"state": _text(state)}, state=state)
        names = list(row)
        if self.names is None:
            typed(self.game.name, names, "mdp_state_columns")
            self.names, self.first = names, state
        elif names != self.names:
            plugin = self.game.blame("mdp_state_columns", lambda other: not isinstance(other, dict)
                                     or list(other) != self.names, state=state)
            whose = f"plugin {plugin}'s " if plugin else ""
            raise ModelError(f"game {self.game.name}: {whose}mdp_state_columns gave the columns {names} "
                             f"(state {said(state)}), not {self.names} as for state {said(self.first)}; "
                             "every state gives the same columns (None where one does not apply)")
        for name, value in row.items():  # one kind of value a column, from the first state on
            given = kind(value)
            seen = self.kinds.setdefault(name, (given, value, state)) if given else None
            if seen and seen[0] != given:
                raise ModelError(mixed(f"game {self.game.name}: mdp_state_columns", name,
                                       (seen[0], seen[1], f"state {said(seen[2])}"),
                                       (str(given), value, f"state {said(state)}")))
        return row_print(row)


def row_print(row: dict[str, Any]) -> int:
    """A 64-bit fingerprint of a state's readable columns, kept with the model (as
    :func:`mdp.engine.walk.label_print` of its actions) so that a game that gives other
    columns when asked again is found, not shown. Of the text of the values, which are
    scalars: NaN, unlike its hash, is the same each time."""
    return hash(repr(list(row.items())))


def _text(value: Any) -> str:
    """A state or action shown in a table without columns of its own: its ``str``, or what
    :func:`said` shows where that raises."""
    try:
        return str(value)
    except PLUGIN_FAULTS as error:  # a game's broken __str__ or __repr__, whatever it raises
        fault(error)  # raises again the user's interruption
        return said(value)


def _row(game: Game, hook: str, default: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    row = game.call(hook, **kwargs)
    if row is None:
        return default
    where = ", ".join(f"{k} {said(v)}" for k, v in kwargs.items())
    if not isinstance(row, dict):
        raise ModelError(f"game {game.name}: {hook} returned {said(row)}, not a dict ({where})")
    for name, value in row.items():  # here, where the hook, the state and action are known
        if not cell(value):
            raise ModelError(f"game {game.name}: {hook} gives column {said(name)} the value "
                             f"{said(value)} ({type(value).__name__}) ({where}); {allowed(value)}")
    return row


def _cells_checked(game: Game, hook: str, columns: dict[str, Any], states: Any, what: str) -> None:
    """Refuse a value of a batch hook's columns that no table holds, naming the hook and the
    ``what`` (state, round state) of its row, as :func:`_row` does for the per-state hooks."""
    for name, values in columns.items():
        if isinstance(values, np.ndarray) and values.dtype != object or one_kind(values):
            continue  # numbers, text or true/false: or the shape is refused by to_frame
        bad = next((row for row, value in enumerate(values) if not cell(value)), None)
        if bad is not None:
            value = values[bad]
            raise ModelError(f"game {game.name}: {hook} gives column {said(name)} the value "
                             f"{said(value)} ({type(value).__name__}) ({what} "
                             f"{said(_plain(states[bad]))}); {allowed(value)}")


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def unused(name: str, taken: Any) -> str:
    """``name``, with underscores before it until it is none of ``taken``: a column of mdp's
    own beside a game's columns, whatever they are named."""
    while name in taken:
        name = "_" + name
    return name
