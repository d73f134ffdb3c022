"""How a game ends under a way of playing: a forward pass over the compiled model gives the
chance of reaching every state, then the chance of every outcome (the terminal states grouped
by the columns the game names, :func:`~mdp.game.hookspecs.mdp_outcome_columns`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.engine.arithmetic import objects
from mdp.errors import ModelError
from mdp.engine.model import CompiledModel
from mdp.engine.solve import Solution
from mdp.analysis.strategy import play

if TYPE_CHECKING:
    import polars as pl

    from mdp.game.load import Game


def reach(solution: Solution, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The chance of reaching each state, in state order, playing as the solution says (its
    strategy, or optimal play with ties broken: :func:`mdp.choices`): floats, or fractions
    in an object array when the solution is exact."""
    model = solution.model
    p = play(solution, tie_break)
    if solution.exact:
        reached = objects([Fraction(0)] * model.n_states)
        table = objects([Fraction(x) for x in model.probabilities])
    else:
        reached = np.zeros(model.n_states)
        table = np.array([float(x) for x in model.probabilities])
    reached[model.initial] = 1
    state = model.action_state()
    for layer in range(model.n_layers - 1, 0, -1):  # every state before its successors
        a0, a1 = model.layer_actions(layer)
        model.push(layer, reached[state[a0:a1]] * p[a0:a1], reached, table)
    return reached


def outcome_columns(model: CompiledModel, game: Game | None = None) -> list[str]:
    """The columns of :attr:`model.terminals <mdp.CompiledModel.terminals>` that make an
    outcome: the game's (:func:`~mdp.game.hookspecs.mdp_outcome_columns`), else ``value``."""
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
    import polars as pl

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


def distribution(solution: Solution, game: Game | None = None, *,
                 tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """The chance of every outcome, as a Polars DataFrame: the outcome columns (those the
    game names; else ``value``), ``probability`` and, for an exact solution, ``exact``
    (``"p/q"``). The probabilities sum to 1, exactly in exact mode.

    Play is the solution's: a strategy (:func:`mdp.evaluate`), or optimal play with its ties
    broken by ``tie_break`` and then the game's order (:func:`mdp.choices`).

    >>> mdp.distribution(mdp.solve(model, exact=True), game)   # doctest: +SKIP
    """
    import polars as pl

    model = solution.model
    columns = outcome_columns(model, game)
    outcomes, sums = group(model, columns, reach(solution, tie_break)[: model.n_terminal])
    frame = outcomes.with_columns(probability=pl.Series(np.asarray(sums, dtype=np.float64)))
    if solution.exact:
        frame = frame.with_columns(exact=pl.Series([f"{s.numerator}/{s.denominator}" for s in sums],
                                                   dtype=pl.String))
    return frame
