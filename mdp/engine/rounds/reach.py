"""The best chance of finishing a game of rounds with at least a total of points, for every
total at once (:func:`solve_reach`), and more generally the best worth of any payoff that is a
step function of the points still needed at the end (:class:`~mdp.engine.rounds.payoff.Payoff`).

The play that maximises the chance of at least ``T`` points differs from the play of the best
mean, and differs for every ``T``. Each round state ``s`` carries a vector over the points
still needed, ``n``: ``V(s, n)``, the best expected payoff with ``n`` more points still needed.
The game over, ``V(s, n)`` is the payoff of ``n`` (:mod:`~mdp.engine.rounds.payoff`): for
the chance of at least a total, 1 for ``n <= 0`` and 0 for more; for the winnings of a player
who knows the total to beat, 1 past it, 0 at it and -1 short of it, played best jointly. An
end of a round that earns ``p`` points and leads to round state ``s'`` is worth
``V(s', n - p)``. The game is solved backward by rounds exactly as for its mean
(:mod:`~mdp.engine.rounds.backward`), with more columns: each pair (round state, points
needed) is a column of terminal values of the one round model, played best for itself.

The vectors are bounded: from a round state, the least total more that any play earns
(:attr:`Reach.low`) and the most (:attr:`Reach.high`), each found from those of the round
after, over the ends the round state allows (the points plus the next round state's bound).
Past them the end's points still needed are surely on one side of the payoff's steps, and
``V`` is its first or last value: only the totals between are columns.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

import attrs
import numpy as np

from mdp.checks import INTEGER, arguments
from mdp.engine.arithmetic import Exact, Floats
from mdp.engine.budget import size
from mdp.engine.columns import best_columns
from mdp.engine.memory import joined
from mdp.engine.numeric import counted
from mdp.engine.rounds.choose import allowed_actions, best_choices, choosing, exact_columns
from mdp.engine.rounds.digits import check_digits, every_end_reached, may_come_to_zero
from mdp.engine.rounds.kinds import WORK, each_batch
from mdp.engine.rounds.model import Rounds
from mdp.engine.rounds.payoff import AT_LEAST, Payoff
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.rounds.totals import positions
from mdp.engine.rounds.values import check_exact, exact_start
from mdp.engine.rounds.window import needs_window, whole_points, widths_exactly, widths_toward
from mdp.engine.rounds.worth import Ends, Laid
from mdp.engine.solution import Solution
from mdp.engine.sweep import backward, best
from mdp.errors import ModelError, ParamError, TooLarge
from mdp.limits import default_max_memory

MOST_EXACT_COLUMNS = 200_000
"""The most columns (round states times totals) solved in exact numbers."""


@attrs.frozen(eq=False)
class Reach:
    """The best chance of at least every total more of points, from every round state of a
    game of rounds (:func:`mdp.at_least` makes it), or the best worth of another
    :attr:`payoff` of the points still needed. Round by round, in the order of
    :attr:`mdp.Rounds.keys`: each round state's :attr:`low` and :attr:`high`, and its vector
    of chances for the totals needed from ``low + payoff.first + 1`` to ``high + payoff.last
    - 1`` (within its :attr:`window` if any) in :attr:`chances`, from :attr:`offsets`."""

    model: Rounds
    low: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The least total more that a game from each round state can earn: the chance of at
    least that many is 1."""
    high: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The most total more that a game from each round state can earn (a bound): the chance
    of more is 0."""
    offsets: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """Where each round state's vector begins in :attr:`chances`, and the end."""
    chances: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The vectors, one after another: float64, or exact fractions in an object array."""
    exact: bool = False
    seconds: float = attrs.field(default=0.0, repr=False)
    payoff: Payoff = AT_LEAST
    """What the end is worth by the points still needed then."""
    start_only: bool = False
    """Only the start's vector is held: :meth:`chance` and :meth:`curve` from the start alone."""
    window: tuple[tuple[np.ndarray, np.ndarray], ...] | None = attrs.field(default=None, repr=False)
    """Solved toward one total: each round state's least and most points still needed that its
    vector holds (:func:`~mdp.engine.rounds.window.needs_window`); else None."""
    below: tuple[np.ndarray, ...] = attrs.field(default=(), repr=False)
    """The need right before each round state's vector: ``low + payoff.first``, or more."""

    @property
    def most(self) -> int:
        """The most points a game can earn from the start (a bound; past it, the chance is 0)."""
        return int(self.high[0][0])

    def chance(self, total: int, key: int | None = None) -> float | Fraction:
        """The best chance of earning at least ``total`` more points from round state ``key``
        (the start, if ``None``), exact where it was solved so; for another :attr:`payoff`,
        its best expected worth with ``total`` points still needed."""
        arguments("Reach.chance", total=(total, INTEGER), key=(key, self.model.round_state()))
        r, at = self._place(key)
        need = self.clip(r, at, int(total))
        found = _Vectors.of_round(self, r).of(np.array([at]), np.array([need]))[0]
        return found if self.exact else float(found)

    def clip(self, r: int, at: int, need: int) -> int:
        """``need`` held where the round state at position ``at`` of round ``r`` has its
        vector, and one step past it either side: beyond, every play is worth the same. Out
        of the :attr:`window` of a reach toward one total, refused in one line."""
        self.within(r, np.array([at]), np.array([need]))
        return min(max(need, int(self.low[r][at]) + self.payoff.first),
                   int(self.high[r][at]) + self.payoff.last)

    def bounds(self, key: int | None = None) -> tuple[int, int]:
        """The least total more that a game from round state ``key`` (the start, if
        ``None``) surely earns, and the most it can (a bound)."""
        arguments("Reach.bounds", key=(key, self.model.round_state()))
        r, at = self._place(key)
        return int(self.low[r][at]), int(self.high[r][at])

    def chosen(self, keys: np.ndarray, needs: np.ndarray, ends: RoundEnds,
               exact: bool = False) -> np.ndarray:
        """How the round is played from round states ``keys`` (all of one round but the
        last; ``ends``, theirs) toward ``needs`` more points each: the place among its
        state's actions of the action each state takes, one row per state and one column per
        round state, as :meth:`mdp.RoundsSolution.chosen` gives them (in floats; with
        ``exact``, of a reach solved exactly, the first action exactly best)."""
        inner = self.model.round
        choice = np.zeros((inner.n_states, len(keys)), dtype=np.int16)
        playing = np.flatnonzero(~ends.over)  # the others end the game: the first actions
        if not len(playing):
            return choice
        keys, needs, ends = keys[playing], needs[playing], ends.rows(playing)
        r, _ = self._place(int(keys[0]))
        self.within(r, np.searchsorted(self.model.keys[r], keys), needs)
        later = _Vectors.of_round(self, r + 1)
        allowed, after = later.after(ends)
        points = whole_points(self.model, ends, keys, self.payoff)
        worth = later.of(after.ravel(), (needs[:, None] - points).ravel()).reshape(len(keys), -1)
        if not (exact and self.exact):
            choice[:, playing] = best_choices(inner, _float_columns(worth, allowed), "max")
            return choice
        arithmetic = Exact(inner, exact_columns(inner, worth, allowed, "max"))
        played = np.zeros((inner.n_states, len(keys)), dtype=np.int16)
        backward(inner, arithmetic, choosing("max", played), arithmetic.start())
        choice[:, playing] = played
        return choice

    def needs(self, r: int, keys: np.ndarray, needs: np.ndarray) -> np.ndarray:
        """``needs`` (points still needed from round states ``keys``) held as :meth:`clip`
        holds them for each round state of round ``r`` (from 0): beyond, every play is the
        same. Round states of other rounds (games over before) keep theirs."""
        at = np.minimum(np.searchsorted(self.model.keys[r], keys), len(self.model.keys[r]) - 1)
        found = self.model.keys[r][at] == keys
        return np.where(found, np.clip(needs, self.low[r][at] + self.payoff.first,
                                       self.high[r][at] + self.payoff.last), needs)

    def curve(self, key: int | None = None) -> tuple[int, np.ndarray]:
        """The best chance of at least every total more from round state ``key`` (the start,
        if ``None``): the least total ``low`` surely reached (:meth:`bounds`), and the chance of at
        least each total from ``low + 1`` up to the most that can be earned (then 0). For
        another :attr:`payoff`, the worth with ``low + 1`` points needed and on."""
        arguments("Reach.curve", key=(key, self.model.round_state()))
        r, at = self._place(key)
        self.held(r)
        if self.window is not None:
            raise ParamError(f"this Reach was solved toward one total (total={int(self.window[0][0][0])}): "
                             "the chance of every total needs it solved without one")
        return (int(self.low[r][at]) + self.payoff.first,
                self.chances[r][self.offsets[r][at]:self.offsets[r][at + 1]])

    def at(self, key: int | None, total: int) -> Solution[Any]:
        """The round played from round state ``key`` (the start, if ``None``) toward at least
        ``total`` more points, solved: each end worth the best chance of the rest, as
        :meth:`mdp.RoundsSolution.at` for the mean. Actions that may come to an end that
        the round state does not allow are marked so (:attr:`mdp.Solution.allowed`). From a
        round state that ends the game, every end is worth what the game over is, as
        :meth:`chance` says: 1 for at least 0 more points, else 0."""
        arguments("Reach.at", key=(key, self.model.round_state()), total=(total, INTEGER))
        r, at = self._place(key)
        self.within(r, np.array([at]), np.array([int(total)]))
        key = self.model.start if key is None else int(key)
        inner = self.model.round
        ends = self.model.rule(np.array([key], dtype=np.int64))
        if ends.over[0]:  # the game is over: the round is shown played for nothing more
            worth = self.payoff.of(np.array([self.clip(r, at, int(total))]), self.exact)[0]
            over = np.full(inner.n_terminal, worth, dtype=object if self.exact else np.float64)
            nothing: Any = Exact(inner, over) if self.exact else Floats(inner, over)
            return Solution(inner, "max", backward(inner, nothing, best("max"), nothing.start()),
                            nothing)
        points = whole_points(self.model, ends, np.array([key]), self.payoff)
        later = _Vectors.of_round(self, r + 1)
        allowed, after = later.after(ends)
        worth = later.of(after[0], self.clip(r, at, int(total)) - points[0])[None, :]
        arithmetic: Any = Exact(inner, exact_columns(inner, worth, allowed, "max")[:, 0]) \
            if self.exact else Floats(inner, _float_columns(worth, allowed)[:, 0])
        raw = backward(inner, arithmetic, best("max"), arithmetic.start())
        return Solution(inner, "max", raw, arithmetic,
                        allowed=allowed_actions(inner, allowed[0]))

    def held(self, r: int) -> None:
        """Refuse, in one line, to read round ``r``'s vectors where they were let go."""
        if self.start_only and r > 0:
            raise ParamError("this Reach holds the start's chances only (solved with "
                             "start_only=True): the chances from other round states and the play "
                             "of a round need every round's; solve again without start_only")

    def within(self, r: int, at: np.ndarray, needs: np.ndarray) -> None:
        """Refuse, in one line, needs from the round states at positions ``at`` of round ``r``
        past the :attr:`window` they were solved for (where the payoff's sides do not answer)."""
        if self.window is None:
            return
        least, most = self.window[r][0][at], self.window[r][1][at]
        out = np.flatnonzero(((needs < least) | (needs > most))
                             & (needs > self.low[r][at] + self.payoff.first)
                             & (needs < self.high[r][at] + self.payoff.last))
        for i in out[:1]:
            raise ParamError(f"this Reach was solved toward one total from the start: from round "
                             f"state {int(self.model.keys[r][at[i]])} it holds {int(least[i])} to "
                             f"{int(most[i])} points still needed, not {int(needs[i])}; solve "
                             "again without total for every total")

    def _place(self, key: int | None) -> tuple[int, int]:
        """The round of round state ``key`` (checked) and its position there."""
        if key is None:
            return 0, 0
        r = self.model.round_of(int(key))
        return r, int(np.searchsorted(self.model.keys[r], int(key)))


class _Vectors:
    """The vectors of one round's states (their sorted ``keys``; each one's least and most
    total more, where its vector begins in ``chances``), looked up by position and points
    still needed, toward ``payoff``."""

    def __init__(self, keys: np.ndarray, low: np.ndarray, high: np.ndarray, below: np.ndarray,
                 offsets: np.ndarray, chances: np.ndarray, exact: bool, payoff: Payoff) -> None:
        self.place = positions(keys)
        self.low, self.high, self.offsets, self.chances = low, high, offsets, chances
        self.below, self.exact, self.payoff = below, exact, payoff

    @classmethod
    def of_round(cls, reach: Reach, r: int) -> _Vectors:
        reach.held(r)
        return cls(reach.model.keys[r], reach.low[r], reach.high[r], reach.below[r],
                   reach.offsets[r], reach.chances[r], reach.exact, reach.payoff)

    def after(self, ends: RoundEnds) -> tuple[np.ndarray, np.ndarray]:
        """Whether each end is allowed, and the position of the round state it leads to (0
        where it is not allowed)."""
        allowed = ends.next >= 0
        return allowed, np.where(allowed, self.place(np.where(allowed, ends.next, ends.next.max())), 0)

    def of(self, at: np.ndarray, need: np.ndarray) -> np.ndarray:
        """The best worth with ``need[i]`` points still needed from the round state at
        position ``at[i]``: the payoff's first value up to its least total more, its last
        from its most on, its vector between (a need cut off by a window is never asked)."""
        below = self.below[at]
        inside = (need > below) & (need < below + self.offsets[at + 1] - self.offsets[at] + 1)
        where = np.where(inside, self.offsets[at] + need - below - 1, 0)
        found = self.chances[where] if len(self.chances) else np.zeros(len(at))
        side = np.where(need <= self.low[at] + self.payoff.first, self.payoff.first, self.payoff.last)
        return np.where(inside, found, self.payoff.of(side, self.exact))


def solve_reach(model: Rounds, *, exact: bool = False,
                progress: Callable[[str], None] | None = None,
                max_memory: int | None | Literal["default"] = "default",
                payoff: Payoff = AT_LEAST, start_only: bool = False,
                total: int | None = None) -> Reach:
    """The best chance of at least every total from every round state of ``model`` (or the
    best worth of ``payoff``): see :mod:`mdp.engine.rounds.reach`. With ``start_only``, each
    round's vectors are let go once the round before is solved, two rounds held at a time,
    and the :class:`Reach` answers from the start alone. With ``total``, each round state's
    vector holds only the points still needed that the start's ``total`` can leave it
    (:mod:`~mdp.engine.rounds.window`): the same chance of ``total``, bit for bit, for less.
    :func:`check_reach` refuses first what cannot be held."""
    began = time.perf_counter()
    if exact:
        check_exact(model)
    check_reach(model, exact=exact, max_memory=max_memory, payoff=payoff, start_only=start_only,
                total=total)
    window = None if total is None else \
        needs_window(model, total, lambda ends, keys: whole_points(model, ends, keys, payoff))
    wide, count = _widths(model, payoff, total=total), len(model.keys)
    zeros = not exact and payoff == AT_LEAST and may_come_to_zero(model) and every_end_reached(model)
    low: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * count
    high, below, chances, offsets = list(low), list(low), [np.zeros(0)] * count, [np.zeros(1)] * count
    inner = model.round
    for r in range(model.n_rounds, -1, -1):
        if progress:
            progress(f"solving round {r + 1} of {model.n_rounds + 1} toward every total: "
                     f"{len(model.keys[r]):,} round states")
        later, laid = None, None
        if r < model.n_rounds:  # in floats, the ends read from the next vectors laid out once
            laid = None if exact else Laid(below[r + 1], offsets[r + 1], chances[r + 1], payoff)
            if start_only and laid is not None:
                chances[r + 1] = np.zeros(0)
            later = _Vectors(model.keys[r + 1], low[r + 1], high[r + 1], below[r + 1],
                             offsets[r + 1], chances[r + 1], exact, payoff)
        needs = None if window is None else window[r]
        # A round state's columns, as many as its totals, cost as its ends do.
        pieces = each_batch(model.keys[r], max(inner.n_terminal, wide[r]), exact,
                            lambda keys: _solve_batch(model, keys, later, laid, exact, payoff,
                                                      needs, r))
        lows, highs, belows, widths, parts = (list(p) for p in zip(*pieces))
        pieces.clear()  # each batch's vectors let go as joined
        low[r], high[r], chances[r] = np.concatenate(lows), np.concatenate(highs), joined(parts)
        below[r] = np.concatenate(belows)
        offsets[r] = np.concatenate([[0], np.cumsum(np.concatenate(widths))]).astype(np.int64)
        if not exact:
            check_digits(model, r, chances[r], offsets[r], zeros)
        if start_only and r < model.n_rounds:
            chances[r + 1] = np.zeros(0)
    return Reach(model, tuple(low), tuple(high), tuple(offsets), tuple(chances), exact,
                 time.perf_counter() - began, payoff, start_only,
                 None if window is None else tuple(window), tuple(below))


def _solve_batch(model: Rounds, keys: np.ndarray, later: _Vectors | None, laid: Laid | None,
                 exact: bool, payoff: Payoff, needs: tuple[np.ndarray, np.ndarray] | None,
                 r: int) -> tuple[np.ndarray, ...]:
    """The least and most totals more of some round states of round ``r``, the need right
    before each one's vector, its width, and the vectors (only the ``needs`` of the round's
    window, if given): a round state that ends the game, the payoff's between its steps."""
    ends = model.rule(keys)
    over = ends.over  # of every round state of the batch (ends is cut to those playing)
    kind: Any = object if exact else np.float64
    low = np.zeros(len(keys), dtype=np.int64)
    high = np.zeros(len(keys), dtype=np.int64)
    playing = np.flatnonzero(~over)
    if len(playing):
        if later is None:
            raise ModelError(f"game {model.info.game}: round state {int(keys[playing[0]])} "
                             "allows an end of the round, but no round state follows it")
        ends = ends.rows(playing)
        points = whole_points(model, ends, keys[playing], payoff)
        allowed, after = later.after(ends)
        low[playing] = np.where(allowed, points + later.low[after],
                                np.iinfo(np.int64).max).min(axis=1)
        high[playing] = np.where(allowed, points + later.high[after],
                                 np.iinfo(np.int64).min).max(axis=1)
    below, above = low + payoff.first, high + payoff.last
    if needs is not None:
        at = slice(k := int(np.searchsorted(model.keys[r], keys[0])), k + len(keys))
        below, above = np.maximum(below, needs[0][at] - 1), np.minimum(above, needs[1][at] + 1)
    widths = np.maximum(above - below - 1, 0)
    # Every column: (round state, points needed), from below + 1 to above - 1.
    state = np.repeat(np.arange(len(keys)), widths)
    need = np.repeat(below + 1 - np.cumsum(widths) + widths, widths) + np.arange(len(state))
    chances = payoff.of(need, exact).astype(kind)  # a game over (its low is 0): the payoff
    columns = np.flatnonzero(~over[state])
    if not len(columns):
        return low, high, below, widths, chances
    assert later is not None, "a round state plays on: refused above without a round after"
    row = np.zeros(len(keys), dtype=np.int64)
    row[playing] = np.arange(len(playing))
    inner = model.round
    step = max(1, WORK // max(inner.n_states, inner.n_terminal))
    bottom, top = min(map(float, payoff.values)), max(map(float, payoff.values))
    read = None if laid is None else Ends(laid, allowed, after, points)
    if read is not None:
        # Columns alike (the same worth of every end) are worked once, found among those
        # worked together: side by side, the round states allowing the same ends, each
        # state's columns together; as many as WORK numbers of ends at a time.
        columns = columns[np.argsort(read.group[row[state[columns]]], kind="stable")]
        step = max(step, WORK // max(inner.n_terminal, 1))
    for c0 in range(0, len(columns), step):
        c = columns[c0:c0 + step]
        s, n = row[state[c]], need[c]
        if read is None:
            worth = later.of(after[s].ravel(), (n[:, None] - points[s]).ravel()).reshape(len(s), -1)
            values = best_columns(inner, _float_columns(worth, allowed[s]))
        else:
            values = read.best(inner, s, n)
        bad = np.flatnonzero(~np.isfinite(values))
        if len(bad):
            raise ModelError(f"game {model.info.game}: from round state "
                             f"{int(keys[playing[s[bad[0]]]])}, a round can come to an end that "
                             "mdp_round_rule does not allow there (next -1) whatever the player does")
        # In floats, a chance a few bits past 1 is 1 (past the payoff's most, its most).
        chances[c] = exact_start(inner, exact_columns(inner, worth, allowed[s], "max"),
                                 best("max")) if exact else np.clip(values, bottom, top)
    return low, high, below, widths, chances


def _float_columns(worth: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Worths of ends (a row per column) as the round's terminal values in floats, one column
    each: an end not allowed -inf, that no play takes."""
    return np.ascontiguousarray(np.where(allowed, worth.astype(np.float64), -np.inf).T)


def check_reach(model: Rounds, *, exact: bool = False,
                max_memory: int | None | Literal["default"] = "default",
                payoff: Payoff = AT_LEAST, start_only: bool = False,
                one_total: bool = False, total: int | None = None) -> None:
    """Refuse (:class:`mdp.TooLarge`), before any work, a game whose chances of every total
    could take more than ``max_memory`` bytes (by default the share of the memory mdp may
    use that :func:`mdp.compile` allows a model): every round's vectors, each round state's
    as wide as the spread of the points of the rounds after it, a bound (``start_only``:
    two rounds' at a time; ``one_total``: no wider than the spread of the points before it,
    plus one; toward ``total`` from the start, where it is known, no more than the totals
    it can leave, :func:`~mdp.engine.rounds.window.widths_toward`); in exact numbers, more
    than :data:`MOST_EXACT_COLUMNS` of them."""
    one_total = one_total or total is not None
    budget = default_max_memory() if max_memory == "default" else max_memory

    def bytes_of(columns: list[int]) -> int:  # (start_only: two rounds' at a time)
        return 8 * (max(map(sum, zip(columns, [*columns[1:], 0]))) if start_only else sum(columns))

    def past(columns: list[int]) -> bool:
        return sum(columns) > MOST_EXACT_COLUMNS if exact else \
            budget is not None and bytes_of(columns) > budget

    columns = [len(keys) * w for keys, w in zip(model.keys, _widths(model, payoff, one_total, total))]
    if total is not None and past(columns):  # the bound past: the widths, counted
        columns = [int(w.sum()) for w in widths_exactly(model, payoff, total)]
    if not past(columns):
        return
    game = model.info.game
    if exact:
        raise TooLarge(f"game {game}: up to {counted(sum(columns))} round states and totals to "
                       f"solve, too many in exact numbers (at most {MOST_EXACT_COLUMNS:,}); "
                       "in floats they are solved a batch at a time")
    assert budget is not None  # (past it: there is one)
    raise TooLarge(f"game {game}: the chance of at least {'a' if one_total else 'every'} total "
                   f"may take up to {size(bytes_of(columns))}, past the budget of {size(budget)}; "
                   "raise it with --max-memory (max_memory= in Python)")


def _widths(model: Rounds, payoff: Payoff, one_total: bool = False,
            total: int | None = None) -> list[int]:
    """The most totals in a vector of each round's states (the spread of the points after;
    toward one total from the start, no more than one past the spread of those before, and
    toward ``total``, where it is known, no more than :func:`widths_toward` says)."""
    spans = [math.ceil(most) - math.floor(least) for least, most in model.points()]
    wide = [sum(spans[r:]) + payoff.last - payoff.first - 1 for r in range(len(model.keys))]
    if total is None and not one_total:
        return wide
    if total is not None:
        wide = [min(w, bound) for w, bound in zip(wide, widths_toward(model, payoff, total))]
    return [min(w, sum(spans[:r]) + 1) for r, w in enumerate(wide)]
