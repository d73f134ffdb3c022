"""Play toward a total in a game of rounds (:class:`~mdp.engine.rounds.reach.Reach`): the
round played from a position, a round state with some points earned already, toward the
points still needed, found by its columns for advice (:func:`located`), and the chance of
every final total under that play (:func:`toward_distribution`)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from mdp.engine.outcomes import reach as reached
from mdp.engine.rounds.totals import MOST_ROUND_STATES, followed
from mdp.engine.solution import Located
from mdp.engine.sweep import forward, forward_chosen
from mdp.errors import TooLarge

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds.reach import Reach
    from mdp.game.load import Game


def located(reach: Reach, game: Game, columns: dict[str, Any], need: int) -> Located:
    """The position that COLUMN=VALUE ``columns`` name (a round state by its round columns,
    the rest a state of its round), the round played there toward ``need`` more points."""
    from mdp.engine.rounds.table import find_round_state

    key, named = find_round_state(reach.model, game, columns)
    rest = {c: v for c, v in columns.items() if c not in named}
    over = bool(reach.model.rule(np.array([key])).over[0])
    return Located(reach.at(key, need), named, rest, over)


def toward_distribution(reach: Reach, total: int,
                        start: dict[Any, Any] | None = None) -> pl.DataFrame:
    """The chance of every final total when each round is played toward ``total`` in all
    (:meth:`Reach.at` with the points still needed; where every play is worth the same, the
    game's first actions): columns ``points``, ``probability`` and, exact, ``exact``
    (``"p/q"``). The game begins with 0 points, or with each total of ``start`` with its
    chance (then ``total - start`` is needed of each: many targets followed at once). Round
    state by round state and total so far, each (round state, points needed) solved once, for
    games of up to :data:`~mdp.engine.rounds.totals.MOST_ROUND_STATES` round states."""
    model = reach.model
    if model.n_round_states > MOST_ROUND_STATES:
        raise TooLarge(f"game {model.info.game}: {model.n_round_states:,} round states, too many "
                       "to follow one by one for the chance of every total played toward a total "
                       f"(at most {MOST_ROUND_STATES:,})")
    played: dict[tuple[int, int], np.ndarray] = {}
    n_ends = model.round.n_terminal
    payoff = reach.payoff

    def need_of(key: int, earned: Any) -> int:
        low, high = reach.bounds(key)
        # Beyond its vector every play is worth the same: one solve each side.
        return min(max(total - int(earned), low + payoff.first), high + payoff.last)

    def prepare(key: int, totals: list[Any]) -> None:
        """The rounds of every total so far of round state ``key`` not played yet, solved
        side by side (:meth:`Reach.chosen`) and pushed forward at once."""
        needs = np.unique([need_of(key, t) for t in totals])
        needs = needs[[(key, int(n)) not in played for n in needs.tolist()]]
        if len(needs) < 2:
            return
        ends = model.rule(np.array([key], dtype=np.int64)).rows(np.zeros(len(needs), dtype=np.int64))
        choice = reach.chosen(np.full(len(needs), key, dtype=np.int64), needs, ends, exact=True)
        shares = _pushed(model.round, choice, reach.exact)
        for c, need in enumerate(needs.tolist()):
            played[key, need] = shares[:n_ends, c].copy()

    def play(key: int, earned: Any) -> np.ndarray:
        need = need_of(key, earned)
        if (key, need) not in played:
            played[key, need] = reached(reach.at(key, need))[:n_ends]
        return played[key, need]

    frame = followed(model, reach.exact, play, "play toward a total", start, prepare)
    return frame.filter(pl.col("probability") > 0) if not reach.exact else \
        frame.filter(pl.col("exact") != "0/1")


def _pushed(inner: CompiledModel, choice: np.ndarray, exact: bool) -> np.ndarray:
    """The chance of reaching each state of the round, played in each column as ``choice``
    says (each state's action, by its place among the state's own): floats, or fractions."""
    shares = np.zeros((inner.n_states, choice.shape[1]), dtype=object if exact else np.float64)
    if not exact:
        shares[inner.initial] = 1.0
        table = np.array([float(p) for p in inner.probabilities])
        return forward_chosen(inner, choice, shares, table)
    shares[:] = Fraction(0)
    shares[inner.initial] = Fraction(1)
    state, first = inner.action_state(), inner.action_start

    def play(layer: int, a0: int, a1: int) -> np.ndarray:
        s = state[a0:a1]
        return (np.arange(a0, a1)[:, None] - first[s][:, None] == choice[s]).astype(np.int64)

    return forward(inner, play, shares, np.array(inner.probabilities, dtype=object))
