"""A game of rounds in tables: its round states by their readable columns
(:func:`~mdp.hookspecs.game.mdp_round_columns`), found by COLUMN=VALUE, and its policy
table: the value of every round state, or the policy within the round at some of them."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from mdp.engine.numeric import shown_floats
from mdp.engine.rounds.kinds import RoundsModel, batches
from mdp.errors import ParamError, TooLarge
from mdp.game.cells import to_frame
from mdp.game.columns import round_columns, row_columns, table_state_columns, unused
from mdp.game.naming import near, same, written
from mdp.limits import MAX_TABLE_ROWS

if TYPE_CHECKING:
    from mdp.engine.rounds.kinds import PlayedRounds
    from mdp.engine.solution import Solution
    from mdp.game.load import Game

ROUND_STATES = 1 << 16
"""Round states to a piece of the table of their values."""

WITHIN_ALL = "all"
"""``within`` that asks for the policy within the round at every round state."""


def round_frame(model: RoundsModel, game: Game | None, keys: np.ndarray,
                beside: list[str] | None = None) -> pl.DataFrame:
    """The round columns of the round states ``keys`` as a table (``round_state``, the key,
    without a game); ``beside``, the names of :func:`round_names`, if they are at hand."""
    if game is None:
        return pl.DataFrame({"round_state": keys})
    names = round_names(model, game) if beside is None else beside
    return to_frame(round_columns(game, keys, names), f"game {game.name}")


_EVERY: weakref.WeakKeyDictionary[Any, tuple[Game | None, pl.DataFrame]] = weakref.WeakKeyDictionary()
"""Per compiled game of rounds, the game and the round columns of every round state, made
once: each advice, policy and report reads them (asked again, every call of ``mdp.advise``
asked the game for every round state's columns)."""


def every_round_frame(model: RoundsModel, game: Game | None) -> pl.DataFrame:
    """:func:`round_frame` of every round state of ``model``, round after round (the keys
    of ``model.keys`` one after another), made once per model and game."""
    found = _EVERY.get(model)
    if found is None or found[0] is not game:
        found = (game, round_frame(model, game, np.concatenate(model.keys)))
        _EVERY[model] = found
    return found[1]


def round_names(model: RoundsModel, game: Game) -> list[str]:
    """The names of the columns of a state and an action of the round, as tables show them
    beside the round columns: those of the round's first state and its first action."""
    from mdp.analysis.labels import action_labels  # the game's labels, asked again

    inner = model.round
    state = inner.states[inner.initial]
    if inner.initial < inner.n_terminal:
        return list(table_state_columns(game, [state]))
    return list(row_columns(game, [state], action_labels(inner, game, [inner.initial])[:1]))


def matching(model: RoundsModel, game: Game | None, columns: dict[str, Any],
             one: bool = False) -> tuple[pl.DataFrame, list[str], dict[str, Any]]:
    """The round states whose round columns have the values of ``columns`` (those of them
    that are round columns, compared as text): their columns and their key (in the column
    :func:`key_column` names); the names of the
    round columns; and the columns given that are round columns. With ``one`` (a round
    state named), a round column left out names a round state where it is empty (None), as
    a state's column does, unless one round state has the columns given."""
    keys = np.concatenate(model.keys)
    table = every_round_frame(model, game)
    names, key = table.columns, key_column(table.columns)
    table = table.with_columns(pl.Series(key, keys))
    given = {c: v for c, v in columns.items() if c in names}
    matches = table.filter([same(table, c, v) for c, v in given.items()]) if given else table
    lacking = [pl.col(c).is_null() for c in names if c not in given and table[c].null_count()]
    if one and matches.height > 1 and lacking:
        empty = matches.filter(lacking)
        matches = empty if empty.height else matches
    if not given and (not one or not lacking or matches.height != 1):
        inner = round_names(model, game) if game is not None else []
        unknown = [c for c in columns if c not in names and c not in inner]
        lead = f"unknown column {', '.join(unknown)}; " if unknown else ""
        raise ParamError(f"{lead}name a round state of {model.info.game} by its columns "
                         f"{', '.join(names)} ({_example(model, game, names)})")
    if not matches.height:
        said = ", ".join(f"{c}={v!r}" for c, v in given.items())
        raise ParamError(f"no reachable round state has {said}{near(table, given)}"
                         f"{_beside(table, given)}; name one "
                         f"by its columns "
                         f"{', '.join(names)} ({_example(model, game, names)})")
    return matches, names, given


def key_column(names: list[str]) -> str:
    """The name of the column of round states' keys beside their round columns ``names``:
    ``_key``, or with more underscores where a round column has that name."""
    return unused("_key", names)


def _example(model: RoundsModel, game: Game | None, names: list[str]) -> str:
    """How the first round state is named (``COLUMN=VALUE, e.g. the first: filled=""``), a
    column that is empty there left out."""
    start = round_frame(model, game, model.keys[0][:1]).row(0, named=True)
    shown = written({c: start[c] for c in names})
    return ("COLUMN=VALUE, e.g. the first: " + shown if shown else
            "COLUMN=VALUE; a column empty in the round state is left out, as every one is in "
            "the first")


def find_round_state(model: RoundsModel, game: Game,
                     columns: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The round state that the round columns among ``columns`` name, and its columns."""
    matches, names, given = matching(model, game, columns, one=True)
    if matches.height != 1:
        said = ", ".join(f"{c}={v!r}" for c, v in given.items())
        raise ParamError(f"several round states have {said}; name one by its columns "
                         f"{', '.join(names)} ({_example(model, game, names)})")
    row = matches.row(0, named=True)
    return int(row[key_column(names)]), {c: _plain(row[c]) for c in names}


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def policy_pieces(solution: PlayedRounds, game: Game | None, within: Any,
                  table: Callable[[Solution[Any], dict[str, Any]], Any]) -> Any:
    """The policy table of a game of rounds (see :meth:`mdp.RoundsSolution.policy_pieces`)."""
    from mdp.analysis.pieces import Pieces  # the engine's tables stream as the analyses' do

    if within is None:
        return _values(solution, game, Pieces)
    keys, named = within_keys(solution.model, game, within)
    each = [(int(k), {c: _plain(v) for c, v in row.items()})
            for k, row in zip(keys.tolist(), named.iter_rows(named=True))]

    def whole(piece: pl.DataFrame) -> pl.DataFrame:
        # A round column empty (None) at a round state is left out of its rows: empty beside
        # the other round states' rows. The round columns first, in the game's order (that
        # of every round state's table), whichever round state comes first.
        absent = [c for c in named.columns if c not in piece.columns]
        piece = piece.with_columns(pl.lit(None, dtype=named.schema[c]).alias(c) for c in absent)
        return piece.select(*named.columns, *(c for c in piece.columns if c not in named.columns))

    def make() -> Iterator[pl.DataFrame]:
        for key, columns in each:
            yield from map(whole, table(solution.at(key), columns))

    first = table(solution.at(each[0][0]), each[0][1])
    return Pieces(make, whole(first.empty()), name="the policy table", total=None,
                  sources=first.sources)


def within_keys(model: RoundsModel, game: Game | None, within: Any) -> tuple[np.ndarray, pl.DataFrame]:
    """The round states whose policy within the round ``within`` asks for (``"all"``, or
    round columns naming some), less those that end the game, and their round columns:
    checked before any solving, a table past :data:`~mdp.limits.MAX_TABLE_ROWS` refused."""
    if isinstance(within, str) and within == WITHIN_ALL:
        keys = np.concatenate(model.keys[:-1]) if model.n_rounds else np.zeros(0, dtype=np.int64)
        # The columns of every round state, the last round's too: two named alike are
        # refused as in the other tables.
        named = every_round_frame(model, game)[:len(keys)]
    elif isinstance(within, dict):
        # said before a round state is sought by the others
        unknown_columns(model.info.game, round_frame(model, game, model.keys[0][:1]).columns, within)
        matches, names, given = matching(model, game, within)
        keys, named = matches[key_column(names)].to_numpy(), matches.select(names)
    else:
        raise ParamError(f"within={within!r}: expected {WITHIN_ALL!r} or round columns "
                         "(COLUMN=VALUE) naming round states")
    over = np.concatenate([np.zeros(0, dtype=bool)] + [
        model.rule(batch).over for batch in batches(keys, model.round.n_terminal)])
    keys, named = keys[~over], named.filter(pl.Series(~over))
    rows = len(keys) * model.round.n_actions
    if rows > MAX_TABLE_ROWS:
        raise TooLarge(f"game {model.info.game}: the policy within the round at {len(keys):,} "
                       f"round states has up to {rows:,} rows, more than the {MAX_TABLE_ROWS:,} "
                       "a table may have; name fewer round states by their columns")
    if not len(keys):
        raise ParamError(f"game {model.info.game}: no round state named is played from (each "
                         "ends the game)")
    return keys, named


def unknown_columns(game: str, names: list[str], within: dict[str, Any]) -> None:
    """Refuse columns of ``within`` that are not among ``names``, the round columns of
    every round state of ``game``."""
    unknown = [str(c) for c in within if c not in names]
    if unknown:
        raise ParamError(f"within: {', '.join(unknown)} "
                         f"{'is no round column' if len(unknown) == 1 else 'are no round columns'}"
                         f" of {game} (its round columns: {', '.join(names)})")


def within_rows(model: RoundsModel, game: Game | None, within: Any, optimal_only: bool, most: int) -> int:
    """The rows of the policy within the round at the round states ``within`` names, known
    before the solve from the ends each allows (an action that may come to an end its round
    state does not allow has no row), counted until past ``most``: each pattern of ends
    allowed is worked out once."""
    from mdp.engine.rounds.choose import allowed_actions

    keys, _ = within_keys(model, game, within)
    inner = model.round
    owner = inner.action_state()
    known: dict[bytes, int] = {}
    rows = 0
    for batch in batches(keys, inner.n_terminal):
        for ends in model.rule(batch).next >= 0:
            pattern = ends.tobytes()
            if pattern not in known:
                allowed = allowed_actions(inner, ends)
                shown = np.ones(inner.n_actions, dtype=bool) if allowed is None else allowed
                known[pattern] = len(np.unique(owner[shown])) if optimal_only else int(shown.sum())
            rows += known[pattern]
            if rows > most:
                return rows
    return rows


def _values(solution: PlayedRounds, game: Game | None, Pieces: Any) -> Any:
    """The value of every round state: its round columns, ``round`` (the round played from
    it, 1 for the first; null where the game is over, no round played, as it is from the
    start of a game of no rounds), ``value`` and, exact, ``value_exact``; round after round,
    in the order of their keys."""
    model = solution.model
    # The round columns of every round state at once: a column has one type whatever the
    # round (fractions whole in one round and not in another), and no two round states the
    # same columns though they fall in two pieces.
    columns = every_round_frame(model, game)
    first = np.cumsum([0] + [len(keys) for keys in model.keys]).tolist()

    def rows(r: int, lo: int, hi: int) -> pl.DataFrame:
        values = solution.values[r][lo:hi]
        keys = model.keys[r][lo:hi]
        over = np.concatenate([np.zeros(0, dtype=bool)] + [
            model.rule(batch).over for batch in batches(keys, model.round.n_terminal)])
        frame = columns.slice(first[r] + lo, hi - lo).with_columns(
            round=pl.Series([None if o else r + 1 for o in over.tolist()], dtype=pl.Int64),
            value=pl.Series(shown_floats(values), dtype=pl.Float64))
        if solution.exact:
            frame = frame.with_columns(value_exact=pl.Series([str(v) for v in values],
                                                             dtype=pl.String))
        return frame

    def make() -> Iterator[pl.DataFrame]:
        for r, keys in enumerate(model.keys):
            for lo in range(0, len(keys), ROUND_STATES):
                yield rows(r, lo, min(lo + ROUND_STATES, len(keys)))

    return Pieces(make, rows(0, 0, 1), name="the values of the round states",
                  total=model.n_round_states)


def _beside(table: pl.DataFrame, given: dict[str, Any]) -> str:
    """Where no round state has every column given, the values of one of them in the round
    states that have the others (a game may keep another value than a player counts: a card
    keeps 0 for an upper total once its bonus is out of reach)."""
    for column in given:
        others = {c: v for c, v in given.items() if c != column}
        rows = table.filter([same(table, c, v) for c, v in others.items()]) if others else None
        if rows is not None and rows.height:
            values = rows[column].unique().sort(nulls_last=True).to_list()
            shown = " or ".join(map(repr, values[:5])) + (", ..." if len(values) > 5 else "")
            return f"; those with {', '.join(f'{c}={v!r}' for c, v in others.items())} have {column} {shown}"
    return ""
