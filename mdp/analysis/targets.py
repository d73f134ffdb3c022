"""Playing a game of rounds for a total: the best chance of finishing with at least ``T``
points (:func:`at_least`, every ``T`` at once), beside the chance that best-mean play gives
(:func:`best_mean_chances`, from its distribution of totals), and both for every total
(:func:`targets`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import polars as pl

from mdp.checks import CALLBACK, FLAG, MAX_MEMORY, MODEL, OPTIONAL_GAME, arguments
from mdp.engine.rounds.reach import Reach, solve_reach

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds import Rounds
    from mdp.engine.solved import Solved
    from mdp.game.load import Game

__all__ = ["Reach", "at_least", "best_mean_chances", "targets"]


def at_least(model: CompiledModel | Rounds, *, exact: bool = False,
             progress: Callable[[str], None] | None = None,
             max_memory: int | None | Literal["default"] = "default") -> Reach:
    """The best chance of finishing a game of rounds with at least every total of points, a
    :class:`mdp.Reach`: ``mdp.at_least(model).chance(T)`` is the chance of at least ``T``
    under the play best for ``T`` (exact with ``exact=True``: points must then be whole, as
    for any ``T``). One backward sweep over the rounds solves every total at once, each
    round state with a vector over the points still needed (:mod:`mdp.engine.rounds.reach`),
    in no more memory than ``max_memory`` (refused, :class:`mdp.TooLarge`, before the work).

    >>> mdp.at_least(mdp.compile(game), exact=True).chance(50)   # doctest: +SKIP
    """
    arguments("at_least", model=(model, MODEL), exact=(exact, FLAG), progress=(progress, CALLBACK),
              max_memory=(max_memory, MAX_MEMORY))
    rounds = model.of_rounds("the chance of at least a total")
    return solve_reach(rounds, exact=exact, progress=progress, max_memory=max_memory)


def best_mean_chances(solution: Solved, *, progress: Callable[[str], None] | None = None,
                      max_memory: int | None | Literal["default"] = "default") -> tuple[int, np.ndarray]:
    """Under the play of ``solution`` (best mean, or a strategy), the chance of at least
    each total: the least total ``low``, and the chance of at least ``low``, ``low + 1``, ...
    up to the most that play earns (1 at ``low``), exact where the solution is; from its
    distribution of totals (:func:`mdp.distribution`), whose totals are whole here."""
    from mdp.analysis.distribution import distribution

    frame = distribution(solution, progress=progress, max_memory=max_memory)
    points = frame["points"].to_numpy().astype(np.int64)
    if solution.exact:
        chances: Any = [Fraction(text) for text in frame["exact"].to_list()]
    else:
        chances = frame["probability"].to_list()
    low = int(points.min())
    each = np.zeros(int(points.max()) - low + 1, dtype=object if solution.exact else np.float64)
    each[:] = Fraction(0) if solution.exact else 0.0
    for total, chance in zip(points.tolist(), chances):
        each[total - low] += chance
    # At least t: the chances of t and more, summed from the top.
    return low, np.cumsum(each[::-1])[::-1]


def chance_of(low: int, above: np.ndarray, total: int, exact: bool) -> Any:
    """The chance of at least ``total`` from :func:`best_mean_chances`' ``low`` and chances."""
    if total <= low:
        return Fraction(1) if exact else 1.0
    if total - low >= len(above):
        return Fraction(0) if exact else 0.0
    return above[total - low]


def targets(model: CompiledModel | Rounds, game: Game | None = None, *, exact: bool = False,
            progress: Callable[[str], None] | None = None,
            max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of at least every total from 0 to the most a game of rounds can earn: one
    row per total, ``at_least``, ``chance`` (under the play best for that total,
    :func:`at_least`) and ``chance_best_mean`` (under best-mean play, as :func:`mdp.distribution`
    plays it); exact, ``chance_exact`` and ``chance_best_mean_exact`` too (``"p/q"``). What
    ``mdp targets`` writes."""
    arguments("targets", model=(model, MODEL), game=(game, OPTIONAL_GAME), exact=(exact, FLAG),
              progress=(progress, CALLBACK), max_memory=(max_memory, MAX_MEMORY))
    from mdp.engine.solve import solve

    rounds = model.of_rounds("the chance of at least every total")
    rounds.check_chances(exact=exact, max_memory=max_memory)
    reach = at_least(rounds, exact=exact, progress=progress, max_memory=max_memory)
    solution = solve(rounds, exact=exact, progress=progress)
    low, above = best_mean_chances(solution, progress=progress, max_memory=max_memory)
    totals = range(max(reach.most, 0) + 1)
    best = [reach.chance(t) for t in totals]
    mean = [chance_of(low, above, t, exact) for t in totals]
    frame = pl.DataFrame({"at_least": pl.Series(list(totals), dtype=pl.Int64),
                          "chance": pl.Series([float(c) for c in best], dtype=pl.Float64),
                          "chance_best_mean": pl.Series([float(c) for c in mean], dtype=pl.Float64)})
    if exact:
        frame = frame.with_columns(
            chance_exact=pl.Series([fraction_text(c) for c in best], dtype=pl.String),
            chance_best_mean_exact=pl.Series([fraction_text(c) for c in mean], dtype=pl.String))
    return frame


def fraction_text(value: Any) -> str:
    """An exact number as ``"p/q"``."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def rounds_match(model: Rounds, *, players: int = 2, exact: bool = False,
                 progress: Callable[[str], None] | None = None) -> tuple[Any, Any, Any]:
    """Two players take turns at a game of rounds, the higher total winning: the first plays
    for the best mean, the second, knowing the first's total, for the best chance of beating
    it (:func:`at_least` of one more). The chance that the first wins, that the second does,
    and of a tie: the second's chance of each total played so, round state by round state
    and total so far (:func:`~mdp.engine.rounds.toward.toward_distribution`), for each total
    of the first's that can happen."""
    from mdp.engine.rounds.toward import toward_distribution
    from mdp.engine.solve import solve
    from mdp.errors import ParamError

    if players != 2:
        raise ParamError(f"a match of a game of rounds is of 2 players, not {players}: the "
                         "second plays to beat the first's total")
    reach = at_least(model, exact=exact, progress=progress)  # first: whole points, checked
    solution = solve(model, exact=exact, progress=progress)
    low, above = best_mean_chances(solution, progress=progress)
    zero: Any = Fraction(0) if exact else 0.0
    second, tie = zero, zero
    each = [above[i] - (above[i + 1] if i + 1 < len(above) else zero) for i in range(len(above))]
    for first, chance in zip(range(low, low + len(above)), each):
        if chance == 0:
            continue
        beat = reach.chance(first + 1)
        shares = toward_distribution(reach, first + 1)
        same = shares.filter(pl.col("points") == first)
        tied = (Fraction(same["exact"][0]) if exact else same["probability"][0]) if same.height \
            else zero
        second += chance * beat
        tie += chance * tied
    return 1 - second - tie, second, tie
