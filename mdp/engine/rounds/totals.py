"""The chance of every total of points of a game of rounds under optimal play
(:func:`rounds_distribution`): in floats, a round at a time (:func:`follow`), or a round
state at a time, exactly (:func:`one_by_one`).

In floats, a round at a time: the round states of a round in batches, each batch's rounds solved as value
columns of the round model with every state's choice kept
(:meth:`mdp.RoundsSolution.chosen`), the play of each column pushed forward to the round's
ends (:func:`mdp.engine.sweep.forward_chosen`), and each round state's chance of every total
so far moved, shifted by each end's points, to the round state that end leads to.

Each round state's chance of every total so far is a vector (:class:`~mdp.engine.rounds.vectors.Totals`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import polars as pl

from mdp.engine.budget import size
from mdp.engine.keys import KeyIndex
from mdp.engine.numeric import written
from mdp.engine.outcomes import reach
from mdp.engine.rounds.float_totals import snapped, total_scale
from mdp.engine.rounds.kinds import RoundsModel, each_batch
from mdp.engine.rounds.rule import DENSE, INT64, RoundEnds, exact_points
from mdp.engine.rounds.vectors import Totals
from mdp.engine.sweep import forward_chosen
from mdp.errors import ModelError, NotWhole, TooLarge
from mdp.limits import default_max_memory
from mdp.shown import shown_float

if TYPE_CHECKING:
    from mdp.engine.rounds.kinds import PlayedRounds


def follow(solution: PlayedRounds, progress: Callable[[str], None] | None = None
           ) -> tuple[int, np.ndarray]:
    """The chance of every final total under ``solution``'s optimal play (the first optimal
    action of each state), in floats: the least total, and the chance of it and of each
    total after it. :class:`NotWhole` where an end reached earns points that are not whole."""
    model = solution.model
    inner = model.round
    table = np.array([float(p) for p in inner.probabilities])
    now = Totals.start()
    ended = []
    for r in range(model.n_rounds + 1):
        keys = model.keys[r][now.index]
        if progress:
            progress(f"following the totals of round {r + 1} of {model.n_rounds + 1}: "
                     f"{len(keys):,} round states reached")
        position = positions(model.keys[r + 1]) if r < model.n_rounds else None

        def batch(some: np.ndarray) -> tuple[Any, Any]:
            """The totals of the round states of ``some`` that end the game, and the moves
            of the others to the next round."""
            b0 = int(np.searchsorted(keys, some[0]))  # keys are sorted
            ends = model.rule(some)
            over = ends.over
            playing = np.flatnonzero(~over)
            if not len(playing):
                return now.ending(b0 + np.flatnonzero(over)), None
            row, next_, points, chance = _ends_reached(solution, some[playing], ends, playing, table)
            assert position is not None  # no round state is reached after the last round
            return (now.ending(b0 + np.flatnonzero(over)),
                    (b0 + playing[row], position(next_), points, chance))

        done = each_batch(keys, max(inner.n_states, inner.n_terminal), False, batch)
        ended += [ending for ending, _ in done]
        moves = [move for _, move in done if move is not None]
        if not moves:
            totals, chances = (np.concatenate(parts) for parts in zip(*ended))
            low = int(totals.min())
            chances = np.bincount(totals - low, weights=chances)
            return low, chances
        s, d, points, chance = (np.concatenate(parts) for parts in zip(*moves))
        now = now.moved(s, d, points, chance, len(model.keys[r + 1]))
    raise ModelError(f"game {model.info.game}: games still playing after its last round")


def _ends_reached(solution: PlayedRounds, keys: np.ndarray, ends: RoundEnds, rows: np.ndarray,
                  table: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every end that optimal play reaches from round states ``keys`` (rows ``rows`` of
    ``ends``): the round state's place among ``keys``, the next round state's key, the
    points (whole) and the chance."""
    inner = solution.model.round
    reached = np.zeros((inner.n_states, len(keys)))
    reached[inner.initial] = 1.0
    forward_chosen(inner, solution.chosen(keys, ends.rows(rows)), reached, table)
    end, row = np.nonzero(reached[:inner.n_terminal])
    chance = reached[end, row]
    next_ = ends.next[rows[row], end]
    if (next_ < 0).any():
        at = int(np.flatnonzero(next_ < 0)[0])
        raise ModelError(f"game {solution.model.info.game}: from round state {int(keys[row[at]])}, "
                         "optimal play comes to an end that mdp_round_rule does not allow there")
    return row, next_, whole(ends.points[rows[row], end], keys[row]), chance


def whole(points: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``points`` as whole numbers (int64), each earned from round state ``keys[i]``;
    :class:`NotWhole` if one is not whole, or is past 2**49 (totals might not fit in 64
    bits)."""
    if points.dtype.kind in "biu":
        return points.astype(np.int64)
    if points.dtype == object:  # fractions, or ints past 2**49
        for p, key in zip(points.tolist(), keys.tolist()):
            if Fraction(p).denominator != 1 or abs(p) >= INT64:
                raise NotWhole(f"points {written(p)} from round state {int(key)}")
        return np.array([int(p) for p in points.tolist()], dtype=np.int64)
    if points.size and not np.all(np.abs(points) < INT64):
        at = int(np.flatnonzero(~(np.abs(points) < INT64))[0])
        raise NotWhole(f"points {points[at]} from round state {int(keys[at])}")
    whole = np.rint(points).astype(np.int64)  # (half to even, as round(): none is half)
    wrong = np.flatnonzero(whole != points)
    if len(wrong):
        raise NotWhole(f"points {points[wrong[0]]} from round state {int(keys[wrong[0]])}")
    return whole


def positions(keys: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """The place of some keys among the sorted ``keys`` (all of them there): a table indexed
    by the key where the keys are small, else a binary search."""
    if len(keys) and int(keys[-1]) < DENSE:
        table = np.zeros(int(keys[-1]) + 1, dtype=np.int64)
        table[keys] = np.arange(len(keys))
        return lambda some: table[some]
    return KeyIndex(keys, in_order=True).ids_of


MOST_ROUND_STATES = 5_000
"""Round states up to which a game of rounds is followed in exact numbers, or with a
tie-break: each round state's round solved and played forward on its own (:func:`one_by_one`)."""


ONE_BY_ONE_BYTES = 1 << 20
"""Bytes of the totals of two rounds side by side, per round state, past which a game of few
round states (:data:`MOST_ROUND_STATES`) is followed one by one in floats too, whatever the
budget: a round solved per round state takes less than filling a megabyte of chances per round
state (whole points of 10**7 over four round states took 9 GB and 50 s a round at a time,
0.02 s one by one)."""


def check_chances(model: RoundsModel, *, exact: bool = False, tie_break: Sequence[Any] = (),
                  max_memory: int | None | Literal["default"] = "default") -> bool:
    """Whether :func:`rounds_distribution` follows the chance of every total of a game of
    rounds a round state at a time (:func:`one_by_one`): in exact numbers, with a tie-break,
    or in floats where the totals of two rounds side by side, bounded by the least and the
    most points of each round, would take more than ``max_memory`` bytes (by default the
    share of the memory mdp may use that :func:`mdp.compile` allows a model), or, the round
    states few, more than :data:`ONE_BY_ONE_BYTES` a round state. Refused
    (:class:`mdp.TooLarge`), before it is solved, where that is needed of more than
    :data:`MOST_ROUND_STATES` round states."""
    game = model.info.game
    few = model.n_round_states <= MOST_ROUND_STATES
    if exact or tie_break:
        if not few:
            how = ("in exact numbers (at most {}); in floats they are followed a round at a time"
                   if exact else "with a tie-break (at most {}); without one, play takes the first "
                   "optimal action and they are followed a round at a time")
            raise TooLarge(f"game {game}: {model.n_round_states:,} round states, too many to "
                           "follow one by one for the chance of every total "
                           + how.format(f"{MOST_ROUND_STATES:,}"))
        return True
    need = _totals_bytes(model)
    if few and need > ONE_BY_ONE_BYTES * model.n_round_states:
        return True  # quicker one by one than vectors of gigabytes over a few round states
    if max_memory == "default":
        max_memory = default_max_memory()
    if max_memory is None or need <= max_memory:
        return False
    if not few:
        raise TooLarge(f"game {game}: following the chance of every total may take up to "
                       f"{size(need)}, past the budget of {size(max_memory)}, and its "
                       f"{model.n_round_states:,} round states are too many to follow one by one "
                       f"(at most {MOST_ROUND_STATES:,}); raise it with --max-memory (max_memory= "
                       "in Python), or estimate the chances with mdp simulate")
    return True


def _totals_bytes(model: RoundsModel) -> int:
    """A bound of the memory that the chances of every total take, two rounds side by side:
    each round state of a round with a float for every total from the least points of the
    rounds before it to the most."""
    low = high = 0
    sizes = [1]
    for (least, most), keys in zip(model.points(), model.keys[1:]):
        low, high = low + math.floor(least), high + math.ceil(most)
        sizes.append(len(keys) * (high - low + 1))
    return 8 * max(a + b for a, b in zip(sizes, sizes[1:] + [0]))


def rounds_distribution(solution: PlayedRounds, tie_break: Sequence[Any] = (),
                        progress: Callable[[str], None] | None = None,
                        max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of every total of points of a game of rounds under optimal play. Columns
    ``points``, ``probability`` and, solved exactly, ``exact``; ties are broken by
    ``tie_break`` and then the game's order (the first optimal action, floats within
    :data:`~mdp.engine.policy.FLOAT_TIE` of the best tied).

    In floats without a tie-break, the round states of a round are followed many at a time,
    each carrying the chance of every total so far (:func:`follow`): points in whole
    numbers. In exact numbers, with a tie-break, where points are not whole, or where the
    totals would not fit in ``max_memory`` (or, the round states few, take more than
    :data:`ONE_BY_ONE_BYTES` a round state), each round state is followed on its own (at most
    :data:`MOST_ROUND_STATES` of them).
    :func:`check_chances` refuses, with ``max_memory``, what cannot be followed."""
    model = solution.model
    if check_chances(model, exact=solution.exact, tie_break=tie_break, max_memory=max_memory):
        return one_by_one(solution, tie_break)
    try:
        low, chances = follow(solution, progress)
    except NotWhole as error:
        if model.n_round_states > MOST_ROUND_STATES:
            raise TooLarge(f"game {model.info.game}: {error}: the chance of every total is "
                           "followed a round at a time for whole points of 64 bits only, and "
                           f"each round state on its own for at most {MOST_ROUND_STATES:,} round "
                           f"states, not {model.n_round_states:,}; mdp simulate estimates it") from None
        return one_by_one(solution)
    reached = np.flatnonzero(chances > 0)
    return pl.DataFrame({"points": reached + low, "probability": chances[reached]})


def one_by_one(solution: PlayedRounds, tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """:func:`rounds_distribution` a round state at a time (:func:`followed`), each one's
    round solved (:meth:`mdp.RoundsSolution.at`) and its play pushed forward to the round's
    ends; exact where the solution is."""
    n_ends, played = solution.model.round.n_terminal, {}

    def play(key: int, earned: Any) -> np.ndarray:
        if key not in played:
            played[key] = reach(solution.at(key), tie_break)[:n_ends]
        return played[key]

    return followed(solution.model, solution.exact, play, "optimal play")


def followed(model: RoundsModel, exact: bool, play: Callable[[int, Any], np.ndarray],
             who: str, start: dict[Any, Any] | None = None,
             prepare: Callable[[int, list[Any]], None] | None = None) -> pl.DataFrame:
    """The chance of every final total, a round state at a time: ``play(key, earned)``
    gives the chance of each end of the round played from round state ``key`` with
    ``earned`` points so far, and each end passes on the chance of every total so far, moved
    by its points, to the round state it leads to; exact (``exact``: the chances are
    fractions) or not, totals in Python numbers (never overflowing). The game begins with 0
    points, or with each total of ``start`` with its chance; ``prepare(key, earned)``, if
    given, is told each round state's totals so far before they are played (to work them
    out at once). Columns ``points`` (``points_exact`` beside it where a total is not a
    float: :func:`_points`), ``probability`` and, exact, ``exact``; ``who`` names the play."""
    one = Fraction(1) if exact else 1.0
    now: dict[int, dict[Any, Any]] = {model.start: dict(start) if start else {0: one}}
    ended: dict[Any, Any] = defaultdict(lambda: one * 0)
    for _ in range(model.n_rounds + 1):
        after: dict[int, dict[Any, Any]] = defaultdict(lambda: defaultdict(lambda: one * 0))
        keys = np.array(sorted(now), dtype=np.int64)
        ends = model.rule(keys)
        for row, key in enumerate(keys.tolist()):
            totals = now[key]
            if ends.over[row]:  # the game is over
                for total, chance in totals.items():
                    ended[total] += chance
                continue
            if prepare is not None:
                prepare(key, list(totals))
            for total, chance in totals.items():
                chances = play(key, total)
                for end in np.flatnonzero(chances != 0).tolist():
                    nxt, points = int(ends.next[row, end]), exact_points(ends.points[row, end])
                    if nxt < 0:
                        raise ModelError(f"game {model.info.game}: from round state {key}, {who} "
                                         "comes to an end that mdp_round_rule does not allow there")
                    after[nxt][total + points] += chance * chances[end]
        now = after
    if now:  # round states still playing past the last round: cannot be, see compile_rounds
        raise ModelError(f"game {model.info.game}: games still playing after its last round")
    merged: dict[Any, Any] = defaultdict(lambda: one * 0)  # sums of float points: one rule
    for total, chance in zip(snapped(ended, total_scale(model)), ended.values()):
        merged[total] += chance
    ended, final = merged, sorted(merged)
    frame = pl.DataFrame({**_points(final), "probability": [float(ended[t]) for t in final]})
    if exact:
        frame = frame.with_columns(exact=pl.Series([f"{ended[t].numerator}/{ended[t].denominator}"
                                                    for t in final], dtype=pl.String))
    return frame


def _points(totals: list[Any]) -> dict[str, pl.Series]:
    """Totals as columns: ``points``, whole numbers as Int64 where they all fit, else floats;
    and where a float is not the total itself (a fraction, an int past 2**53),
    ``points_exact`` beside it (``"p/q"``, or the int): never a total other than the one
    earned without saying which it is."""
    if all(t == int(t) and -2**63 <= int(t) < 2**63 for t in totals):
        return {"points": pl.Series("points", [int(t) for t in totals], dtype=pl.Int64)}
    floats = [shown_float(t) for t in totals]
    columns = {"points": pl.Series("points", floats, dtype=pl.Float64)}
    if any(not math.isfinite(f) or Fraction(f) != t for f, t in zip(floats, totals)):
        columns["points_exact"] = pl.Series("points_exact", [str(t) for t in totals], dtype=pl.String)
    return columns
