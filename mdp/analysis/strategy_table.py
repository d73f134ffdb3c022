"""Every strategy a game names valued beside optimal play: the table of ``mdp strategies``
(:func:`strategy_values`). The strategies themselves are :mod:`mdp.analysis.strategy`'s."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import polars as pl

from mdp.analysis.labels import worded
from mdp.analysis.strategy import evaluate, strategies
from mdp.analysis.targets import fraction_text
from mdp.checks import CALLBACK, FLAG, GAME, MODEL, OPTIONAL_SOLVED, SENSE, arguments, same_solve
from mdp.engine.model import CompiledModel
from mdp.engine.policy import FLOAT_TIE, OPTIMAL, Sense
from mdp.engine.rounds import Rounds
from mdp.engine.solve import solve
from mdp.engine.solved import Solved
from mdp.errors import ModelError
from mdp.shown import play_aimed, shown_float

if TYPE_CHECKING:
    from mdp.game.load import Game

def strategy_values(model: CompiledModel | Rounds, game: Game, *, exact: bool = False,
                    sense: Sense | None = None,
                    progress: Callable[[str], None] | None = None,
                    optimal: Solved | None = None) -> pl.DataFrame:
    """Optimal play and every strategy the game names, with their values: a Polars DataFrame
    with ``strategy``, ``value`` (a float), ``exact`` (``"p/q"``, exact mode only), ``regret``
    (the value lost against optimal play) and ``help``; in a game of two players each plays
    against the optimal policy kept as it is, not the best reply to it. ``model`` is a
    compiled model, or a compiled game of rounds (:class:`mdp.Rounds`). ``optimal``, the
    model's optimal solution where the caller has it (solved as ``exact`` says), is not
    solved again; each strategy is valued as it was solved: in its sense, with its terminal
    values (its own, where it was solved with ``terminal=``).

    A strategy that cannot be evaluated stops no other: no value, and ``problem`` says why."""
    arguments("strategy_values", model=(model, MODEL), game=(game, GAME), exact=(exact, FLAG),
              sense=(sense, SENSE), progress=(progress, CALLBACK), optimal=(optimal, OPTIONAL_SOLVED))
    same_solve("strategy_values", optimal, model, exact, sense)
    if optimal is None:
        optimal = solve(model, exact=exact, sense=sense, progress=progress)
    # Each strategy valued on what the optimum was: its terminal values, in its sense.
    terminal, sense = optimal.terminal, optimal.sense
    rows: list[tuple[str, float | Fraction | None, str, str | None]] = [
        (OPTIMAL, optimal.value, "the best play" if sense == optimal.objective.sense else
         play_aimed(sense, optimal.objective.sense), None)]
    for strategy in strategies(game).values():
        try:
            value, problem = evaluate(model, strategy, game=game, exact=exact, terminal=terminal,
                                      sense=sense, progress=progress).value, None
        except ModelError as error:  # its round states named as everywhere, with their columns
            value, problem = None, str(worded(error, game))
        rows.append((strategy.name, value, strategy.help, problem))
    best = optimal.value
    sign = 1 if sense == "max" else -1
    values = [r[1] for r in rows]
    columns: dict[str, Any] = {"strategy": [r[0] for r in rows],
                               "value": pl.Series([None if v is None else shown_float(v) for v in values],
                                                  dtype=pl.Float64)}
    if exact:
        columns["exact"] = pl.Series([v if v is None else fraction_text(v) for v in values],
                                     dtype=pl.String)
    # + 0.0: the optimum's regret is 0, not the -0.0 of a float times -1; in floats, within
    # the tie of the optimum (FLOAT_TIE of it) is a tie, not a strategy better by noise.
    tie = 0.0 if exact else FLOAT_TIE * abs(shown_float(best))
    regrets = [None if v is None else shown_float(sign * (best - v)) + 0.0 for v in values]
    columns["regret"] = pl.Series([r if r is None or abs(r) > tie else 0.0 for r in regrets],
                                  dtype=pl.Float64)
    columns["help"] = [r[2] for r in rows]
    if any(r[3] for r in rows):
        columns["problem"] = pl.Series([r[3] for r in rows], dtype=pl.String)
    return pl.DataFrame(columns)
