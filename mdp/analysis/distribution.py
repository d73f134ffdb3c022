"""How a game ends under a way of playing: the forward pass over the compiled model
(:func:`mdp.engine.sweep.forward`) gives the chance of reaching every state, then the chance
of every outcome (the terminal states grouped by the columns the game names,
:func:`~mdp.hookspecs.game.mdp_outcome_columns`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from mdp.engine.arithmetic import objects
from mdp.engine.model import CompiledModel
from mdp.engine.policy import Policy
from mdp.engine.rounds import Rounds, RoundsSolution, one_model
from mdp.engine.solution import Solution
from mdp.engine.sweep import forward
from mdp.errors import ModelError, TooLarge

if TYPE_CHECKING:
    from mdp.game.load import Game


def playing(how: Solution | Policy, tie_break: Sequence[Any] = ()) -> Policy:
    """The policy that ``how`` stands for: a policy itself, or a solution's play (its
    policy, or optimal play with ties broken by ``tie_break``: :meth:`mdp.Solution.play`)."""
    if isinstance(how, Policy):
        if tie_break:
            raise ModelError("a tie-break applies to a solution's optimal play, not to a policy")
        return how
    return how.play(tie_break)


def reach(how: Solution | Policy, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The chance of reaching each state, in state order, playing as ``how`` says (a
    :class:`mdp.Policy`, or a solution's play): floats, or fractions in an object array when
    the policy is exact."""
    policy = playing(how, tie_break)
    model = policy.model
    if policy.exact:
        reached = objects([Fraction(0)] * model.n_states)
        table = objects([Fraction(x) for x in model.probabilities])
    else:
        reached = np.zeros(model.n_states)
        table = np.array([float(x) for x in model.probabilities])
    reached[model.initial] = 1
    chances = policy.probabilities
    return forward(model, lambda layer, a0, a1: chances[a0:a1], reached, table)


def outcome_columns(model: CompiledModel, game: Game | None = None) -> list[str]:
    """The columns of :attr:`model.terminals <mdp.CompiledModel.terminals>` that make an
    outcome: the game's (:func:`~mdp.hookspecs.game.mdp_outcome_columns`), else ``value``."""
    columns = list(game.call("mdp_outcome_columns") or []) if game is not None else []
    columns = columns or ["value"]
    missing = [c for c in columns if c not in model.terminals.columns]
    if missing:
        raise ModelError(f"game {model.info.game}: outcome columns {missing} are not columns of "
                         f"a terminal state ({', '.join(model.terminals.columns)})")
    return columns


def group(model: CompiledModel, columns: list[str], weights: np.ndarray) -> tuple[pl.DataFrame, np.ndarray]:
    """The distinct outcomes (sorted) and the sum of ``weights`` (one per terminal state)
    over each: floats, ints, or fractions in an object array."""
    keys = model.terminals.select(columns)
    outcomes = keys.unique().sort(columns, nulls_last=True)
    ids = (keys.with_row_index("row")
           .join(outcomes.with_row_index("group"), on=columns, how="left", nulls_equal=True)
           .sort("row")["group"].to_numpy())
    if weights.dtype == object:
        sums = objects([Fraction(0)] * outcomes.height)
        np.add.at(sums, ids, weights)
    else:
        sums = np.bincount(ids, weights=weights, minlength=outcomes.height)
        if weights.dtype.kind in "iu":
            sums = np.rint(sums).astype(np.int64)
    return outcomes.cast({c: pl.Int64 for c, t in outcomes.schema.items() if t.is_integer()}), sums


def distribution(how: Solution | Policy, game: Game | None = None, *,
                 tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """The chance of every outcome that can happen, as a Polars DataFrame: the outcome
    columns (those the game names; else ``value``), ``probability`` and, for an exact
    solution, ``exact`` (``"p/q"``). The probabilities sum to 1, exactly in exact mode. An
    outcome that this play never reaches (an end only other play leads to) is left out.

    Play is ``how``: a :class:`mdp.Policy`, or a solution's (a strategy's policy, or optimal
    play with its ties broken by ``tie_break`` and then the game's order: :func:`mdp.choices`).

    A game of rounds (a :class:`mdp.RoundsSolution`) ends with the points its rounds earned:
    the outcome is ``points``, the total, followed round by round through every round state
    (:func:`rounds_distribution`).

    >>> mdp.distribution(mdp.solve(model, exact=True), game)   # doctest: +SKIP
    """
    if isinstance(how, RoundsSolution):
        return rounds_distribution(how, tie_break)
    one_model("an exact outcome distribution", how)
    policy = playing(how, tie_break)
    model = policy.model
    columns = outcome_columns(model, game)
    outcomes, sums = group(model, columns, reach(policy)[: model.n_terminal])
    possible = np.array([s != 0 for s in sums], dtype=bool)
    outcomes, sums = outcomes.filter(pl.Series(possible)), sums[possible]
    frame = outcomes.with_columns(probability=pl.Series(np.asarray(sums, dtype=np.float64)))
    if policy.exact:
        frame = frame.with_columns(exact=pl.Series([f"{s.numerator}/{s.denominator}" for s in sums],
                                                   dtype=pl.String))
    return frame


MOST_ROUND_STATES = 5_000
"""Round states up to which :func:`rounds_distribution` follows a game of rounds: each is
its round solved and played forward, and each carries the chance of every total so far."""


def check_rounds(model: Rounds) -> None:
    """Refuse (:class:`mdp.TooLarge`), before it is solved, a game of rounds with more round
    states than :func:`rounds_distribution` follows."""
    if model.n_round_states > MOST_ROUND_STATES:
        raise TooLarge(f"game {model.info.game}: {model.n_round_states:,} round states, too many to "
                       f"follow for the chance of every total (at most {MOST_ROUND_STATES:,}); "
                       "mdp simulate estimates it")


def rounds_distribution(solution: RoundsSolution, tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """The chance of every total of points of a game of rounds under optimal play: a round at a
    time, each round state's round solved (:meth:`mdp.RoundsSolution.at`) and its play pushed
    forward to the round's ends, each end passing on the chance of every total so far, moved
    by its points, to the round state it leads to. Columns ``points``, ``probability`` and,
    solved exactly, ``exact``; ties are broken by ``tie_break`` and then the game's order."""
    model = solution.model
    check_rounds(model)
    one = Fraction(1) if solution.exact else 1.0
    now: dict[int, dict[Any, Any]] = {model.start: {0: one}}
    ended: dict[Any, Any] = defaultdict(lambda: one * 0)
    for _ in range(model.n_rounds + 1):
        after: dict[int, dict[Any, Any]] = defaultdict(lambda: defaultdict(lambda: one * 0))
        keys = np.array(sorted(now), dtype=np.int64)
        ends = model.ends(keys)
        for row, key in enumerate(keys.tolist()):
            totals = now[key]
            if ends.next[row].max() < 0:  # the game is over
                for total, chance in totals.items():
                    ended[total] += chance
                continue
            chances = reach(solution.at(key), tie_break)[: model.round.n_terminal]
            for end in np.flatnonzero(chances != 0).tolist():
                nxt, points = int(ends.next[row, end]), ends.points[row, end]
                points = Fraction(points.item()) if solution.exact else float(points)
                for total, chance in totals.items():
                    after[nxt][total + points] += chance * chances[end]
        now = after
    if now:  # round states still playing past the last round: cannot be, see compile_rounds
        raise ModelError(f"game {model.info.game}: games still playing after its last round")
    totals = sorted(ended)
    whole = all(t == int(t) for t in totals)  # points in whole numbers, as a rule
    frame = pl.DataFrame({"points": [int(t) if whole else float(t) for t in totals],
                          "probability": [float(ended[t]) for t in totals]})
    if solution.exact:
        frame = frame.with_columns(exact=pl.Series([f"{ended[t].numerator}/{ended[t].denominator}"
                                                    for t in totals], dtype=pl.String))
    return frame
