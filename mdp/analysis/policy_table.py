"""The policy as a table: every decision, each action's value, regret and optimality; made
a layer at a time (:class:`~mdp.analysis.pieces.Pieces`), so that the policy of a large game
is written to a file without being held whole."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl

from mdp.analysis.labels import action_labels
from mdp.analysis.pieces import Pieces
from mdp.checks import FLAG, OPTIONAL_GAME, SOLVED, WITHIN, arguments
from mdp.engine.groups import ranks
from mdp.engine.model import CompiledModel
from mdp.engine.rounds import Rounds
from mdp.engine.solution import Solution
from mdp.engine.solved import Solved
from mdp.engine.sweep import top_down
from mdp.errors import ParamError, TooLarge
from mdp.game.apart import DistinctStates
from mdp.game.cells import to_frame
from mdp.game.columns import TABLE_COLUMNS, row_columns, sources, table_state_columns
from mdp.game.load import Game

ROWS = 1 << 17
"""Rows of a piece, about: a layer of more actions is made in runs of its states."""

SAMPLED_LAYERS = 8
"""Layers, about, whose first and last states give the types of the columns."""


def policy(solution: Solved, game: Game | None = None, optimal_only: bool = False,
           within: Any = None) -> pl.DataFrame:
    """One row per action of every non-terminal state: the initial state's first, then
    layer by layer away from it; within a layer, the states in the order of their keys where
    keys can be ordered (numbers, tuples, text), else in the order they were found; each
    state's actions in the game's order.

    Columns: the game's state and action columns when ``game`` is given (see
    :func:`~mdp.hookspecs.game.mdp_state_columns`; else ``state``, as the model holds it, and
    ``action``, the action's place among its state's actions from 0), then ``value`` (the
    action's value when the rest is played optimally), ``value_exact`` (``"p/q"``, exact mode
    only), ``optimal`` (the actions optimal play takes: every action tied for best, but in a
    game with cycles only those of them that bring an end nearer, so that play ends; see
    "Games with cycles" in the concepts page), ``regret`` (the value lost against the best
    action, never negative) and ``regret_exact`` (exact mode only). A column of the game's
    that is empty in every row is left out. With ``optimal_only``, only the optimal actions'
    rows.

    A game of rounds (a :class:`mdp.RoundsSolution`): without ``within``, one row per round
    state, its round columns, ``round`` (the round played from it, 1 for the first) and
    ``value`` (``value_exact`` too, exact); ``within="all"``, or a dict of round columns
    naming some round states (as :func:`mdp.advise` takes them), the policy within the
    round at each of them: its round columns beside the rows above, an action that the
    round state does not allow left out.

    For a table of millions of rows, :func:`policy_pieces` makes it a piece at a time.
    """
    arguments("policy", solution=(solution, SOLVED), game=(game, OPTIONAL_GAME),
              optimal_only=(optimal_only, FLAG), within=(within, WITHIN))
    return policy_pieces(solution, game, optimal_only, within).frame()


def check_within(game: Game, within: Any) -> None:
    """Refuse, before the compile, ``within`` for a game of one model, and round columns of
    it that are no round columns of ``game`` (those of its round start: every round state
    has the same). Once compiled, a
    round state it lacks, or where the game is over, is refused before the solve by
    :meth:`mdp.Rounds.policy_rows` (:func:`~mdp.engine.rounds.table.within_keys`)."""
    if within is not None and not game.in_rounds:  # the one-model table's words, before the work
        raise ParamError(f"game {game.name} is of one model: its policy table has every state "
                         "already (within applies to a game of rounds)")
    first = game.round_start
    if first is None or not isinstance(within, dict):
        return
    from mdp.engine.rounds.table import unknown_columns
    from mdp.game.columns import round_columns

    unknown_columns(game.name, list(round_columns(game, np.array([first]), ())), within)


def check_policy(model: CompiledModel | Rounds, game: Game | None, within: Any = None,
                 optimal_only: bool = False, most: int | None = None) -> None:
    """Refuse, before the solve, a policy table that cannot be made: within the round, one of
    more rows than a table may have, and one of more than ``most`` rows (a Markdown table's);
    the round states ``within`` names by the round columns of ``game`` (before the compile,
    :func:`check_within`)."""
    least = model.policy_rows(within, optimal_only, game=game, most=most)
    if most is not None and least > most:
        raise TooLarge(f"the policy table has {least:,} rows or more, too many for a Markdown "
                       f"table (at most {most:,}), which is for people to read; write CSV or "
                       "Parquet (--out FILE.csv)")


def policy_pieces(solution: Solved, game: Game | None = None, optimal_only: bool = False,
                  within: Any = None) -> Pieces:
    """:func:`policy` as :class:`~mdp.analysis.pieces.Pieces`: made a piece at a time as it
    is written (``mdp policy --out``), about :data:`ROWS` rows each."""
    arguments("policy_pieces", solution=(solution, SOLVED), game=(game, OPTIONAL_GAME),
              optimal_only=(optimal_only, FLAG), within=(within, WITHIN))
    return solution.policy_pieces(
        game, within, lambda one, columns: _pieces(one, game, optimal_only, columns))


def _pieces(solution: Solution[Any], game: Game | None, optimal_only: bool,
            columns: dict[str, Any]) -> Pieces:
    """The policy table of one model, each row beside ``columns``."""
    model = solution.model
    bounds = [(lo, hi) for _, lo, hi in top_down(model)]

    def make() -> Iterator[pl.DataFrame]:
        apart = None if game is None else DistinctStates(game)  # states shown alike: refused
        for lo, hi in bounds:
            ids = lo + _ordered(model.states, lo, hi)
            counts = model.action_count(ids)
            ends = np.searchsorted(np.cumsum(counts), np.arange(ROWS, int(counts.sum()), ROWS))
            for run in np.split(ids, np.unique(ends)):
                if len(run):
                    if apart is not None:
                        states = _take(model.states, run)
                        apart.add(states, table_state_columns(
                            apart.game, states,
                            None if model.column_prints is None else model.column_prints[run]))
                    yield _rows(solution, game, run, optimal_only, columns)
        if apart is not None:
            apart.check()

    # The types of the columns, from the first and the last state of layers spread over the
    # game (a type they miss widens the table's as it is made: see Pieces).
    spread = bounds[::max(1, len(bounds) // SAMPLED_LAYERS)] + bounds[-1:]
    sample = [_rows(solution, game, np.unique([lo, hi - 1]), False, columns)
              for lo, hi in dict.fromkeys(spread) if lo < hi]
    first = pl.concat(sample, how="diagonal_relaxed") if sample else \
        _rows(solution, game, np.zeros(0, dtype=np.int64), False, columns)
    given = [] if game is None else \
        [c for c in first.columns if c not in columns and c not in TABLE_COLUMNS]
    return Pieces(make, first, name="the policy table",
                  total=None if optimal_only or solution.allowed is not None else model.n_actions,
                  sources=None if game is None else sources(game, given))


def _rows(solution: Solution[Any], game: Game | None, ids: np.ndarray, optimal_only: bool,
          columns: dict[str, Any]) -> pl.DataFrame:
    """The rows of the states ``ids``, of one layer, beside ``columns``; an action the
    position does not allow left out."""
    model = solution.model
    per_action = solution.action_values(ids)
    metrics: dict[str, Any] = {"value": per_action.value}
    if per_action.exact is not None:
        metrics["value_exact"] = [str(x) for x in per_action.exact]
    metrics.update(optimal=per_action.optimal.astype(bool), regret=per_action.regret)
    if per_action.exact_regret is not None:
        metrics["regret_exact"] = [str(x) for x in per_action.exact_regret]
    states = _take(model.states, per_action.state)
    if game is None:  # no game to name the actions: their place among the state's actions
        labels: dict[str, Any] = {"state": [str(s) for s in states],
                                  "action": ranks(model.action_count(ids))}
    else:
        labels = row_columns(game, states, action_labels(model, game, ids),
                             None if model.column_prints is None else model.column_prints[per_action.state])
    frame = to_frame({**labels, **metrics}, f"game {model.info.game}")
    if columns:
        frame = pl.DataFrame({c: [v] * frame.height for c, v in columns.items()},
                             strict=False).hstack(frame)
    keep = np.ones(frame.height, dtype=bool) if solution.allowed is None else \
        solution.allowed[model.actions_of_states(ids)]
    if optimal_only:
        keep &= metrics["optimal"]
    return frame if keep.all() else frame.filter(pl.Series(keep))


def _ordered(states: np.ndarray | Sequence[Any], lo: int, hi: int) -> np.ndarray:
    """The places of states ``lo`` to ``hi - 1`` in the order of their keys, if keys of
    theirs can be ordered; else as they are."""
    if isinstance(states, np.ndarray) and states.dtype.kind in "iuf":
        return np.argsort(states[lo:hi], kind="stable")
    keys = states[lo:hi]
    try:
        return np.array(sorted(range(hi - lo), key=keys.__getitem__), dtype=np.int64)
    except TypeError:  # keys of no order (a mix of types, say)
        return np.arange(hi - lo)


def _take(items: np.ndarray | Sequence[Any], ids: np.ndarray) -> np.ndarray | list[Any]:
    return items[ids] if isinstance(items, np.ndarray) else [items[i] for i in ids.tolist()]
