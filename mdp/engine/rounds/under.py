"""Payoffs of the points still needed evaluated under the play that is best for another
(:func:`evaluate_under`): the companions of a sweep of every total.

A sweep toward a payoff (:func:`~mdp.engine.rounds.reach.solve_reach`) chooses, at every
round state and points still needed ``n``, the best action of every state of the round, and
its vectors hold what that play is worth. Another payoff of ``n`` (a companion, of the same
steps: the same ``first`` and as many values) is worth something else under that same play:
each round state's companion vector is found backward round by round as the main one was,
each column (round state, points needed) the round played as the main sweep chooses there
(:meth:`~mdp.engine.rounds.reach.Reach.chosen`, the first best action, as the main values
describe) and its ends worth the companion's vectors of the round after. Past a round
state's least and most total more, every play ends on one side of the steps, and the
companion is its first or last value there too: its vectors are as wide as the main's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from mdp.engine.arithmetic import Floats
from mdp.engine.budget import size
from mdp.engine.distinct import distinct_rows
from mdp.engine.followed import best_followed
from mdp.engine.rounds.choose import following
from mdp.engine.rounds.kinds import WORK, each_batch
from mdp.engine.rounds.model import Rounds
from mdp.engine.rounds.payoff import Payoff
from mdp.engine.rounds.reach import Reach, _Vectors, _widths
from mdp.engine.rounds.values import exact_start
from mdp.engine.rounds.window import whole_points
from mdp.engine.rounds.worth import Ends, Laid
from mdp.engine.sweep import backward
from mdp.errors import ParamError, TooLarge
from mdp.limits import default_max_memory


def evaluate_under(main: Reach, payoffs: Sequence[Payoff],
                   progress: Callable[[str], None] | None = None) -> tuple[Reach, ...]:
    """Each of ``payoffs`` evaluated under the play that ``main`` (solved with every
    round's vectors) makes best for its own payoff, in its numbers (exact or floats): a
    :class:`Reach` each that answers from the start alone, as one solved with ``start_only``
    (:meth:`~Reach.chance`, :meth:`~Reach.curve`), and toward the one total of ``main``'s
    window where it was solved toward one. Each payoff has the steps of ``main``'s (its
    ``first`` and as many values); each round's companion vectors are let go once the round
    before has read them."""
    began = time.perf_counter()
    if main.start_only:
        raise ParamError("payoffs are evaluated under the play of a Reach that holds every "
                         "round's vectors: solve it without start_only")
    for payoff in payoffs:
        if (payoff.first, payoff.last) != (main.payoff.first, main.payoff.last):
            raise ParamError(f"a payoff evaluated under another's play has its steps: from "
                             f"{main.payoff.first} to {main.payoff.last} points still needed, "
                             f"not {payoff.first} to {payoff.last}")
    model = main.model
    count = len(model.keys)
    chances: list[list[np.ndarray]] = [[np.zeros(0)] * count for _ in payoffs]
    for r in range(model.n_rounds, -1, -1):
        if progress:
            progress(f"valuing round {r + 1} of {model.n_rounds + 1} as played toward "
                     f"{main.payoff.what}: {len(model.keys[r]):,} round states")
        ours = None if r == model.n_rounds else _Vectors.of_round(main, r + 1)
        later = [] if r == model.n_rounds else [
            _Vectors(model.keys[r + 1], main.low[r + 1], main.high[r + 1], main.below[r + 1],
                     main.offsets[r + 1], vectors[r + 1], main.exact, payoff)
            for payoff, vectors in zip(payoffs, chances)]
        # In floats, the ends read from the next round's vectors laid out once, the main's
        # and each companion's, as the sweep reads them.
        laid = [] if r == model.n_rounds or main.exact or model.round.turns is not None else [
            Laid(main.below[r + 1], main.offsets[r + 1], vectors, payoff) for payoff, vectors in
            [(main.payoff, main.chances[r + 1]), *((p, v[r + 1]) for p, v in zip(payoffs, chances))]]
        wide = max(1, int(np.diff(main.offsets[r]).max(initial=0)))
        parts = each_batch(model.keys[r], max(model.round.n_terminal, wide), main.exact,
                           lambda keys: _batch(main, payoffs, ours, later, laid, keys, r))
        for j, vectors in enumerate(chances):
            vectors[r] = np.concatenate([part[j] for part in parts]) if parts else np.zeros(0)
            if r < model.n_rounds:
                vectors[r + 1] = np.zeros(0)
    seconds = time.perf_counter() - began
    return tuple(Reach(model, main.low, main.high, main.offsets, tuple(vectors), main.exact,
                       seconds, payoff, True, main.window, main.below)
                 for payoff, vectors in zip(payoffs, chances))


def _batch(main: Reach, payoffs: Sequence[Payoff], ours: _Vectors | None, later: list[_Vectors],
           laid: list[Laid], keys: np.ndarray, r: int) -> list[np.ndarray]:
    """The companion vectors of some round states of round ``r`` (``keys``, in order), one
    array per payoff: their columns as the main's, a game over the payoff of the need. In
    floats, columns whose ends are worth the same, bit for bit, to the main payoff and to
    every companion are played alike and worked once: where ``laid`` (the next round's
    vectors, the main's then each companion's), the main's best play found and each
    companion followed under it in one pass (:func:`~mdp.engine.followed.best_followed`)."""
    model, exact, inner = main.model, main.exact, main.model.round
    k = int(np.searchsorted(model.keys[r], keys[0]))
    widths = np.diff(main.offsets[r][k:k + len(keys) + 1])
    state = np.repeat(np.arange(len(keys)), widths)
    starts = np.cumsum(widths) - widths
    need = main.below[r][k:k + len(keys)][state] + 1 + np.arange(len(state)) - starts[state]
    found = [payoff.of(need, exact).astype(object if exact else np.float64) for payoff in payoffs]
    ends = model.rule(keys)
    columns = np.flatnonzero(~ends.over[state])
    if not len(columns) or not payoffs:
        return found
    step = max(1, WORK // max(inner.n_states, inner.n_terminal))
    read = max(step, WORK // (inner.n_terminal * (len(later) + 1)))  # ends read at a time
    if laid:
        playing = np.flatnonzero(~ends.over)
        row = np.zeros(len(keys), dtype=np.int64)
        row[playing] = np.arange(len(playing))
        rows = ends.rows(playing)
        allowed, after = later[0].after(rows)
        reads = [Ends(table, allowed, after, whole_points(model, rows, keys[playing], main.payoff))
                 for table in laid]
    for c0 in range(0, len(columns), read):
        c = columns[c0:c0 + read]
        if laid:
            s, n = row[state[c]], need[c]
            mine = reads[0].worth(s, n)
            # An end not allowed is never reached under the main play: worth nothing to a
            # companion (no infinity times 0).
            worth = [np.where(allowed[s], ends_of.worth(s, n), 0) for ends_of in reads[1:]]
            first, inverse = distinct_rows(np.concatenate([mine, *worth], axis=1))
            values = np.empty((len(first), len(payoffs)), dtype=np.float64)
            for d0 in range(0, len(first), step):
                d = first[d0:d0 + step]
                values[d0:d0 + len(d)] = best_followed(inner, mine[d].T, [w[d].T for w in worth]).T
        else:
            first, inverse, values = _by_choices(main, payoffs, ours, later, keys, state[c], need[c],
                                                 ends, step)
        for j, payoff in enumerate(payoffs):
            part = values[inverse, j]
            if not exact:  # in floats, a few bits past the payoff's values: held within them
                part = np.clip(part, min(map(float, payoff.values)), max(map(float, payoff.values)))
            found[j][c] = part
    return found


def _by_choices(main: Reach, payoffs: Sequence[Payoff], ours: _Vectors | None,
                later: list[_Vectors], keys: np.ndarray, s: np.ndarray, n: np.ndarray,
                ends: Any, step: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The companions' values of some columns (round states ``s`` of ``keys``, whose ends
    are ``ends``; ``n`` points still needed), exactly or in a round model of turns: each
    column's choices found (:meth:`~mdp.engine.rounds.reach.Reach.chosen`), then each
    companion followed under them. In floats, columns of the same worths to the main payoff
    are played alike: each such play found once, from its first column (``unlike``;
    ``plays``, which each column's is), and columns of the same worths to every payoff too
    worked once (``first``; ``inverse``, which each column's is, returned with the values)."""
    model, inner, exact = main.model, main.model.round, main.exact
    rows = ends.rows(s)
    allowed, after = later[0].after(rows)
    points = whole_points(model, rows, keys[s], main.payoff)
    # An end not allowed is never reached under the main play: worth nothing to a
    # companion (no infinity times 0).
    worth = [np.where(allowed, vectors.of(after.ravel(), (n[:, None] - points).ravel())
                      .reshape(len(s), -1), 0) for vectors in later]
    unlike = plays = first = inverse = np.arange(len(s))
    if not exact:
        assert ours is not None, "a round state plays on: the main sweep had a round after"
        mine = np.where(allowed, ours.of(after.ravel(), (n[:, None] - points).ravel())
                        .reshape(len(s), -1), -np.inf)
        unlike, plays = distinct_rows(mine)
        first, inverse = distinct_rows(np.concatenate([mine, *worth], axis=1))
    choices = np.zeros((inner.n_states, len(unlike)), dtype=np.int16)
    wanted = np.unique(plays[first])
    for d0 in range(0, len(wanted), step):
        d = unlike[wanted[d0:d0 + step]]
        choices[:, wanted[d0:d0 + step]] = main.chosen(keys[s[d]], n[d], rows.rows(d), exact=exact)
    values = np.empty((len(first), len(payoffs)), dtype=object if exact else np.float64)
    for d0 in range(0, len(first), step):
        d = first[d0:d0 + step]
        # Each payoff's columns side by side, played alike.
        played = _played(inner, np.concatenate([w[d].T for w in worth], axis=1),
                         np.hstack([choices[:, plays[d]]] * len(payoffs)), exact)
        values[d0:d0 + len(d)] = played.reshape(len(payoffs), len(d)).T
    return first, inverse, values


def _played(inner: Any, worth: np.ndarray, choice: np.ndarray, exact: bool) -> np.ndarray:
    """The value at the start of the round of each column of terminal values ``worth``, the
    round played as ``choice`` says: exactly, or in a round model of turns."""
    if exact:
        return exact_start(inner, np.ascontiguousarray(worth, dtype=object), following(choice))
    floats = Floats(inner, np.ascontiguousarray(worth, dtype=np.float64))
    raw = floats.start()
    backward(inner, floats, following(choice, inner, raw), raw)
    return raw[inner.initial].copy()


def check_under(model: Rounds, payoff: Payoff, companions: int, what: str,
                max_memory: int | None | Literal["default"] = "default",
                one_total: bool = False) -> None:
    """Refuse (:class:`mdp.TooLarge`), before any work, a sweep toward ``payoff`` (toward
    ``one_total`` from the start) with ``companions`` payoffs evaluated under its play
    (:func:`evaluate_under`, floats) that could take more than ``max_memory`` bytes: every
    round's main vectors, and two rounds' of each companion's (``what`` names the work)."""
    columns = [len(keys) * w for keys, w in zip(model.keys, _widths(model, payoff, one_total))]
    two = max(map(sum, zip(columns, [*columns[1:], 0])), default=0)
    need = 8 * (sum(columns) + companions * two)
    if max_memory == "default":
        max_memory = default_max_memory()
    if max_memory is not None and need > max_memory:
        raise TooLarge(f"game {model.info.game}: {what} may take up to {size(need)} for its "
                       f"vectors over the totals, past the budget of {size(max_memory)}; raise "
                       "it with --max-memory (max_memory= in Python)")
