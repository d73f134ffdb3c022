"""Rows that a table would show alike: two actions of one state whose readable columns are
the same (or that tables show alike: ``'1'`` and ``1``), which a player could not tell apart
in a policy table, in ``mdp advise`` or in the report's explorer. Refused where the rows'
columns are made (:func:`mdp.game.columns.row_columns`), for every command alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.errors import ModelError, said

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
    """A 64-bit hash of each value's text (of each number, for an array of numbers)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "biuf":
        return values.astype(np.float64).view(np.uint64)
    if type(values).__module__.startswith("polars"):  # a Series: of one type, hashed there
        return values.hash().to_numpy()
    return np.fromiter(map(hash, map(str, values)), dtype=np.int64, count=len(values)).view(np.uint64)


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
    twice = frame.filter(frame.select([*shown, "\0run"]).is_duplicated())
    if not twice.height:
        return
    first = twice.row(0, named=True)
    alike = twice.filter(pl.all_horizontal([pl.col(c).eq_missing(first[c]) for c in [*shown, "\0run"]]))
    a, b = alike["\0row"].to_list()[:2]
    hook = "mdp_columns" if game.implements("mdp_columns") else \
        "mdp_action_columns" if game.implements("mdp_action_columns") else "the column action"
    said_alike = ", ".join(f"{c}={first[c]!r}" for c in shown) or "no column at all"
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
        taken = {name: [self.columns[p][name][r - where[p]] for p, r in found]
                 for name in self.columns[0]}
        frame = to_frame(taken, f"game {self.game.name}")
        twice = frame.is_duplicated().arg_true().to_list()
        if not twice:
            return
        first = frame.row(twice[0], named=True)
        alike = [i for i in twice if frame.row(i, named=True) == first][:2]
        a, b = (self.states[found[i][0]][found[i][1] - where[found[i][0]]] for i in alike)
        shown = ", ".join(f"{c}={v!r}" for c, v in first.items()) or "no column at all"
        raise ModelError(f"game {self.game.name}: states {said(a)} and {said(b)} have the same "
                         f"columns ({shown}); no column of the game tells them apart in a table")
