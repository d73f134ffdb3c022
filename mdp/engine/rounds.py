"""Games played in rounds: one model of a round, played again and again between *round
states*, solved backward by rounds.

A game of rounds (:func:`~mdp.hookspecs.game.mdp_round_start`) describes one round with the
usual hooks: it is compiled once, and its terminal states are the ways a round can *end*.
Between rounds the game is in a round state, an integer key. For each round state and each
end, :func:`~mdp.hookspecs.game.mdp_round_ends` says which round state follows and what the
end earns, or that the end cannot close a round from that state. The value of a round state
is then the round's value with each end worth its points plus the value of the round state
that follows: every round state of one round is a column of terminal values of the one
round model, and a round's states are solved many columns at a time, the last round first.

A round state with no end allowed is the end of the game, worth nothing more: whatever the
game pays, it pays at the end of a round.

A way to play other than the best is a game's *aims* (:class:`Aims`, a strategy): what the
player aims at for each end of a round. Within a round the player plays best toward those
worths; the round's play so fixed is then valued with each end's true worth, its points and
the value under the same aims of the round state that follows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine.arithmetic import Exact, Floats
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import check_terminal_matrix
from mdp.engine.policy import FLOAT_TIE, Policy
from mdp.engine.solution import Solution
from mdp.engine.sweep import backward, best
from mdp.errors import InRounds, ModelError, TooLarge
from mdp.game.load import Game

WORK = 1 << 21
"""Numbers (round states times the round's states, or times its ends) worked at a time: a
batch of round states as value columns of the round model costs about this many floats."""


@attrs.frozen(eq=False)
class RoundEnds:
    """How rounds end (see :func:`~mdp.hookspecs.game.mdp_round_ends`): one row per round
    state asked about, one column per end of the round (the round model's terminal states,
    in its order).

    ``next`` is the key of the round state that follows (an integer array), or ``-1`` where
    that end cannot close a round from that state; ``points`` is what the end earns there
    (numbers; ``int`` and :class:`~fractions.Fraction` objects keep exact solving exact).
    A row of ``-1`` only marks a round state that ends the game.
    """

    next: np.ndarray
    points: Any


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


@attrs.frozen(eq=False)
class Rounds:
    """A game of rounds, compiled: the model of one round, and every round state reachable
    from the start, round by round (:func:`mdp.compile` makes it; :func:`mdp.solve` solves
    it). The ends of rounds are asked of the game again when it is solved: a table of them
    for every round state would be far larger than the round states themselves."""

    round: CompiledModel
    """The model of one round; its terminal states are the round's ends."""
    keys: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The round states reached after 0, 1, 2, ... rounds: sorted integer keys."""
    ends: Callable[[np.ndarray], RoundEnds] = attrs.field(repr=False)
    """The game's :func:`~mdp.hookspecs.game.mdp_round_ends` for some round states, checked."""
    seconds: float = attrs.field(default=0.0, repr=False)

    @property
    def info(self):
        """What the game was compiled from, in words (that of the round model)."""
        return self.round.info

    @property
    def n_rounds(self) -> int:
        """The most rounds a game lasts."""
        return len(self.keys) - 1

    @property
    def n_round_states(self) -> int:
        """Number of round states, over all rounds."""
        return sum(len(k) for k in self.keys)

    @property
    def start(self) -> int:
        """The round state before the first round."""
        return int(self.keys[0][0])

    def points(self) -> list[tuple[Any, Any]]:
        """The least and the most points of an end allowed, in each round but the last (whose
        round states end the game): bounds of the totals a game can have earned. The ends
        are asked of the game again, every round state's."""
        spans = []
        for keys in self.keys[:-1]:
            low, high = [], []
            for batch in _batches(keys, self.round.n_terminal):
                given = self.ends(batch)
                allowed = given.points[given.next >= 0]
                if len(allowed):
                    low.append(allowed.min())
                    high.append(allowed.max())
            spans.append((min(low), max(high)))
        return spans


def one_model(what: str, solved: Any) -> None:
    """Refuse ``what`` (work that reads one model) for a game played in rounds, given as its
    :class:`Rounds` or :class:`RoundsSolution`: :class:`mdp.errors.InRounds`."""
    model = getattr(solved, "model", solved)
    if isinstance(model, Rounds):
        raise InRounds(model.info.game, what)


def compile_rounds(game: Game, round: CompiledModel, start: Any, *, max_states: int | None,
                   progress: Callable[[str], None] | None = None) -> Rounds:
    """Find every round state reachable from ``start``, a round at a time."""
    began = time.perf_counter()
    if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
        raise ModelError(f"game {game.name}: mdp_round_start must give a round state as an int "
                         f"key of at least 0, not {start!r}")
    ends = _Ends(game, round)
    keys = [np.array([start], dtype=np.int64)]
    count = 1
    while True:
        found = _distinct(e.next for e in map(ends, _batches(keys[-1], round.n_terminal)))
        if not len(found):
            break
        again = np.flatnonzero(np.isin(found, np.concatenate(keys)))
        if len(again):
            raise ModelError(f"game {game.name}: round state {int(found[again[0]])} is reached "
                             f"after {len(keys)} rounds and after fewer: every way to a round "
                             "state must take the same number of rounds")
        count += len(found)
        if max_states is not None and count > max_states:
            raise TooLarge(f"game {game.name}: more than {max_states:,} round states; raise the "
                           "limit with --max-states (max_states= in Python)")
        keys.append(found)
        if progress:
            progress(f"found {count:,} round states, {len(keys) - 1} rounds")
    return Rounds(round, tuple(keys), ends, round.seconds + time.perf_counter() - began)


DENSE = 1 << 24
"""Round states whose keys are all below this many are found, and their values looked up, in
tables indexed by the key itself (a byte, or a float, a key): far quicker than sorting."""


def _distinct(batches) -> np.ndarray:
    """The distinct keys of ``batches`` of next round states (``-1`` left out), sorted."""
    seen = np.zeros(0, dtype=bool)
    sorted_parts = []
    for following in batches:
        following = following[following >= 0]
        if not len(following):
            continue
        top = int(following.max())
        if top < DENSE and not sorted_parts:
            if top >= len(seen):
                seen = np.concatenate([seen, np.zeros(top + 1 - len(seen), dtype=bool)])
            seen[following] = True
        else:
            sorted_parts.append(np.unique(following))
    if sorted_parts:
        sorted_parts.append(np.flatnonzero(seen))
        return np.unique(np.concatenate(sorted_parts))
    return np.flatnonzero(seen).astype(np.int64)


class _Ends:
    """The game's ends of rounds for some round states, checked where they enter."""

    def __init__(self, game: Game, round: CompiledModel) -> None:
        self.game, self.shape_of = game, round.n_terminal
        self.states = list(round.states[: round.n_terminal])

    def __call__(self, keys: np.ndarray) -> RoundEnds:
        given = self.game.call("mdp_round_ends", states=keys, ends=self.states)
        where = f"game {self.game.name}: mdp_round_ends"
        if not isinstance(given, RoundEnds):
            raise ModelError(f"{where} must return an mdp.RoundEnds, not {type(given).__name__}")
        shape = (len(keys), self.shape_of)
        next_, points = np.asarray(given.next), np.asarray(given.points)
        for name, array in (("next", next_), ("points", points)):
            if array.shape != shape:
                raise ModelError(f"{where} gave {name} of shape {array.shape}; expected one row "
                                 f"per round state and one column per end of the round: {shape}")
        if next_.dtype.kind not in "iu":
            raise ModelError(f"{where} gave next as {next_.dtype}; round states are int keys")
        if points.dtype.kind not in "biufO":
            raise ModelError(f"{where} gave points as {points.dtype}; points are numbers")
        if points.dtype.kind == "f" and not np.isfinite(points[next_ >= 0]).all():
            row = int(np.flatnonzero(~np.isfinite(np.where(next_ >= 0, points, 0)).all(axis=1))[0])
            raise ModelError(f"{where} gave a point that is not a finite number (round state "
                             f"{int(keys[row])})")
        return RoundEnds(next_.astype(np.int64, copy=False), points)


def _batches(keys: np.ndarray, width: int) -> list[np.ndarray]:
    """Round states in batches of about :data:`WORK` numbers of ``width`` each."""
    size = max(1, WORK // max(width, 1))
    return [keys[i:i + size] for i in range(0, len(keys), size)]


@attrs.frozen(eq=False)
class RoundsSolution:
    """The value of every round state of a game of rounds under optimal play, or under a
    strategy's :class:`Aims`."""

    model: Rounds
    sense: str
    values: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The value of each round state, round by round, in the order of :attr:`Rounds.keys`."""
    exact: bool = False
    seconds: float = attrs.field(default=0.0, repr=False)
    policy: Aims | None = None
    """The strategy played (its aims), or ``None`` for optimal play."""
    _later: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)
    """The values of the round states of the round last asked for, by key (a table)."""

    @property
    def value(self) -> float | Fraction:
        """The value of the game, from the round state before the first round."""
        return self.values[0][0]

    def value_of(self, key: int) -> float | Fraction:
        """The value of a round state (from the start of the next round on)."""
        for keys, values in zip(self.model.keys, self.values):
            at = int(np.searchsorted(keys, key))
            if at < len(keys) and keys[at] == key:
                return values[at]
        raise KeyError(key)

    def round_of(self, key: int) -> int:
        """How many rounds come before round state ``key``; ``KeyError`` if it is unreachable."""
        for r, keys in enumerate(self.model.keys):
            at = int(np.searchsorted(keys, key))
            if at < len(keys) and keys[at] == key:
                return r
        raise KeyError(key)

    def at(self, key: int) -> Solution:
        """The round played from round state ``key``, solved: the model of the round with
        each end worth its points and the value of the round state that follows, and an end
        that ``key`` does not allow worth -inf (+inf minimizing), so that no play takes it.
        In exact numbers where the game of rounds was solved so (an end not allowed then
        worth less than any allowed), else in floats. Every analysis of one model works on
        it: the policy of a round, :func:`mdp.advise` at a position, the chance of each end.
        Under a strategy, the round is played as its aims say, with that play as the
        solution's policy."""

        keys = np.array([key], dtype=np.int64)
        r = self.round_of(key)
        if self.exact and r < self.model.n_rounds:
            later = _Lookup(self.model.keys[r + 1], self.values[r + 1])
            arithmetic = Exact(self.model.round,
                               _exact_terminals(self.model, self.model.ends(keys), later, self.sense)[:, 0])
        else:
            arithmetic = Floats(self.model.round, self._terminals(keys)[:, 0])
        if self.policy is None:
            raw = backward(self.model.round, arithmetic, best(self.sense), arithmetic.start())
            return Solution(self.model.round, self.sense, raw, arithmetic)
        inner, choice = self.model.round, self.choices(keys)[:, 0]
        raw = backward(inner, arithmetic, _following(choice), arithmetic.start())
        taken = np.zeros(inner.n_actions, dtype=np.int64)
        taken[inner.action_start[inner.n_terminal:-1] + choice[inner.n_terminal:]] = 1
        policy = Policy.of_weights(inner, taken, exact=self.exact, name=self.policy.name)
        return Solution(inner, self.sense, raw, arithmetic, policy=policy)

    def _terminals(self, keys: np.ndarray, ends: RoundEnds | None = None) -> np.ndarray:
        """The round's terminal values from round states ``keys``, all of one round, one
        column each (see :func:`_terminals`); ``ends``, theirs if already asked for."""
        r = self.round_of(int(keys[0]))
        ends = self.model.ends(keys) if ends is None else ends
        if r == self.model.n_rounds:
            return np.zeros((self.model.round.n_terminal, len(keys)))
        kept = self._later
        if kept.get("round") != r:  # one table a round, not one a batch
            kept.update(round=r, lookup=_Lookup(self.model.keys[r + 1], self.values[r + 1]))
        return _terminals(self.model, ends, kept["lookup"], self.sense)

    def choices(self, keys: np.ndarray, ends: RoundEnds | None = None) -> np.ndarray:
        """How the round is played from round states ``keys`` (all of one round; ``ends``,
        theirs if already asked for): the place among its state's actions of the action each
        state of the round takes, one row per state and one column per round state. Optimal
        play takes the first best action, a strategy the first best toward its aims; in
        floats, of those within :data:`~mdp.engine.policy.FLOAT_TIE` of the best, as
        :meth:`mdp.Solution.play` takes them. A round state that ends the game takes the
        first actions."""
        inner = self.model.round
        choice = np.zeros((inner.n_states, len(keys)), dtype=np.int16)
        if self.policy is None:
            _backward(self.model, self._terminals(keys, ends), _choosing(self.sense, choice, FLOAT_TIE))
            return choice
        ends = self.model.ends(keys) if ends is None else ends
        playing = np.flatnonzero(ends.next.max(axis=1) >= 0)
        if len(playing):
            ends = RoundEnds(ends.next[playing], ends.points[playing])
            choice[:, playing] = _aiming(self.model, keys[playing], ends, self.policy, self.exact,
                                         self.sense)
        return choice

    def play(self, games: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Play ``games`` games at random, optimally or as the strategy's aims say: the points
        each game earned and the round state it ended in. Each round, the round states the
        games are in are solved again (:meth:`choices`), a batch at a time, and every game in
        the batch plays its round a move at a time."""
        model, inner = self.model, self.model.round
        key = np.full(games, model.start, dtype=np.int64)
        points = np.zeros(games)
        for _ in range(model.n_rounds + 1):
            keys, column = np.unique(key, return_inverse=True)
            size = max(1, WORK // max(inner.n_states, inner.n_terminal))
            for c0 in range(0, len(keys), size):
                batch = keys[c0:c0 + size]
                ends = model.ends(batch)
                over = ends.next.max(axis=1) < 0
                mine = np.flatnonzero((column >= c0) & (column < c0 + len(batch)))
                mine = mine[~over[column[mine] - c0]]
                if not len(mine):
                    continue
                choice = self.choices(batch, ends)
                where = column[mine] - c0
                state = np.full(len(mine), inner.initial, dtype=np.int64)
                going = np.arange(len(mine))
                while len(going):
                    s = state[going]
                    actions = inner.action_start[s] + choice[s, where[going]]
                    state[going] = inner.sample(actions, rng)
                    going = going[state[going] >= inner.n_terminal]
                points[mine] += ends.points[where, state]
                key[mine] = ends.next[where, state]
        return points, key

    def summary(self) -> dict[str, Any]:
        """As :meth:`mdp.Solution.summary`, with the round states and rounds counted."""
        info, value = self.model.info, self.value
        summary: dict[str, Any] = {
            "game": info.game, "variant": info.variant, "params": dict(info.params),
            "rules": info.rules, "objective": info.objective.name, "sense": self.sense,
            "value": float(value),
        }
        if self.exact:
            summary["exact"] = f"{value.numerator}/{value.denominator}"
        if self.policy is not None:
            summary["strategy"] = self.policy.name
        summary["states"] = self.model.round.n_states
        summary["round_states"] = self.model.n_round_states
        summary["rounds"] = self.model.n_rounds
        summary["seconds"] = round(self.model.seconds + self.seconds, 6)
        return summary


def solve_rounds(model: Rounds, *, exact: bool = False, sense: str,
                 progress: Callable[[str], None] | None = None, aims: Aims | None = None) -> RoundsSolution:
    """Solve a game of rounds backward, a round at a time, each batch of round states as
    value columns of the round model: under optimal play, or under the strategy ``aims``
    (each batch's round played best toward its aims, that play then valued)."""
    began = time.perf_counter()
    if exact and (model.round.inexact or model.round.inexact_values):
        raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, but the "
                         f"game gave a float: {model.round.inexact or model.round.inexact_values}")
    values: list[np.ndarray] = [np.zeros(0)] * len(model.keys)
    inner = model.round
    width = max(inner.n_states, inner.n_terminal)
    for r in range(model.n_rounds, -1, -1):
        if progress:
            progress(f"solving round {r + 1} of {model.n_rounds + 1}: "
                     f"{len(model.keys[r]):,} round states")
        later = _Lookup(model.keys[r + 1], values[r + 1]) if r < model.n_rounds else None
        parts = [_solve_batch(model, batch, later, exact, sense, aims)
                 for batch in _batches(model.keys[r], width)]
        values[r] = np.concatenate(parts) if parts else np.zeros(0)
    return RoundsSolution(model, sense, tuple(values), exact, time.perf_counter() - began, aims)


def _solve_batch(model: Rounds, keys: np.ndarray, later: _Lookup | None, exact: bool,
                 sense: str, aims: Aims | None = None) -> np.ndarray:
    """The values of some round states of one round."""
    ends = model.ends(keys)
    over = ends.next.max(axis=1) < 0
    if over.all():
        return np.zeros(len(keys), dtype=object if exact else np.float64) + (Fraction(0) if exact else 0)
    if later is None:
        raise ModelError(f"game {model.info.game}: round state {int(keys[np.argmin(over)])} "
                         "allows an end of the round, but no round state follows it")
    if over.any():  # some round states end the game: worth nothing more
        playing = np.flatnonzero(~over)
        result = np.zeros(len(keys), dtype=object if exact else np.float64)
        result[:] = 0
        result[playing] = _solve_playing(model, keys[playing], RoundEnds(
            ends.next[playing], ends.points[playing]), later, exact, sense, aims)
        return result
    return _solve_playing(model, keys, ends, later, exact, sense, aims)


def _solve_playing(model: Rounds, keys: np.ndarray, ends: RoundEnds, later: _Lookup,
                   exact: bool, sense: str, aims: Aims | None = None) -> np.ndarray:
    terminals = _terminals(model, ends, later, sense)
    if aims is None:
        decide = best(sense)
        raw = _backward(model, terminals, decide)
    else:
        choice = _aiming(model, keys, ends, aims, exact, sense)
        decide = _following(choice)
        floats = Floats(model.round, terminals)
        raw = floats.start()
        backward(model.round, floats, _following(choice, model.round, raw), raw)
    values = raw[model.round.initial].copy()
    _check_finite(model, values, keys, terminals, ends, later)
    if not exact:
        return values
    arithmetic = Exact(model.round, _exact_terminals(model, ends, later, sense))
    raw = backward(model.round, arithmetic, decide, arithmetic.start())
    scale = arithmetic.scales(model.round.layer_of_id(model.round.initial))
    return np.array([Fraction(v, scale) for v in raw[model.round.initial]], dtype=object)


def _exact_terminals(model: Rounds, ends: RoundEnds, later: _Lookup, sense: str) -> np.ndarray:
    """:func:`_terminals` in exact numbers, checked. An end not allowed is worth the least
    allowed value less one (the most plus one, minimizing): it loses against every allowed
    end as surely."""
    allowed = ends.next >= 0
    total = ends.points.astype(object) + later.exact_values_of(np.where(allowed, ends.next, -1))
    return _exact_columns(model, total, allowed, sense)


def _exact_columns(model: Rounds, total: np.ndarray, allowed: np.ndarray, sense: str) -> np.ndarray:
    """Exact worths of the ends (one row per round state) as terminal columns of the round,
    checked, each end not allowed worth the least allowed less one (the most plus one)."""
    for row, ok in zip(total, allowed):
        if ok.any():
            row[~ok] = min(row[ok]) - 1 if sense == "max" else max(row[ok]) + 1
    return check_terminal_matrix(model.round, np.ascontiguousarray(total.T), True)


def _terminals(model: Rounds, ends: RoundEnds, later: _Lookup, sense: str) -> np.ndarray:
    """The round's terminal values from some round states, one column each, in floats: each
    end worth its points and the value of the round state that follows; an end not allowed,
    one that no play chooses: -inf (+inf, minimizing)."""
    worth = later.values_of(ends.next, -np.inf if sense == "max" else np.inf, model.info.game)
    return np.ascontiguousarray((ends.points + worth).T, dtype=np.float64)


def _backward(model: Rounds, terminals: np.ndarray, decide: Any) -> np.ndarray:
    arithmetic = Floats(model.round, terminals)
    return backward(model.round, arithmetic, decide, arithmetic.start())


def _check_finite(model: Rounds, values: np.ndarray, keys: np.ndarray, terminals: np.ndarray,
                  ends: RoundEnds, later: _Lookup) -> None:
    """A round state whose value is not finite let an end be reached that it does not allow
    (or, NaN, met a round state not found before)."""
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        row = int(bad[0])
        if np.isnan(terminals[:, row]).any():
            later.values_of(ends.next[row], 0.0, model.info.game, check=True)
        raise ModelError(f"game {model.info.game}: from round state {int(keys[row])}, a round "
                         "can come to an end that mdp_round_ends does not allow there (next "
                         "-1) whatever the player does")


def _choosing(sense: str, choice: np.ndarray, tie: float = 0.0) -> Any:
    """Optimal play that also writes, in ``choice`` (one row per state, one column per round
    state), the place among its state's actions of each state's best action: the first of
    those within ``tie`` of the best, relative (times the best, at least 1), or the first
    action where every one is an end not allowed: no play comes there."""
    ufunc = np.maximum if sense == "max" else np.minimum

    def decide(backup, starts: np.ndarray, where) -> np.ndarray:
        counts = np.diff(starts, append=where.a1 - where.a0)
        most = int(counts.max())
        if most == 1:
            choice[where.states(2)] = 0
            return backup()
        # The states with the most actions first, as per_state goes through them: the
        # states that have a k-th action are the first few, and the values of their k-th
        # actions are backed up as rows of their own (for the best, then for the ties).
        order = np.argsort(-counts, kind="stable")
        having = np.searchsorted(-counts[order], -np.arange(most), side="left").tolist()
        first = starts[order]
        kth = [backup(first[:n] + k) for k, n in enumerate(having)]
        peak = kth[0].copy()
        for k in range(1, most):
            ufunc(peak[:having[k]], kth[k], out=peak[:having[k]])
        rank = np.zeros(peak.shape, dtype=np.int16)  # the first action where none is optimal
        with np.errstate(invalid="ignore"):  # infinite values: an end not allowed, no tie
            near = np.zeros(peak.shape)  # exact: ties are equal
            if tie:
                near = np.abs(peak)
                np.maximum(near, 1.0, out=near)
                near *= tie
            for k in range(most - 1, -1, -1):  # the last rank first: the first tied stays
                n, gap = having[k], kth[k]  # the k-th action's value, then how far from the best
                if sense == "max":
                    np.subtract(peak[:n], gap, out=gap)
                else:
                    np.subtract(gap, peak[:n], out=gap)
                np.copyto(rank[:n], k, where=gap <= near[:n])
        choice[where.states(2)][order] = rank
        top = np.empty_like(peak)
        top[order] = peak
        return top

    return decide


def _aiming(model: Rounds, keys: np.ndarray, ends: RoundEnds, aims: Aims, exact: bool,
            sense: str) -> np.ndarray:
    """The choices of :meth:`RoundsSolution.choices` under ``aims``, from round states that
    do not end the game: the round solved with the worths aimed at as its terminal values
    (an end not allowed, as in :func:`_terminals`), in exact numbers where ``exact``."""
    worth = aims.worth(keys, ends)
    allowed = ends.next >= 0
    choice = np.zeros((model.round.n_states, len(keys)), dtype=np.int16)
    if exact:
        arithmetic: Any = Exact(model.round, _exact_columns(model, np.array(worth, dtype=object),
                                                           allowed, sense))
    else:
        worst = -np.inf if sense == "max" else np.inf
        arithmetic = Floats(model.round, np.ascontiguousarray(
            np.where(allowed, worth, worst).T, dtype=np.float64))
    backward(model.round, arithmetic, _choosing(sense, choice, 0 if exact else FLOAT_TIE),
             arithmetic.start())
    return choice


def _following(choice: np.ndarray, model: CompiledModel | None = None,
               raw: np.ndarray | None = None) -> Any:
    """Play that takes, in each state and column, the action ``choice`` says (its place
    among the state's actions, as :func:`_choosing` writes it; one column, or one row per
    state alone for values of one column). Given the ``model`` and the float values ``raw``
    being solved, a choice with one certain outcome takes its successor's value at once,
    without the values of the actions not taken."""

    def decide(backup, starts: np.ndarray, where) -> np.ndarray:
        if len(starts) == where.a1 - where.a0:  # one action each
            return backup()
        if choice.ndim == 1:
            return backup()[starts + choice[where.s0:where.s1]]
        taken = starts[:, None] + choice[where.states(2)]
        columns = np.arange(where.c1 - where.c0)
        if raw is not None:
            following = model.action_next[where.a0 + taken]
            if following.min() >= 0:
                return raw[following, columns + where.c0]
        return backup()[taken, columns]

    return decide


class _Lookup:
    """The values of one round's states by key: a table indexed by the key itself where the
    keys are small enough (:data:`DENSE`), else a binary search."""

    def __init__(self, keys: np.ndarray, values: np.ndarray) -> None:
        self.keys, self.values = keys, values
        self.table = None
        if len(keys) and int(keys[-1]) < DENSE:
            # One more entry at the end, for the key -1: an end not allowed.
            self.table = np.full(int(keys[-1]) + 2, np.nan)
            self.table[keys] = np.asarray(values, dtype=np.float64)

    def values_of(self, keys: np.ndarray, worst: float, game: str, check: bool = False) -> np.ndarray:
        """The float values of the round states ``keys`` (which must be of this round), and
        ``worst`` for ``-1``. A key not of this round is NaN, found only with ``check``."""
        if self.table is not None and not check:
            self.table[-1] = worst
            try:
                return self.table[keys]
            except IndexError:  # past the largest key: not of this round
                check = True
        allowed = keys >= 0
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        missing = allowed & (self.keys[at] != keys)
        if missing.any():
            raise ModelError(f"game {game}: mdp_round_ends gave round state "
                             f"{int(keys[missing].flat[0])} when asked again, but not when the "
                             "round states were found")
        return np.where(allowed, np.asarray(self.values, dtype=np.float64)[at], worst)

    def exact_values_of(self, keys: np.ndarray) -> np.ndarray:
        """The exact values of the round states ``keys`` (``-1``: 0, to be replaced)."""
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return np.where(keys >= 0, self.values[at], 0)
