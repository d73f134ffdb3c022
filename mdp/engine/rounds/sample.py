"""Games of rounds played at random: every game a move at a time, each round's play chosen
for the round states the games are in, a batch at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from mdp.engine.numeric import first_past_float
from mdp.engine.outcomes import CHUNK
from mdp.engine.rounds.float_totals import snapped, total_scale, whole_sums
from mdp.engine.rounds.kinds import WORK
from mdp.engine.rounds.table import every_round_frame, key_column
from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.engine.rounds.kinds import PlayedRounds
    from mdp.engine.rounds.reach import Reach
    from mdp.game.load import Game


def sample(solution: PlayedRounds, games: int, rng: np.random.Generator,
           toward: tuple[Reach, int] | None = None,
           tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` games at random, optimally (its ties broken by ``tie_break``, if
    given, as the distribution breaks them) or as the strategy's aims say, or with
    ``toward`` (the best chance of every total, and a total) for the best chance of at least
    that total: the points each game earned (int64, float64, or exact Python numbers in an
    object array, as the rule gives them) and the round state it ended in. Each round, the
    round states the games are in are solved again
    (:meth:`~mdp.engine.rounds.solution.RoundsSolution.chosen`; toward a total, each with
    the points its games still need, :meth:`~mdp.engine.rounds.reach.Reach.chosen`), a
    batch at a time, and every game in the batch plays its round a move at a time."""
    model, inner = solution.model, solution.model.round
    key = np.full(games, model.start, dtype=np.int64)
    points: Any = None
    whole = whole_sums(model)
    for r in range(model.n_rounds + 1):
        if toward is None:
            keys, column = np.unique(key, return_inverse=True)
        else:  # a column per round state and points still needed
            reach, total = toward
            earned = np.zeros(games, dtype=np.int64) if points is None else \
                points.astype(np.int64) if points.dtype != object else \
                np.array([int(p) for p in points.tolist()], dtype=np.int64)  # whole: see Reach
            pairs, column = np.unique(np.stack([key, reach.needs(r, key, total - earned)], axis=1),
                                      axis=0, return_inverse=True)
            keys, needs, column = pairs[:, 0], pairs[:, 1], column.ravel()
        size = max(1, WORK // max(inner.n_states, inner.n_terminal))
        for c0 in range(0, len(keys), size):
            batch = keys[c0:c0 + size]
            ends = model.rule(batch)
            if points is None or (ends.points.dtype != points.dtype and points.dtype != object):
                wider = np.zeros(games, dtype=whole or np.result_type(ends.points.dtype, np.int64))
                if points is not None:
                    wider[:] = points
                points = wider
            mine = np.flatnonzero((column >= c0) & (column < c0 + len(batch)))
            mine = mine[~ends.over[column[mine] - c0]]
            if not len(mine):
                continue
            choice = solution.chosen(batch, ends, tie_break) if toward is None else \
                toward[0].chosen(batch, needs[c0:c0 + size], ends)
            where = column[mine] - c0
            state = np.full(len(mine), inner.initial, dtype=np.int64)
            going = np.arange(len(mine))
            while len(going):
                s = state[going]
                actions = inner.action_start[s] + choice[s, where[going]]
                state[going] = inner.sample(actions, rng)
                going = going[state[going] >= inner.n_terminal]
            earns = ends.points[where, state]
            if whole is not None:  # whole floats, added exactly
                earns = earns.astype(np.int64) if whole is np.int64 else \
                    np.array([int(p) for p in earns], dtype=object)
            points[mine] += earns
            key[mine] = ends.next[where, state]
    return (np.zeros(games, dtype=np.int64) if points is None else points), key


def points_column(points: np.ndarray) -> pl.Series:
    """Totals of points as a column: whole numbers as Int64 where they fit, else floats."""
    if points.dtype == object:
        if all(p == int(p) and -2**63 <= int(p) < 2**63 for p in points.tolist()):
            return pl.Series("points", [int(p) for p in points.tolist()], dtype=pl.Int64)
        return pl.Series("points", [float(p) for p in points.tolist()], dtype=pl.Float64)
    if points.dtype.kind == "f" and len(points) and (points == np.round(points)).all() \
            and np.abs(points).max() < 2**53:
        return pl.Series("points", points.astype(np.int64))
    return pl.Series("points", points)


def _within_floats(game: str, points: np.ndarray) -> None:
    """Refuse, in one line, games played at random whose totals no float holds: simulate
    counts them in floats."""
    past = first_past_float(points.tolist()) if points.dtype == object else None
    if past is not None or (points.dtype.kind == "f" and not np.isfinite(points).all()):
        raise ModelError(f"game {game}: a game played at random reached a total past what a "
                         "float holds (about 1.8e308), and mdp simulate counts totals in floats; "
                         "mdp distribution --exact gives the chance of every total exactly")


def simulated(solution: PlayedRounds, game: Game | None, games: int, seed: int | None,
              toward: tuple[Reach, int] | None = None,
              tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray, pl.DataFrame]:
    """Games of a game of rounds (played as :func:`sample` says), by their points and the
    round state they end in: the points of each outcome (ints where they are whole, else
    floats), how many games ended there, and the outcomes."""
    rng = np.random.default_rng(seed)
    # The columns of every round state, as policy and advise read them: two named alike are
    # refused whichever round states these games happened to end in.
    every_frame = every_round_frame(solution.model, game)
    key = key_column(every_frame.columns)  # beside them, whatever they are named
    parts = []
    for begin in range(0, games, CHUNK):  # a chunk's games at a time: memory stays bounded
        points, final = sample(solution, min(CHUNK, games - begin), rng, toward, tie_break)
        _within_floats(solution.model.info.game, points)
        parts.append(pl.DataFrame({"points": points_column(points), key: final})
                     .group_by(["points", key]).len("games"))
    played = pl.concat(parts, how="vertical_relaxed")
    scale = total_scale(solution.model)
    if scale is not None and played["points"].dtype.is_float():  # sums of float points: one rule
        played = played.with_columns(points=pl.Series(snapped(played["points"].to_list(), scale)))
    played = played.group_by(["points", key]).agg(pl.col("games").sum())
    keys = np.unique(played[key].to_numpy())
    every = np.concatenate(solution.model.keys)
    order = np.argsort(every)
    columns = every_frame[order[np.searchsorted(every, keys, sorter=order)]]
    varied = [c for c in columns.columns if columns[c].n_unique() > 1]
    columns = pl.DataFrame({key: keys}).with_columns(columns.select(varied))
    outcomes = played.join(columns, on=key, how="left").drop(key)
    names = [c for c in outcomes.columns if c != "games"]
    outcomes = outcomes.select(*names, "games").sort(names)
    totals = outcomes["points"]  # whole ones as they are: past 2**53, floats would merge them
    values = totals.to_numpy() if totals.dtype.is_integer() else totals.cast(pl.Float64).to_numpy()
    return values, outcomes["games"].to_numpy(), outcomes
