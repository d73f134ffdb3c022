"""What the solve of a game of rounds gives: the value of every round state, and the round
played from any of them (:meth:`RoundsSolution.at`), the one road by which every analysis
reads it (see :class:`mdp.engine.solved.Solved`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import attrs
import numpy as np

from mdp.checks import arguments
from mdp.engine.arithmetic import Exact, Floats
from mdp.engine.numeric import float_or_none
from mdp.engine.policy import Policy, Sense
from mdp.engine.rounds.choose import Aims, aiming, allowed_actions, best_choices, following
from mdp.engine.rounds.model import Rounds
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.rounds.values import RoundValues, exact_terminals, terminals
from mdp.engine.solution import Located, Solution
from mdp.engine.sweep import backward, best
from mdp.errors import InRounds

if TYPE_CHECKING:
    import polars as pl

    from mdp.game.load import Game, Objective


@attrs.frozen(eq=False)
class RoundsSolution:
    """The value of every round state of a game of rounds under optimal play, or under a
    strategy's :class:`~mdp.engine.rounds.choose.Aims`."""

    model: Rounds
    sense: Sense
    values: tuple[np.ndarray, ...] = attrs.field(repr=False)
    """The value of each round state, round by round, in the order of :attr:`Rounds.keys`."""
    exact: bool = False
    seconds: float = attrs.field(default=0.0, repr=False)
    aims: Aims | None = None
    """The strategy played (its aims), or ``None`` for optimal play."""
    _later: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)
    """The values of the round states of the round last asked for, by key (a table)."""
    _tie_broken: dict[tuple[int, tuple[Any, ...]], np.ndarray] = attrs.field(
        factory=dict, init=False, repr=False)
    """Each round state's play with ties broken (:meth:`chosen`), by key and tie-breaks."""

    @property
    def value(self) -> float | Fraction:
        """The value of the game, from the round state before the first round."""
        return self.values[0][0]

    @property
    def strategy(self) -> str | None:
        """The name of the strategy played; ``None`` for optimal play."""
        return None if self.aims is None else self.aims.name

    @property
    def steered(self) -> bool:
        """Always: optimal play, or each round played best toward a strategy's aims."""
        return True

    def value_of(self, key: int) -> float | Fraction:
        """The value of a round state (from the start of the next round on)."""
        r = self.model.round_of(key)
        return self.values[r][int(np.searchsorted(self.model.keys[r], key))]

    def round_of(self, key: int) -> int:
        """How many rounds come before round state ``key``; ``KeyError`` if it is unreachable."""
        return self.model.round_of(key)

    def fixed(self) -> RoundsSolution:
        """Itself: optimal play of a game of rounds takes the first optimal action already."""
        return self

    def single(self, what: str) -> Solution[Any]:
        """Refuse ``what``, work that reads a game of one model: :class:`mdp.errors.InRounds`."""
        raise InRounds(self.model.info.game, what)

    def extent(self) -> str:
        """Its size in words."""
        return self.model.extent()

    def at(self, key: int | None = None) -> Solution[Any]:
        """The round played from round state ``key`` (the start, if ``None``), solved: the
        model of the round with each end worth its points and the value of the round state
        that follows; from a round state that ends the game, every end is worth 0 (nothing
        more is earned), as its value is. An end that ``key`` does not allow is worth -inf
        (+inf minimizing), or in exact numbers less than any allowed, so that no play takes
        it; the actions that may come to one are marked not allowed
        (:attr:`mdp.Solution.allowed`), and no output shows them. Exact where the game of
        rounds was solved so. Under a strategy, the round is played as its aims say, with
        that play as the solution's policy. A key that is no round state is a
        :class:`~mdp.ParamError`."""
        arguments("RoundsSolution.at", key=(key, self.model.round_state()))
        key = self.model.start if key is None else int(key)
        keys = np.array([key], dtype=np.int64)
        r = self.round_of(key)
        inner = self.model.round
        ends = self.model.rule(keys)
        allowed = allowed_actions(inner, ends.next[0] >= 0) if r < self.model.n_rounds else None
        if ends.over[0] or r == self.model.n_rounds:  # the game is over: nothing more is earned
            zero = np.zeros(inner.n_terminal, dtype=np.int64)
            arithmetic: Any = Exact(inner, zero) if self.exact else Floats(inner, zero.astype(np.float64))
        elif self.exact:
            later = RoundValues(self.model.keys[r + 1], self.values[r + 1])
            arithmetic = Exact(inner, exact_terminals(self.model, ends, later, self.sense)[:, 0])
        else:
            arithmetic = Floats(inner, self._terminals(keys, ends)[:, 0])
        if self.aims is None:
            raw = backward(inner, arithmetic, best(self.sense), arithmetic.start())
            return Solution(inner, self.sense, raw, arithmetic, allowed=allowed)
        choice = self.chosen(keys, ends)[:, 0]
        raw = backward(inner, arithmetic, following(choice), arithmetic.start())
        taken = np.zeros(inner.n_actions, dtype=np.int64)
        taken[inner.action_start[inner.n_terminal:-1] + choice[inner.n_terminal:]] = 1
        policy = Policy.of_weights(inner, taken, exact=self.exact, name=self.aims.name)
        return Solution(inner, self.sense, raw, arithmetic, policy=policy, allowed=allowed)

    def _terminals(self, keys: np.ndarray, ends: RoundEnds | None = None) -> np.ndarray:
        """The round's terminal values from round states ``keys``, all of one round, one
        column each (see :func:`~mdp.engine.rounds.backward.terminals`); ``ends``, theirs if
        already asked for."""
        r = self.round_of(int(keys[0]))
        ends = self.model.rule(keys) if ends is None else ends
        if r == self.model.n_rounds:
            return np.zeros((self.model.round.n_terminal, len(keys)))
        kept = self._later
        if kept.get("round") != r:  # one table a round, not one a batch
            kept.update(round=r, lookup=RoundValues(self.model.keys[r + 1], self.values[r + 1]))
        return terminals(self.model, ends, kept["lookup"], self.sense)

    def chosen(self, keys: np.ndarray, ends: RoundEnds | None = None,
               tie_break: Sequence[Any] = ()) -> np.ndarray:
        """How the round is played from round states ``keys`` (all of one round; ``ends``,
        theirs if already asked for): the place among its state's actions of the action each
        state of the round takes, one row per state and one column per round state. Optimal
        play takes the first best action, a strategy the first best toward its aims; in
        floats, of those within :data:`~mdp.engine.policy.FLOAT_TIE` of the best, as
        :func:`mdp.choices` takes them. With ``tie_break``, optimal play breaks its ties as
        :func:`mdp.choices` does, each round state's round solved on its own (:meth:`at`),
        as the distribution follows it. A round state that ends the game takes the first
        actions."""
        inner = self.model.round
        if self.aims is None and not tie_break:
            return best_choices(inner, self._terminals(keys, ends), self.sense)
        choice = np.zeros((inner.n_states, len(keys)), dtype=np.int16)
        ends = self.model.rule(keys) if ends is None else ends
        playing = np.flatnonzero(~ends.over)
        if tie_break:
            for column in playing.tolist():
                choice[:, column] = self._tie_broken_at(int(keys[column]), tuple(tie_break))
        elif len(playing) and self.aims is not None:
            choice[:, playing] = aiming(inner, keys[playing], ends.rows(playing), self.aims,
                                        self.exact, self.sense)
        return choice

    def _tie_broken_at(self, key: int, tie_break: tuple[Any, ...]) -> np.ndarray:
        """The place of the action each state of the round takes from round state ``key``,
        ties broken by ``tie_break`` as the distribution breaks them
        (:meth:`mdp.Solution.as_policy`), worked out once."""
        if (key, tie_break) not in self._tie_broken:
            inner = self.model.round
            taken = np.flatnonzero(self.at(key).as_policy(tie_break).probabilities)
            state = inner.action_state()[taken]
            place = np.zeros(inner.n_states, dtype=np.int16)
            place[state] = taken - inner.action_start[state]
            self._tie_broken[key, tie_break] = place
        return self._tie_broken[key, tie_break]

    def locate(self, game: Game, columns: dict[str, Any]) -> Located:
        """The position that COLUMN=VALUE ``columns`` name: a round state by its round
        columns (:func:`~mdp.hookspecs.game.mdp_round_columns`), and the round played from
        it, with the columns left to name a state of the round."""
        from mdp.engine.rounds.table import find_round_state

        key, named = find_round_state(self.model, game, columns)
        rest = {c: v for c, v in columns.items() if c not in named}
        return Located(self.at(key), named, rest, bool(self.model.rule(np.array([key])).over[0]))

    def simulated(self, game: Game | None, games: int, seed: int | None,
                  tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray, pl.DataFrame]:
        """``games`` games played at random (:func:`mdp.simulate`): the points of each
        outcome, how many games ended there, and the outcomes by their points and the
        columns of the round state they ended in."""
        from mdp.engine.rounds.sample import simulated

        return simulated(self, game, games, seed, tie_break=tie_break)

    def chances(self, game: Game | None = None, tie_break: Sequence[Any] = (),
                progress: Callable[[str], None] | None = None,
                max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
        """The chance of every total of points (:func:`mdp.distribution`): see
        :func:`mdp.engine.rounds.totals.rounds_distribution`."""
        from mdp.engine.rounds.totals import rounds_distribution

        return rounds_distribution(self, tie_break, progress, max_memory)

    def spread(self, frame: pl.DataFrame) -> dict[str, Any]:
        """The mean, standard deviation and percentiles of the points of a distribution."""
        from mdp.engine.rounds.spread import spread

        return spread(frame)

    def shown(self, by: Any) -> Any:
        """``by.rounds(self)``: see :meth:`mdp.engine.solved.Solved.shown`."""
        return by.rounds(self)

    def policy_pieces(self, game: Game | None, within: Any,
                      table: Callable[[Solution[Any], dict[str, Any]], Any]) -> Any:
        """The policy table (:func:`mdp.policy`): without ``within``, the value of every
        round state; with it (``"all"``, or round columns naming some round states), the
        policy within the round at those round states, ``table`` making each one's rows."""
        from mdp.engine.rounds.table import policy_pieces

        return policy_pieces(self, game, within, table)

    @property
    def objective(self) -> Objective:
        """The game's objective: a game of rounds is solved with its own points."""
        return self.model.info.objective

    @property
    def terminal(self) -> None:
        """``None``: a game of rounds is solved with its own points."""
        return None

    def summary(self) -> dict[str, Any]:
        """As :meth:`mdp.Solution.summary`, with the round states and rounds counted."""
        info, value = self.model.info, self.value
        summary: dict[str, Any] = {
            **info.summary(), "objective": info.objective.name, "sense": self.sense,
            "value": float_or_none(value),
        }
        if self.exact:
            assert isinstance(value, Fraction)
            summary["exact"] = f"{value.numerator}/{value.denominator}"
        if self.aims is not None:
            summary["strategy"] = self.aims.name
        summary["states"] = self.model.round.n_states
        summary["round_states"] = self.model.n_round_states
        summary["rounds"] = self.model.n_rounds
        summary["seconds"] = round(self.model.seconds + self.seconds, 6)
        return summary
