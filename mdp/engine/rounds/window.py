"""The points still needed that each round state can be asked for, from the start toward one
total (:func:`needs_window`): a round state reached having earned between ``least`` and
``most`` points is only ever asked for ``total - most`` to ``total - least`` more, so the
sweep toward one total (:func:`~mdp.engine.rounds.reach.solve_reach` with ``total``) solves
only those of its vector. Each end of a round state leads to one whose range holds its own
less the end's points, so the ranges hold every need the rounds after read."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mdp.engine.rounds.kinds import RoundsModel, batches
from mdp.engine.rounds.payoff import Payoff
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.rounds.totals import positions, whole
from mdp.errors import ModelError, NotWhole

NONE = 1 << 62
"""The least points before a round state that no play reaches (its window is empty); the
most, less it."""


def needs_window(model: RoundsModel, total: int,
                 points: Callable[[RoundEnds, np.ndarray], np.ndarray]
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per round, each round state's least and most points still needed toward ``total``
    from the start (1 and 0 where no play reaches it), from :func:`earned`."""
    total = _held(model, total)
    return [(np.where(a <= m, total - m, 1), np.where(a <= m, total - a, 0))
            for a, m in earned(model, points)[0]]


def widths_toward(model: RoundsModel, payoff: Payoff, total: int) -> list[int]:
    """Per round, the most points still needed that a round state's vector toward ``total``
    from the start holds (:func:`needs_window`, then held past the payoff's steps as
    :func:`~mdp.engine.rounds.reach.solve_reach` holds them), bounded before any work from
    each round's least and most points: no more than ``total`` less the least earned before
    and after it (less the payoff's first step), nor than the most earned before and after
    it less ``total`` (plus its last). Far from both, as wide as the spread it can reach."""
    spans = [(math.floor(a), math.ceil(m)) for a, m in model.points()]
    total, widths = _held(model, total), []
    for r in range(len(model.keys)):
        before, after = spans[:r], spans[r:]
        least = sum(a for a, _ in before) + sum(min(a, 0) for a, _ in after)
        most = sum(m for _, m in before) + sum(max(m, 0) for _, m in after)
        widths.append(max(0, min(total - least - payoff.first, most + payoff.last - total)))
    return widths


def widths_exactly(model: RoundsModel, payoff: Payoff, total: int) -> list[np.ndarray]:
    """Per round, each round state's vector's width toward ``total`` from the start, as the
    sweep makes it: its :func:`needs_window` within the least and most it can still earn (a
    backward pass over the rounds, of those alone). Two passes over the rounds: for the
    check before the work where the bound of :func:`widths_toward` is past the budget."""
    def points(ends: RoundEnds, keys: np.ndarray) -> np.ndarray:
        return whole_points(model, ends, keys, payoff)

    window = needs_window(model, total, points)
    low = [np.zeros(0, dtype=np.int64)] * len(model.keys)
    high = list(low)
    for r in range(model.n_rounds, -1, -1):
        lows, highs = [], []
        place = positions(model.keys[r + 1]) if r < model.n_rounds else None
        for part in batches(model.keys[r], model.round.n_terminal):
            ends = model.rule(part)
            least, most = np.zeros(len(part), dtype=np.int64), np.zeros(len(part), dtype=np.int64)
            playing = np.flatnonzero(~ends.over)
            if len(playing) and place is not None:
                ends = ends.rows(playing)
                gained = points(ends, part[playing])
                allowed = ends.next >= 0
                after = place(np.where(allowed, ends.next, model.keys[r + 1][0]))
                least[playing] = np.where(allowed, gained + low[r + 1][after], NONE).min(axis=1)
                most[playing] = np.where(allowed, gained + high[r + 1][after], -NONE).max(axis=1)
            lows.append(least)
            highs.append(most)
        low[r], high[r] = np.concatenate(lows), np.concatenate(highs)
    return [np.maximum(np.minimum(h + payoff.last, w[1] + 1) - np.maximum(a + payoff.first, w[0] - 1) - 1, 0)
            for a, h, w in zip(low, high, window)]


def _held(model: RoundsModel, total: int) -> int:
    """``total`` held within one past the totals the points can reach: beyond, every total
    is the same."""
    spans = model.points()
    return min(max(int(total), sum(math.floor(a) for a, _ in spans) - 1),
               sum(math.ceil(m) for _, m in spans) + 1)


def earned(model: RoundsModel, points: Callable[[RoundEnds, np.ndarray], np.ndarray]
           ) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[int, int]]:
    """Per round, each round state's least and most points earned before it from the start
    (:data:`NONE` and ``-NONE`` where no play reaches it), and the least and most total a
    game ends with: a forward pass over the rounds, over the ends that lead to each round
    state. ``points`` gives the ends' whole points (int64, 0 where not allowed)."""
    least = [np.array([0], dtype=np.int64)]
    most = [np.array([0], dtype=np.int64)]
    ending = [NONE, -NONE]
    for r in range(model.n_rounds):
        keys, later = model.keys[r], model.keys[r + 1]
        place = positions(later)
        low = np.full(len(later), NONE, dtype=np.int64)
        high = np.full(len(later), -NONE, dtype=np.int64)
        start = 0
        for part in batches(keys, model.round.n_terminal):
            rows = slice(start, start + len(part))
            start += len(part)
            reached = np.flatnonzero(least[r][rows] <= most[r][rows])
            if not len(reached):
                continue
            ends = model.rule(part[reached])
            fewest, most_so_far = least[r][rows][reached], most[r][rows][reached]
            _ending(ending, fewest[ends.over], most_so_far[ends.over])
            allowed = ends.next >= 0
            gained = points(ends, part[reached])
            after = place(ends.next[allowed])  # (a row's ends after another's, as np.nonzero)
            np.minimum.at(low, after, (fewest[:, None] + gained)[allowed])
            np.maximum.at(high, after, (most_so_far[:, None] + gained)[allowed])
        least.append(low)
        most.append(high)
    _ending(ending, least[-1], most[-1])  # the last round's round states end the game
    return list(zip(least, most)), (ending[0], ending[1])


def _ending(ending: list[int], least: np.ndarray, most: np.ndarray) -> None:
    """The least and most totals of games that end at round states reached having earned
    ``least`` to ``most``, taken into ``ending``."""
    reached = least <= most
    if reached.any():
        ending[0] = min(ending[0], int(least[reached].min()))
        ending[1] = max(ending[1], int(most[reached].max()))


def whole_points(model: RoundsModel, ends: RoundEnds, keys: np.ndarray, payoff: Payoff) -> np.ndarray:
    """The points of the ends allowed as whole numbers (int64; 0 where not allowed), or
    refused in one line, saying what ``payoff`` answers."""
    try:
        return _whole(ends, keys)
    except NotWhole as error:
        whose = model.rule.whose(keys, lambda ends: _whole(ends, keys) is None)  # raises if not
        raise ModelError(f"game {model.info.game}: {whose}mdp_round_rule gave {error}; "
                         f"{payoff.what} is for whole points (less than 2**49 in size)") from None


def _whole(ends: RoundEnds, keys: np.ndarray) -> np.ndarray:
    """The points of the ends allowed as int64 (0 where not allowed); NotWhole if not whole."""
    allowed = ends.next >= 0
    given = np.asarray(ends.points)
    if given.dtype.kind in "biu":  # whole already: no check, no copy of the ends allowed
        return np.where(allowed, given, 0).astype(np.int64, copy=False)
    points = np.zeros(ends.next.shape, dtype=np.int64)
    points[allowed] = whole(given[allowed],
                            np.broadcast_to(keys[:, None], allowed.shape)[allowed])
    return points
