"""Play within a round of a game of rounds: optimal play that writes down each state's choice,
play that follows choices written so, and a strategy's aims (:class:`Aims`) turned into them."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine.arithmetic import Exact, Floats
from mdp.engine.cluster import sent
from mdp.engine.columns import best_columns
from mdp.engine.model import CompiledModel
from mdp.engine.policy import tie_margin
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.sweep import Piece, backward, best
from mdp.engine.terminal import check_terminal_matrix


@attrs.frozen
class Aims:
    """A way to play a game of rounds (a strategy): how the player values the ends of a round.

    ``worth(keys, ends)`` is given some round states of one round (none that ends the game)
    and their :class:`RoundEnds`, and gives the worth the player aims at for each end: a
    matrix, one row per round state and one column per end, of numbers (``int`` and
    :class:`~fractions.Fraction` objects keep exact evaluation exact). An end not allowed
    stays not allowed, whatever its worth. Only how the worths compare matters: any positive
    multiple plays the same."""

    name: str
    worth: Callable[[np.ndarray, RoundEnds], Any] = attrs.field(repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to a cluster's workers with the strategy's function pickled once, here: one
        that cannot be (it holds a lock) is named in one line."""
        return Aims, (self.name, sent(self.worth, f"strategy {self.name}'s aims"))


def choosing(sense: str, choice: np.ndarray, floats: bool = False) -> Any:
    """Optimal play that also writes, in ``choice`` (one row per state, one column per round
    state), the place among its state's actions of each state's best action: the first of
    those that tie with the best (equal ones; in ``floats``, those within
    :func:`~mdp.engine.policy.tie_margin` of it), or the first action where every one is an
    end not allowed: no play comes there."""
    ufunc = np.maximum if sense == "max" else np.minimum

    def decide(backup: Callable[..., np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        counts = np.diff(starts, append=where.a1 - where.a0)
        most = int(counts.max())
        if most == 1:
            choice[where.states(2)] = 0
            return backup()
        # The states with the most actions first, as per_state goes through them: the
        # states that have a k-th action are the first few, and the values of their k-th
        # actions are backed up as rows of their own: in floats once for the best, then once
        # more for the ties, each while it is in the cache (kept from the first pass, the
        # values of every rank would fill memory far past it, and reading them back is slower
        # than backing them up again); exact numbers, dear to back up, are kept.
        order = np.argsort(-counts, kind="stable")
        having = np.searchsorted(-counts[order], -np.arange(most), side="left").tolist()
        first = starts[order]
        peak = backup(first)
        kept = [peak.copy()] if peak.dtype == object else None

        def kth(k: int) -> np.ndarray:
            return backup(first[:having[k]] + k) if kept is None else kept[k]

        for k in range(1, most):
            values = backup(first[:having[k]] + k)
            if kept is not None:
                kept.append(values)
            ufunc(peak[:having[k]], values, out=peak[:having[k]])
        # Each state's first action within the tie, found without a write at random places
        # (slow): most - k at the ranks k tied, 0 elsewhere, and the most of them over k.
        kind = np.uint8 if most < 256 else np.int16  # one type throughout: no casting
        first_tied = np.zeros(peak.shape, dtype=kind)
        hit = np.empty(peak.shape, dtype=bool)
        marks = np.empty(peak.shape, dtype=kind)
        with np.errstate(invalid="ignore"):  # infinite values: an end not allowed, no tie
            near = tie_margin(peak) if floats else np.zeros(peak.shape)  # exact: equal
            for k in range(most):
                n = having[k]
                gap = kth(k)  # the k-th action's value, then how far from the best
                if sense == "max":
                    np.subtract(peak[:n], gap, out=gap)
                else:
                    np.subtract(gap, peak[:n], out=gap)
                np.less_equal(gap, near[:n], out=hit[:n])
                flags = hit[:n].view(np.uint8) if kind is np.uint8 else hit[:n].astype(kind)
                np.multiply(flags, kind(most - k), out=marks[:n])
                np.maximum(first_tied[:n], marks[:n], out=first_tied[:n])
        rank = most - first_tied.astype(np.int16)
        np.putmask(rank, first_tied == 0, 0)  # none tied: the first action (no play comes there)
        choice[where.states(2)][order] = rank
        top = np.empty_like(peak)
        top[order] = peak
        return top

    return decide


def best_choices(round: CompiledModel, terminal: np.ndarray, sense: str) -> np.ndarray:
    """Optimal play's choices in floats, as :func:`choosing` writes them (one row per state),
    for each column of terminal values ``terminal`` (a row per terminal state): through the
    kernel of many columns (:func:`~mdp.engine.columns.best_columns`), or the general pass
    for a model of turns."""
    choice = np.zeros((round.n_states, terminal.shape[1]), dtype=np.int16)
    terminal = np.ascontiguousarray(terminal, dtype=np.float64)
    if round.turns is None:
        best_columns(round, terminal, sense, choice=choice)
    else:
        floats = Floats(round, terminal)
        backward(round, floats, choosing(sense, choice, floats=True), floats.start())
    return choice


def aiming(round: CompiledModel, keys: np.ndarray, ends: RoundEnds, aims: Aims, exact: bool,
           sense: str) -> np.ndarray:
    """The choices of :meth:`RoundsSolution.choices` under ``aims``, from round states that
    do not end the game: the round solved with the worths aimed at as its terminal values
    (an end not allowed, as in :func:`~mdp.engine.rounds.backward.terminals`), in exact
    numbers where ``exact``."""
    worth = aims.worth(keys, ends)
    allowed = ends.next >= 0
    if not exact:
        worst = -np.inf if sense == "max" else np.inf
        return best_choices(round, np.where(allowed, worth, worst).T, sense)
    choice = np.zeros((round.n_states, len(keys)), dtype=np.int16)
    arithmetic = Exact(round, exact_columns(round, np.array(worth, dtype=object), allowed, sense))
    backward(round, arithmetic, choosing(sense, choice), arithmetic.start())
    return choice


def exact_columns(round: CompiledModel, total: np.ndarray, allowed: np.ndarray,
                  sense: str) -> np.ndarray:
    """Exact worths of the ends (one row per round state) as terminal columns of the round,
    checked. Exact arithmetic has no infinity: an end not allowed is worth so little (so
    much, minimizing) that any play that may come to it is worse than any play that may
    not, however small its chance: below the least allowed worth by one more than the spread
    of the allowed ones over :func:`least_chance` (less one was not enough: a chance action
    that may come to it, beside a good end, came out best). Such ends, and the actions that
    may come to them, are never shown: see :attr:`mdp.Solution.allowed`."""
    least = least_chance(round)
    for row, ok in zip(total, allowed):
        if ok.any():
            low, high = min(row[ok]), max(row[ok])
            row[~ok] = low - 1 - (high - low) / least if sense == "max" else high + 1 + (high - low) / least
    return check_terminal_matrix(round, np.ascontiguousarray(total.T), True)


def least_chance(round: CompiledModel) -> Fraction:
    """A least chance with which any play may come to an end it may come to (exactly, above
    0): the least chance of an outcome to the power of the layers, each chance action of a
    play in a layer of its own."""
    least = min((Fraction(p) for p in round.probabilities if p), default=Fraction(1))
    return least ** max(round.n_layers, 1)


def following(choice: np.ndarray, model: CompiledModel | None = None,
               raw: np.ndarray | None = None) -> Any:
    """Play that takes, in each state and column, the action ``choice`` says (its place
    among the state's actions, as :func:`choosing` writes it; one column, or one row per
    state alone for values of one column). Given the ``model`` and the float values ``raw``
    being solved, a choice with one certain outcome takes its successor's value at once,
    without the values of the actions not taken."""

    def decide(backup: Callable[..., np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        if len(starts) == where.a1 - where.a0:  # one action each
            return backup()
        if choice.ndim == 1:
            return backup()[starts + choice[where.s0:where.s1]]
        taken = starts[:, None] + choice[where.states(2)]
        columns = np.arange(where.c1 - where.c0)
        if raw is not None:
            assert model is not None, "the values being solved given without their model"
            following = model.action_next[where.a0 + taken]
            if following.min() >= 0:
                return raw[following, columns + where.c0]
        return backup()[taken, columns]

    return decide


def allowed_actions(inner: CompiledModel, ends_allowed: np.ndarray) -> np.ndarray | None:
    """Per action of the round, whether it surely comes to an end the round state allows
    (an action that may come to one that it does not is not allowed); ``None`` if all are."""
    if ends_allowed.all():
        return None
    floats = Floats(inner, np.where(ends_allowed, 0.0, -np.inf))
    q = floats.empty(inner.n_actions)
    raw = backward(inner, floats, best("max"), floats.start())
    backward(inner, floats, None, raw, actions=q)
    return np.isfinite(q)
