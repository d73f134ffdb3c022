"""Rows that a table would show alike: two actions of one state whose readable columns are
the same (or that tables show alike: ``'1'`` and ``1``, ``0.3`` and ``0.1 + 0.2``, ``'a'`` and
``'a '``: :func:`mdp.shown.seen`, the one rule), which a player could not tell apart
in a policy table, in ``mdp advise`` or in the report's explorer. Refused where the rows'
columns are made (:func:`mdp.game.columns.row_columns`), for every command alike."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.errors import ModelError, said
from mdp.shown import seen

if TYPE_CHECKING:
    from mdp.game.load import Game


def runs(states: np.ndarray | Sequence[Any]) -> np.ndarray:
    """Per row, the number of its run of rows of one state (the same key, or the same object:
    a table's rows of one state are consecutive)."""
    if isinstance(states, np.ndarray):
        new = states[1:] != states[:-1]
    else:
        new = np.fromiter((a is not b for a, b in zip(states[1:], states[:-1])), dtype=bool,
                          count=max(len(states) - 1, 0))
    return np.concatenate(([0], np.cumsum(new))).astype(np.int64)


def distinct_actions(game: Game, states: np.ndarray | Sequence[Any], actions: Sequence[Any],
                     columns: dict[str, Any]) -> None:
    """Refuse two actions of one state (a run of ``states``) whose ``columns`` are alike,
    naming the game, the hook, the state and both actions. Rows whose action is ``None`` (a
    state named alone) are no action's. Rows are compared by a hash of each value's text
    first (cheap), and those whose hashes meet are compared as a table shows them."""
    run = runs(states)
    if len(run) < 2 or run[-1] == len(run) - 1:  # one row a state: none to tell apart
        return
    hashes = np.zeros(len(run), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for values in columns.values():
            hashes = hashes * np.uint64(1000003) ^ _hashes(values)
    if not (isinstance(actions, np.ndarray) and actions.dtype != object):  # None: no action's
        alone = np.array([a is None for a in actions], dtype=bool)
        run = np.where(alone, -1 - np.arange(len(run)), run)  # each a run of its own
    order = np.lexsort((hashes, run))
    hashes, run = hashes[order], run[order]
    meet = np.flatnonzero((run[1:] == run[:-1]) & (hashes[1:] == hashes[:-1]))
    if len(meet):
        rows = np.unique(np.concatenate([order[meet], order[meet + 1]]))
        _refuse(game, states, actions, columns, rows, run[np.argsort(order)][rows])


def _hashes(values: Any) -> np.ndarray:
    """A 64-bit hash of what a reader sees of each value (:func:`~mdp.shown.seen`; true and
    false as 1 and 0, as a column of numbers beside them shows them), each distinct value's
    text made once: values shown alike hash alike."""
    if type(values).__module__.startswith("polars"):  # a Series
        values = values.to_numpy()
    if isinstance(values, np.ndarray) and values.dtype.kind in "biu":  # shown as they are
        x = values.astype(np.int64).view(np.uint64)  # mixed (splitmix64): small ints differ
        with np.errstate(over="ignore"):
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))
    if isinstance(values, np.ndarray) and values.dtype.kind in "fU":
        distinct, inverse = np.unique(values, return_inverse=True)
        texts = np.fromiter((hash(seen(v)) for v in distinct.tolist()), dtype=np.int64,
                            count=len(distinct))
        return texts[inverse.ravel()].view(np.uint64)
    items = values.tolist() if isinstance(values, np.ndarray) else values
    kinds = set(map(type, items)) - {type(None)}
    if len(kinds) <= 1 and kinds <= {str, int, float}:  # of one type: equal values, one text
        text = {v: hash(seen(v)) for v in dict.fromkeys(items)}
        return np.fromiter(map(text.__getitem__, items), dtype=np.int64, count=len(items)).view(np.uint64)
    made: dict[tuple[type, Any], int] = {}  # a column repeats its values: each text made once

    def hashed(value: Any) -> int:
        key = (type(value), value)
        try:
            return made[key]
        except KeyError:
            made[key] = found = hash(seen(int(value) if isinstance(value, (bool, np.bool_)) else value))
            return found
        except TypeError:  # not hashable: refused where the cells are read
            return hash(seen(value))

    return np.fromiter(map(hashed, items), dtype=np.int64, count=len(items)).view(np.uint64)


def _seen_rows(frame: Any, names: list[str]) -> list[tuple[str, ...]]:
    """What a reader sees of each row of ``frame``'s columns ``names``."""
    return [tuple(seen(v) for v in row) for row in frame.select(names).iter_rows()]


def _first_pair(keys: list[Any]) -> tuple[int, int] | None:
    """The first row whose key another row has, and the first such other; or None."""
    rows: dict[Any, list[int]] = {}
    for i, key in enumerate(keys):
        rows.setdefault(key, []).append(i)
    twice = min((found[:2] for found in rows.values() if len(found) > 1), default=None)
    return None if twice is None else (twice[0], twice[1])


def _alike(names: list[str], a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[str, str]:
    """Two rows' columns as a message says them, each ``x=0.3, y='a'`` (``no column at
    all``): those where the two differ, if any, and text that prints alike by its escapes
    (``'\\xe9'`` and ``'e\\u0301'``)."""
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if type(x) is not type(y) or x != y]
    keep = differ or range(len(names))

    def said(x: Any, y: Any) -> str:
        if isinstance(x, str) and isinstance(y, str) and x != y and \
                unicodedata.normalize("NFKC", x) == unicodedata.normalize("NFKC", y):
            return ascii(x)
        return repr(x)

    one, two = (", ".join(f"{names[i]}={said(row[i], other[i])}" for i in keep)
                or "no column at all" for row, other in ((a, b), (b, a)))
    return one, two


def _refuse(game: Game, states: Any, actions: Sequence[Any], columns: dict[str, Any],
            rows: np.ndarray, run: np.ndarray) -> None:
    """Refuse the first two of ``rows`` (whose hashes met; ``run``: their runs) that a table
    shows alike."""
    import polars as pl

    from mdp.game.cells import to_frame
    from mdp.game.load import describe

    taken = {name: [values[i] for i in rows.tolist()] for name, values in columns.items()}
    frame = to_frame(taken, f"game {game.name}").with_columns(
        pl.Series("\0run", run), pl.Series("\0row", rows))
    shown = [c for c in frame.columns if not c.startswith("\0")]
    pair = _first_pair(list(zip(_seen_rows(frame, shown), frame["\0run"].to_list())))
    if pair is None:
        return
    a, b = (frame["\0row"][i] for i in pair)
    hook = "mdp_columns" if game.implements("mdp_columns") else \
        "mdp_action_columns" if game.implements("mdp_action_columns") else "the column action"
    one, other = _alike(shown, *(frame.select(shown).row(i) for i in pair))
    said_alike = one if one == other else f"{one} and {other}, shown alike"
    raise ModelError(f"game {game.name}: {hook} shows the actions {said(actions[a])} and "
                     f"{said(actions[b])} alike ({said_alike}; {describe(game, states[a])}); an "
                     "action's columns tell it from the state's other actions, as tables and "
                     "mdp advise show them")


class DistinctStates:
    """States that a table would show alike, found a piece of the table at a time: the hash
    of each state's own columns (as :func:`~mdp.game.columns.table_state_columns` gives them)
    kept, 8 bytes a state, and compared once every piece is made."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.parts: list[np.ndarray] = []
        self.states: list[Any] = []
        self.columns: list[dict[str, Any]] = []

    def add(self, states: Any, columns: dict[str, Any]) -> None:
        """Keep the hashes of ``states``' ``columns`` (one row a state)."""
        hashes = np.zeros(len(states), dtype=np.uint64)
        with np.errstate(over="ignore"):
            for values in columns.values():
                hashes = hashes * np.uint64(1000003) ^ _hashes(values)
        self.parts.append(hashes)
        self.states.append(states)
        self.columns.append(columns)

    def check(self) -> None:
        """Refuse two states whose columns a table shows alike, naming both."""
        from mdp.game.cells import to_frame

        hashes = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.uint64)
        order = np.argsort(hashes, kind="stable")
        meet = np.flatnonzero(hashes[order][1:] == hashes[order][:-1])
        if not len(meet):
            return
        where = np.cumsum([0, *(len(p) for p in self.parts)])
        rows = np.unique(np.concatenate([order[meet], order[meet + 1]])).tolist()
        found = [(int(np.searchsorted(where, r, side="right")) - 1, r) for r in rows]
        taken = {name: [self.columns[p][name][int(r - where[p])] for p, r in found]
                 for name in self.columns[0]}
        frame = to_frame(taken, f"game {self.game.name}")
        alike = _first_pair(_seen_rows(frame, frame.columns))
        if alike is None:
            return
        a, b = (self.states[found[i][0]][found[i][1] - where[found[i][0]]] for i in alike)
        a, b = (s.item() if isinstance(s, np.generic) else s for s in (a, b))  # a batch's keys
        one, other = _alike(frame.columns, *(frame.row(i) for i in alike))
        shown = f"the same columns ({one})" if one == other else \
            f"columns that tables show alike ({one}; {other})"
        raise ModelError(f"game {self.game.name}: states {said(a)} and {said(b)} have {shown}; "
                         "no column of the game tells them apart in a table")
