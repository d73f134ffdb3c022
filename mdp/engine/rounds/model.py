"""A game of rounds, compiled: the model of one round, its rule, and every round state
reachable from the start, found a round at a time in time linear in their number."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import numpy as np

from mdp.checks import INTEGER, Rule
from mdp.engine.budget import size
from mdp.engine.model import CompiledModel, ModelInfo
from mdp.engine.numeric import quoted
from mdp.engine.rounds.kinds import each_batch
from mdp.engine.rounds.rule import DENSE, RoundEnds, RoundRule, round_rule
from mdp.errors import InRounds, ModelError, TooLarge
from mdp.limits import MAX_ROUNDS
from mdp.shown import counted

BYTES_PER_ROUND_STATE = 24
"""Memory a round state takes, about: its key, its value, and its place in the tables."""


@attrs.frozen(eq=False)
class Rounds:
    """A game of rounds, compiled: the model of one round, its rule, and every round state
    reachable from the start, round by round (:func:`mdp.compile` makes it;
    :func:`mdp.solve` solves it). The rule is a function, asked again when the game is
    solved: a table of the ends of every round state would be far larger than the round
    states themselves."""

    round: CompiledModel
    """The model of one round; its terminal states are the round's ends."""
    keys: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The round states reached after 0, 1, 2, ... rounds: sorted integer keys."""
    rule: RoundRule = attrs.field(repr=False)
    """The game's round rule (:func:`~mdp.hookspecs.game.mdp_round_rule`), checked."""
    spans: tuple[tuple[Any, Any], ...] = attrs.field(repr=False)
    """The least and the most points of an end allowed, in each round but the last (see
    :meth:`points`), found with the round states."""
    seconds: float = attrs.field(default=0.0, repr=False)
    inexact: str | None = attrs.field(default=None, repr=False)
    """Where the rule gave float points at an end allowed, if it did (``"mdp_round_rule gave
    float points (round state 4)"``), found with the round states: exact solving is then
    refused, by every command alike, before the work."""
    fractional: bool = attrs.field(default=False, repr=False)
    """Whether some of those float points are not whole numbers: where none is, and every
    total is below 2**53 in size, floats add them exactly
    (:func:`~mdp.engine.rounds.float_totals.total_scale`)."""

    def __attrs_post_init__(self) -> None:
        for keys in self.keys:  # read-only, as the round model's arrays (strategies read them)
            keys.flags.writeable = False

    @property
    def info(self) -> ModelInfo:
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

    def extent(self) -> str:
        """Its size in words."""
        return extent(self.n_round_states, self.n_rounds, self.round.n_states)

    def single(self, what: str) -> CompiledModel:
        """Refuse ``what``, work that reads a game of one model: :class:`mdp.errors.InRounds`."""
        raise InRounds(self.info.game, what)

    def played_at(self, game: Any, columns: dict[str, Any]) -> tuple[CompiledModel, dict[str, Any]]:
        """The round played from the round state that the round columns among ``columns``
        name (refused if none or several), and the columns left to name a state of it."""
        from mdp.engine.rounds.table import find_round_state  # it imports this module

        _, named = find_round_state(self, game, columns)
        return self.round, {c: v for c, v in columns.items() if c not in named}

    def over_at(self, game: Any, columns: dict[str, Any]) -> bool:
        """Whether the game is over at the round state that the round columns among
        ``columns`` name (refused if none or several): no round is played from it."""
        from mdp.engine.rounds.table import find_round_state  # it imports this module

        return bool(self.rule(np.array([find_round_state(self, game, columns)[0]])).over[0])

    def of_rounds(self, what: str) -> Rounds:
        """Itself: ``what`` reads a game of rounds (compare :meth:`mdp.CompiledModel.of_rounds`)."""
        return self

    def check_chances(self, *, exact: bool = False, tie_break: Any = (),
                      max_memory: Any = "default") -> None:
        """Refuse, before the solve, a chance of every total that cannot be followed: see
        :func:`mdp.engine.rounds.totals.check_chances`."""
        from mdp.engine.rounds.totals import check_chances

        check_chances(self, exact=exact, tie_break=tie_break, max_memory=max_memory)

    def policy_rows(self, within: Any = None, optimal_only: bool = False, *,
                    game: Any = None, most: int | None = None) -> int:
        """The fewest rows its policy table can have, known before it is solved: a row per
        round state; within the round at the round states ``within`` names (``"all"``, or
        round columns of ``game``), refused where it could have more than a table may
        (:func:`~mdp.engine.rounds.table.within_keys`), and counted until past ``most``
        where that is given (:func:`~mdp.engine.rounds.table.within_rows`); else 0."""
        from mdp.engine.rounds.table import within_keys, within_rows  # it imports this module

        if within is None:
            return self.n_round_states
        if most is not None:
            return within_rows(self, game, within, optimal_only, most)
        if within == "all" or isinstance(within, dict) and game is not None:  # the round states named
            within_keys(self, None if within == "all" else game, within)
        return 0

    def round_of(self, key: int) -> int:
        """How many rounds come before round state ``key``; ``KeyError`` if it is unreachable."""
        for r, keys in enumerate(self.keys):
            at = int(np.searchsorted(keys, key))
            if at < len(keys) and keys[at] == key:
                return r
        raise KeyError(key)

    def round_state(self) -> Rule:
        """A round state of it (a whole number among :attr:`keys`) or None, the start: the
        rule of an argument that names one (:mod:`mdp.checks`)."""
        def holds(key: Any) -> bool:
            if key is None:
                return True
            try:
                return INTEGER.holds(key) and self.round_of(int(key)) >= 0
            except KeyError:
                return False

        return Rule(holds, f"a round state of game {self.info.game} (a key of mdp.Rounds.keys), "
                    "or None for the start")

    def points(self) -> list[tuple[Any, Any]]:
        """The least and the most points of an end allowed, in each round but the last (whose
        round states end the game), 0 among them from a round where a game may have ended:
        bounds of the totals a game can have earned."""
        return list(self.spans)


def compile_rounds(game: Any, round: CompiledModel, start: Any, *, max_states: int | None,
                   max_memory: int | None = None,
                   progress: Callable[[str], None] | None = None) -> Rounds:
    """The round rule asked of the game once, and every round state reachable from
    ``start``, a round at a time; refused (:class:`mdp.TooLarge`) past ``max_states`` round
    states, ``max_memory`` bytes or :data:`~mdp.limits.MAX_ROUNDS` rounds."""
    began = time.perf_counter()
    if isinstance(start, (bool, np.bool_)) or not isinstance(start, (int, np.integer)) \
            or not 0 <= start < 1 << 63:
        raise ModelError(f"game {game.name}: mdp_round_start must give a round state as an int "
                         f"key from 0 to 2**63 - 1, not {quoted(start)}")
    rule = round_rule(game, list(round.states[: round.n_terminal]))
    keys = [np.array([start], dtype=np.int64)]
    seen = _Seen()
    seen.repeated(keys[0])
    count = 1
    spans: list[tuple[Any, Any]] = []
    inexact: str | None = None
    fractional, ended = False, False
    while True:
        parts = each_batch(keys[-1], round.n_terminal, False, lambda batch: _found(batch, rule(batch)))
        fractional = fractional or any(part[3] for part in parts)
        found = _distinct(part for part, *_ in parts)
        inexact = inexact or next((f"{rule.whose(np.array([key]), _floats)}mdp_round_rule gave "
                                   f"float points (round state {key})"
                                   for _, _, key, *_ in parts if key is not None), None)
        if not len(found):
            break
        low = min(low for _, (low, _), *_ in parts if low is not None)
        high = max(high for _, (_, high), *_ in parts if high is not None)
        # Where a game may have ended by this round, it earns 0 in it: 0 is among its points.
        ended = ended or any(part[4] for part in parts)
        spans.append((min(low, 0), max(high, 0)) if ended else (low, high))
        again = seen.repeated(found)
        if again is not None:
            when = f"after {counted(len(keys), 'round')} and after fewer" if again[1] else \
                "after different numbers of rounds"
            raise ModelError(f"game {game.name}: round state {again[0]} is reached {when}: every "
                             "way to a round state must take the same number of rounds")
        count += len(found)
        _check_size(game.name, count, len(keys), max_states, max_memory)
        keys.append(found)
        if progress:
            progress(f"found {count:,} round states, {len(keys) - 1} rounds")
    again = seen.repeated(np.zeros(0, dtype=np.int64), last=True)
    if again is not None:
        raise ModelError(f"game {game.name}: round state {again[0]} is reached after different "
                         "numbers of rounds: every way to a round state must take the same "
                         "number of rounds")
    if game.objective.probability:
        _check_probability_totals(game.name, keys, rule)
    return Rounds(round, tuple(keys), rule, tuple(spans),
                  round.seconds + time.perf_counter() - began, inexact, fractional)


def _check_probability_totals(game: str, keys: list[np.ndarray], rule: RoundRule) -> None:
    """A game of rounds whose objective says its values are probabilities ends with a total
    of points from 0 to 1 whatever is played (the value is a mean of totals): the least and
    the most total of every round state, exactly, from the last round back (the rule asked
    once more for each round state; such games are small), are checked from the start: one
    outside is the game's fault, never shown as a chance of 450%."""
    low = high = np.zeros(0, dtype=object)
    for r in range(len(keys) - 1, -1, -1):
        ends = rule(keys[r])
        allowed = ends.next >= 0
        after = np.searchsorted(keys[r + 1], np.where(allowed, ends.next, 0)) if r + 1 < len(keys) \
            else np.zeros(ends.next.shape, dtype=np.int64)
        points = np.asarray(ends.points, dtype=object)
        none = ~allowed.any(axis=1)
        if len(high):
            high_ends, low_ends = points + high[after], points + low[after]
        else:
            high_ends = low_ends = points
        high = np.where(none, 0, np.where(allowed, high_ends, -np.inf).max(axis=1, initial=-np.inf))
        low = np.where(none, 0, np.where(allowed, low_ends, np.inf).min(axis=1, initial=np.inf))
    for total, side in ((high[0], "most"), (low[0], "least")):
        if not 0 <= total <= 1:
            raise ModelError(f"game {game}: mdp_objective says the values are probabilities, but "
                             f"the points of mdp_round_rule add up to {quoted(total)} at the "
                             f"{side} (a total must be from 0 to 1, whatever is played)")


def _check_size(game: str, count: int, rounds: int, max_states: int | None,
                max_memory: int | None) -> None:
    if max_states is not None and count > max_states:
        raise TooLarge(f"game {game}: more than {max_states:,} round states after {rounds} "
                       "rounds; raise the limit with --max-states (max_states= in Python)")
    if max_memory is not None and count * BYTES_PER_ROUND_STATE > max_memory:
        raise TooLarge(f"game {game}: {count:,} round states after {rounds} rounds would take "
                       f"more than the budget of {size(max_memory)}; raise it with --max-memory "
                       "(max_memory= in Python)")
    if rounds > MAX_ROUNDS:  # (round states after the last round end the game: allowed)
        raise TooLarge(f"game {game}: round states still come after {MAX_ROUNDS:,} rounds, the "
                       "most a game of rounds may last: does mdp_round_rule end the game (a "
                       "round state whose ends are all -1)?")


class _Seen:
    """Every round state found so far, to tell one reached after different numbers of
    rounds: small keys in a table indexed by the key, at once; the others sorted together
    whenever their number has doubled, and at the end (time linear, give or take a log)."""

    def __init__(self) -> None:
        self.table = np.zeros(0, dtype=bool)
        self.large: list[np.ndarray] = []
        self.checked = 0

    def repeated(self, found: np.ndarray, last: bool = False) -> tuple[int, bool] | None:
        """A key of ``found`` (sorted, distinct) seen before, and whether it was seen in an
        earlier round for certain (else: at some point, found late); ``None`` if none."""
        small = found[found < DENSE]
        if len(small):
            top = int(small[-1])
            if top >= len(self.table):
                grown = np.zeros(max(top + 1, 2 * len(self.table)), dtype=bool)
                grown[:len(self.table)] = self.table
                self.table = grown
            hit = np.flatnonzero(self.table[small])
            if len(hit):
                return int(small[hit[0]]), True
            self.table[small] = True
        large = found[found >= DENSE]
        if len(large):
            self.large.append(large)
        total = sum(len(k) for k in self.large)
        if total and (last or total >= 2 * max(self.checked, 1 << 16)):
            merged = np.sort(np.concatenate(self.large))
            same = np.flatnonzero(merged[1:] == merged[:-1])
            if len(same):
                return int(merged[same[0]]), False
            self.large, self.checked = [merged], total
        return None


def _found(keys: np.ndarray, ends: RoundEnds) -> tuple[np.ndarray, tuple[Any, Any], int | None, bool, bool]:
    """What one batch of round states ``keys`` leads to: the distinct keys of the round
    states that follow (sorted), the least and the most points of an end allowed (``None``
    where none is), the first round state with an end allowed whose points are floats
    (or ``None``), whether some of those float points are not whole numbers, and whether
    some round state ends the game."""
    allowed = ends.points[ends.next >= 0]
    span = (allowed.min(), allowed.max()) if len(allowed) else (None, None)
    floats = int(keys[np.argmin(ends.over)]) if _floats(ends) else None
    fractional = floats is not None and bool((allowed != np.floor(allowed)).any())
    return _distinct([ends.next]), span, floats, fractional, bool(ends.over.any())


def _floats(ends: RoundEnds) -> bool:
    """Whether some end is allowed, and the points are floats."""
    return bool((ends.next >= 0).any()) and ends.points.dtype.kind == "f"


def _distinct(ends: Iterable[np.ndarray]) -> np.ndarray:
    """The distinct keys of the next round states of some :class:`RoundEnds` (``-1`` left
    out), sorted."""
    seen = np.zeros(0, dtype=bool)
    sorted_parts: list[np.ndarray] = []
    for following in ends:
        following = following[following >= 0]
        if not len(following):
            continue
        top = int(following.max())
        if top < DENSE and not sorted_parts:
            if top >= len(seen):
                grown = np.zeros(max(top + 1, 2 * len(seen)), dtype=bool)
                grown[:len(seen)] = seen
                seen = grown
            seen[following] = True
        else:
            sorted_parts.append(np.unique(following))
    if sorted_parts:
        sorted_parts.append(np.flatnonzero(seen))
        return np.unique(np.concatenate(sorted_parts)).astype(np.int64)
    return np.flatnonzero(seen).astype(np.int64)


def extent(round_states: int, rounds: int, states: int) -> str:
    """The size of a game of rounds in words, as every summary says it."""
    return (f"{round_states:,} round state{'' if round_states == 1 else 's'} over {rounds:,} "
            f"round{'' if rounds == 1 else 's'}, a round of {states:,} states")
