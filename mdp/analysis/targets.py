"""Playing a game of rounds for a total: the best chance of finishing with at least ``T``
points (:func:`at_least`, every ``T`` at once), beside the chance that best-mean play gives
(:func:`best_mean_chances`, from its distribution of totals), and both for every total
(:func:`targets`)."""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import polars as pl

from mdp.checks import CALLBACK, FLAG, MAX_MEMORY, MODEL, OPTIONAL_GAME, OPTIONAL_INTEGER, arguments
from mdp.engine.rounds.reach import Reach, solve_reach
from mdp.errors import ParamError, TooLarge

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds import Rounds
    from mdp.engine.rounds.payoff import Payoff
    from mdp.engine.solved import Solved
    from mdp.game.load import Game

__all__ = ["Reach", "at_least", "best_mean_chances", "targets"]


def at_least(model: CompiledModel | Rounds, *, exact: bool = False,
             progress: Callable[[str], None] | None = None,
             max_memory: int | None | Literal["default"] = "default",
             start_only: bool = False, total: int | None = None) -> Reach:
    """The best chance of finishing a game of rounds with at least every total of points, a
    :class:`mdp.Reach`: ``mdp.at_least(model).chance(T)`` is the chance of at least ``T``
    under the play best for ``T`` (exact with ``exact=True``: points must then be whole, as
    for any ``T``). One backward sweep over the rounds solves every total at once, each
    round state with a vector over the points still needed (:mod:`mdp.engine.rounds.reach`),
    in no more memory than ``max_memory`` (refused, :class:`mdp.TooLarge`, before the work).
    With ``start_only``, only two rounds' vectors are held at a time and the answer is the
    start's alone (:meth:`~mdp.Reach.chance` and :meth:`~mdp.Reach.curve` from the start):
    far less memory, for the chances of the game's totals without its play. With ``total``,
    each round state's vector holds only the points still needed that ``total`` from the start
    can leave it: the chance of ``total`` the same, bit for bit, for less work; other totals, and
    needs of other round states past what that leaves them, are refused.

    >>> mdp.at_least(mdp.compile(game), exact=True).chance(50)   # doctest: +SKIP
    """
    arguments("at_least", model=(model, MODEL), exact=(exact, FLAG), progress=(progress, CALLBACK),
              max_memory=(max_memory, MAX_MEMORY), start_only=(start_only, FLAG),
              total=(total, OPTIONAL_INTEGER))
    rounds = model.of_rounds("the chance of at least a total")
    check_most(rounds.info.game, rounds.info.objective.sense, "the chance of at least a total")
    return solve_reach(rounds, exact=exact, progress=progress, max_memory=max_memory,
                       start_only=start_only, total=total)


def check_most(game: str, sense: str, what: str) -> None:
    """Refuse ``what``, play for at least a total, for a game whose objective is the least
    total: there more is worse, and at least a total no aim of the game's."""
    if sense == "min":
        raise ParamError(f"game {game} plays for the least total (its objective minimizes), and "
                         f"{what} plays for at least a total: it is for a game that plays for the most")


def best_mean_chances(solution: Solved, *, progress: Callable[[str], None] | None = None,
                      max_memory: int | None | Literal["default"] = "default"
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Under the play of ``solution`` (best mean, or a strategy), the chance of at least
    each total it can end with: those totals, in order, and the chance of at least each (1
    at the first), exact where the solution is; from its distribution of totals
    (:func:`mdp.distribution`), whose totals are whole here. Only the totals that play
    ends with are held, however far apart."""
    from mdp.analysis.distribution import distribution

    frame = distribution(solution, progress=progress, max_memory=max_memory)
    if solution.exact:
        chances: Any = [Fraction(text) for text in frame["exact"].to_list()]
    else:
        chances = frame["probability"].to_list()
    totals, at = np.unique(frame["points"].to_numpy().astype(np.int64), return_inverse=True)
    each = np.zeros(len(totals), dtype=object if solution.exact else np.float64)
    each[:] = Fraction(0) if solution.exact else 0.0
    for i, chance in zip(at.ravel().tolist(), chances):
        each[i] += chance
    # At least t: the chances of t and more, summed from the top.
    return totals, np.cumsum(each[::-1])[::-1]


def chance_of(totals: np.ndarray, above: np.ndarray, total: int, exact: bool) -> Any:
    """The chance of at least ``total`` from :func:`best_mean_chances`' totals and chances."""
    at = int(np.searchsorted(totals, total))
    if at == 0:
        return Fraction(1) if exact else 1.0
    if at == len(totals):
        return Fraction(0) if exact else 0.0
    return above[at]


def no_worse(best: Any, mean: Any) -> Any:
    """The best chance of a total beside best-mean play's chance of it: never below, as
    best-mean play is one of the plays it is the best of. In floats the two sums round
    apart, a few units of the last place either way: there the larger (exact chances are
    ordered already)."""
    return max(best, mean)


def targets(model: CompiledModel | Rounds, game: Game | None = None, *, exact: bool = False,
            progress: Callable[[str], None] | None = None,
            max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of at least every total from the least a game of rounds surely earns (0
    where that is more) to the most it can earn (0 where that is less): one row per total,
    ``at_least``, ``chance`` (under the play best for that total,
    :func:`at_least`) and ``chance_best_mean`` (under best-mean play, as :func:`mdp.distribution`
    plays it); exact, ``chance_exact`` and ``chance_best_mean_exact`` too (``"p/q"``). What
    ``mdp targets`` writes."""
    arguments("targets", model=(model, MODEL), game=(game, OPTIONAL_GAME), exact=(exact, FLAG),
              progress=(progress, CALLBACK), max_memory=(max_memory, MAX_MEMORY))
    from mdp.engine.solve import solve

    rounds = model.of_rounds("the chance of at least every total")
    check_targets(rounds, exact=exact, max_memory=max_memory)
    reach = at_least(rounds, exact=exact, progress=progress, max_memory=max_memory,
                     start_only=True)
    solution = solve(rounds, exact=exact, progress=progress)
    ended, above = best_mean_chances(solution, progress=progress, max_memory=max_memory)
    sure, most = reach.bounds()[0], max(reach.most, 0)
    first = min(sure, 0)
    mean = _column(first, most, int(ended[0]), lambda t: chance_of(ended, above, t, exact))
    best = _column(first, most, sure, reach.chance)
    columns = {"chance": [no_worse(b, m) for b, m in zip(best, mean)], "chance_best_mean": mean}
    frame = pl.DataFrame({"at_least": pl.Series(np.arange(first, most + 1), dtype=pl.Int64)} | {
        name: pl.Series([float(c) for c in chances], dtype=pl.Float64)
        for name, chances in columns.items()})
    if exact:  # each distinct chance written once
        texts = {c: fraction_text(c) for chances in columns.values() for c in set(chances)}
        frame = frame.with_columns(**{f"{name}_exact": pl.Series(
            [texts[c] for c in chances], dtype=pl.String) for name, chances in columns.items()})
    return frame


def _column(first: int, most: int, sure: int, chance: Callable[[int], Any]) -> list[Any]:
    """``chance(t)`` for every total ``t`` from ``first`` to ``most``: asked only above
    ``sure``, the least total surely reached, at and below which every chance is 1 (the
    same object)."""
    ones = min(max(sure, first - 1), most) - first + 1
    one = chance(first) if ones else None
    return [one] * ones + [chance(t) for t in range(first + ones, most + 1)]


MOST_TOTALS = 1_000_000
"""The most rows of a table of targets (a total each, from the least to the most a game can earn),
in floats; in exact numbers, :data:`~mdp.engine.rounds.reach.MOST_EXACT_COLUMNS`."""


def check_targets(model: Rounds, *, exact: bool = False,
                  max_memory: int | None | Literal["default"] = "default",
                  most_rows: int | None = None) -> None:
    """Refuse, before any work, a table of targets that cannot be made: chances of every
    total that cannot be followed or swept (:meth:`mdp.Rounds.check_chances`,
    :func:`~mdp.engine.rounds.reach.check_reach`), or more totals from 0 to the most the
    points can reach (a bound, from the most points of each round) than a table may have
    (:data:`MOST_TOTALS`; exactly, :data:`~mdp.engine.rounds.reach.MOST_EXACT_COLUMNS`), or
    than ``most_rows`` (a Markdown table's; the totals' rows counted from the least and most
    a game ends with where the bound is more)."""
    from mdp.engine.rounds.payoff import AT_LEAST
    from mdp.engine.rounds.reach import MOST_EXACT_COLUMNS
    from mdp.engine.rounds.window import earned, whole_points

    check_chance_of_total(model, exact=exact, max_memory=max_memory)
    spans = model.points()
    least = min(0, sum(math.floor(low) for low, _ in spans))
    most = max(0, sum(math.ceil(high) for _, high in spans))
    limit = MOST_EXACT_COLUMNS if exact else MOST_TOTALS
    if most - least + 1 > limit:
        raise TooLarge(f"game {model.info.game}: the chance of at least every total the points "
                       f"can reach, up to {most - least + 1:,}, is more rows than the "
                       f"{limit:,} a table of targets may have{' in exact numbers' if exact else ''}; "
                       "ask for one total instead (mdp solve GAME --at-least T)")
    if most_rows is not None and most - least + 1 > most_rows:
        low, high = earned(model, lambda ends, keys: whole_points(model, ends, keys, AT_LEAST))[1]
        rows = max(high, 0) - min(low, 0) + 1
        if rows > most_rows:
            raise TooLarge(f"game {model.info.game}: the table of targets has {rows:,} rows, too "
                           f"many for a Markdown table (at most {most_rows:,}), which is for "
                           "people to read; write CSV or Parquet (--out FILE.csv)")


def check_chance_of_total(model: Rounds, *, exact: bool = False,
                          max_memory: int | None | Literal["default"] = "default",
                          total: int | None = None) -> None:
    """Refuse, before any work, the chance of at least a total under best play and under
    best-mean play (``mdp solve --at-least``; a table of targets is each row's): points
    that are not whole (:func:`check_whole`), chances of every total that cannot be followed
    or swept (:meth:`mdp.Rounds.check_chances`, :func:`~mdp.engine.rounds.reach.check_reach`:
    toward ``total`` from the start, or every total for a table of targets, ``None``)."""
    from mdp.engine.rounds.reach import check_reach

    check_whole(model)
    model.check_chances(exact=exact, max_memory=max_memory)
    check_reach(model, exact=exact, max_memory=max_memory, start_only=True, total=total)


def check_whole(model: Rounds, payoff: Payoff | None = None) -> None:
    """The rule of every command that follows totals (the chance of at least a total, a
    table of targets, a match, play toward a total; ``payoff`` says which): whole points,
    each less than 2**49 in size, so that totals fit in 64 bits. Checked before any work on
    the rounds whose least or most points break it (a point between them is refused as the
    sweep meets it, in the same words), where a bound of size or memory spoke first."""
    from mdp.engine.rounds.payoff import AT_LEAST
    from mdp.engine.rounds.rule import INT64
    from mdp.engine.rounds.window import whole_points  # the one wording of the rule

    for (least, most), keys in zip(model.points(), model.keys):
        if any(Fraction(p).denominator != 1 or abs(p) >= INT64 for p in (least, most)):
            whole_points(model, model.rule(keys), keys, payoff or AT_LEAST)


def fraction_text(value: Any) -> str:
    """An exact number as ``"p/q"``."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def rounds_match(model: Rounds, *, exact: bool = False,
                 progress: Callable[[str], None] | None = None,
                 max_memory: int | None | Literal["default"] = "default"
                 ) -> tuple[Any, tuple[Any, Any, Any]]:
    """Two players take turns at a game of rounds, the better total (the higher, or the
    lower where the game minimizes) winning one stake, each playing for money: the second,
    knowing the first's total ``T``, for the best expected winnings, 1 past ``T``, 0 at it and
    -1 short of it, played best jointly (a :func:`~mdp.engine.rounds.payoff.beating` payoff of
    the points still needed, every ``T`` in one sweep); the first for the best of what the
    second leaves them, minus the second's best winnings, a payoff of their own total in a
    second sweep, toward their one target, 0 (each round state's vector only as wide as the
    totals before it make it). The first player's expected winnings, and the chance that the first wins,
    that the second does, and of a tie: under each sweep's play, the chance of winning
    evaluated backward beside it (:func:`~mdp.engine.rounds.under.evaluate_under`), the
    second's for every total of the first's at once, then the first's of their total (the
    chance that the second loses against it); each player's winnings are their chance of
    winning less the other's, which gives the rest."""
    from mdp.engine.rounds.payoff import Payoff, beating
    from mdp.engine.rounds.under import evaluate_under

    check_match(model, exact=exact, max_memory=max_memory)
    sense = model.info.objective.sense
    second = solve_reach(model, exact=exact, progress=progress, max_memory=max_memory,
                         payoff=beating(sense))
    # Under the second's play, against every total of the first's: the chance that the
    # second wins (a stake won, 1). Their winnings are that less the chance that they lose.
    (wins,) = evaluate_under(second, [Payoff(second.payoff.first, tuple(
        int(v == 1) for v in second.payoff.values))], progress)
    _, high = second.bounds()

    def of_total(reach: Reach) -> list[Any]:
        # What a payoff of the second's is worth against each total T of the first's, from
        # T = high + 1 (the second surely short of it) down to low - 1 (surely past it): in
        # the order of the first's points still needed toward their target, below.
        return [reach.payoff.values[0], *reach.curve()[1].tolist(), reach.payoff.values[-1]][::-1]

    # The first's total T is worth -V(T) to them, V the second's best winnings against it;
    # the first wins against T with the chance that the second loses, their wins less V.
    worth = of_total(second)
    del second  # its vectors let go before the first's sweep
    zero, one = (0, 1) if exact else (0.0, 1.0)
    losing = [min(max(w - v, zero), one) for w, v in zip(of_total(wins), worth)]
    # The first plays toward one target, each round state's vector only as wide as their
    # totals so far make it (a window); a target within the totals the points can reach
    # (one further off is held there), their least, ``aim``: the first's total T is then
    # aim - n, n the points still needed, the payoff from n = aim - high - 1.
    aim = sum(math.floor(least) for least, _ in model.points())
    first = solve_reach(model, exact=exact, progress=progress, max_memory=max_memory,
                        payoff=Payoff(aim - high - 1, tuple(-v for v in worth)), total=aim)
    (beaten,) = evaluate_under(first, [Payoff(first.payoff.first, tuple(losing))], progress)
    # The first's winnings are the chance that they win less the chance that the second does.
    value, first_wins = first.chance(aim), beaten.chance(aim)
    second_wins = min(max(first_wins - value, zero), one)
    return value, (first_wins, second_wins, max(one - first_wins - second_wins, zero))


def check_match(model: Rounds, *, exact: bool = False,
                max_memory: int | None | Literal["default"] = "default") -> None:
    """Refuse, before any work, a match of a game of rounds that cannot be played: floats
    given to be solved exactly; either player's vectors over the totals, every round's and
    two rounds' of the chance of winning evaluated beside them
    (:func:`~mdp.engine.rounds.under.check_under`: the first's toward their one target, as
    wide as the spread of totals more and no wider than the points before) past
    ``max_memory``, or, exactly, too many (:func:`~mdp.engine.rounds.reach.check_reach`).
    As for a table of targets, its time is not bounded: each sweep says its rounds as it goes."""
    from mdp.engine.rounds.payoff import Payoff, beating
    from mdp.engine.rounds.reach import check_reach
    from mdp.engine.rounds.under import check_under
    from mdp.engine.rounds.values import check_exact

    if exact:
        check_exact(model)
    second = beating(model.info.objective.sense)
    check_whole(model, second)
    spread = sum(math.ceil(most) - math.floor(least) for least, most in model.points())
    # The second's first: its vectors are as wide as the spread, so that the first's payoff,
    # made next as wide, is only made where the budget holds them (2**30 points a round took
    # 17 GB to be refused).
    for payoff, one_total in ((second, False), (None, True)):
        payoff = payoff or Payoff(0, (0,) * (spread + 3))
        if exact:
            check_reach(model, exact=True, payoff=payoff, one_total=one_total)
        else:
            check_under(model, payoff, 1, "a match", max_memory, one_total)


def check_earned(model: Rounds, game: Any, *, first: int | None = None,
                 columns: dict[str, Any] | None = None, points: int = 0,
                 payoff: Payoff | None = None, command: bool = True) -> None:
    """Refuse, before the solve, a first player's total ``first`` that no game ends with,
    and ``points`` so far that the round state ``columns`` name is never reached with:
    outside the least and most a forward pass over the rounds finds
    (:func:`mdp.engine.rounds.window.earned`, once a model and payoff). The options are
    named as the command line's (``--points 5``) or, not ``command``, as Python's
    (``points=5``)."""
    from mdp.engine.rounds.payoff import AT_LEAST
    from mdp.engine.rounds.table import find_round_state
    from mdp.engine.rounds.totals import positions
    from mdp.engine.rounds.window import earned, whole_points

    def option(name: str, value: Any) -> str:
        return f"--{name} {value}" if command else f"{name}={value}"

    check_whole(model, payoff)
    found = _EARNED.setdefault(model, {})
    if payoff not in found:
        found[payoff] = earned(
            model, lambda ends, keys: whole_points(model, ends, keys, payoff or AT_LEAST))
    before, (least, most) = found[payoff]
    if first is not None and not least <= first <= most:
        raise ParamError(f"{option('after', first)}: game {model.info.game} ends with a total "
                         f"from {least} to {most}, never {first}")
    if columns is not None:
        key, named = find_round_state(model, game, columns)
        r = model.round_of(key)
        at = int(positions(model.keys[r])(np.array([key]))[0])
        low, high = int(before[r][0][at]), int(before[r][1][at])
        if not low <= points <= high:
            said = ", ".join(f"{c}={v}" for c, v in named.items())
            raise ParamError(f"{option('points', points)} (the points so far, 0 unless given): the "
                             f"round state {said} of game {model.info.game} is reached having earned "
                             f"from {low} to {high} points, never {points}")


_EARNED: weakref.WeakKeyDictionary[Rounds, dict[Any, Any]] = weakref.WeakKeyDictionary()
"""What :func:`check_earned` found of a model, by payoff: the command line checks before
the solve, and the advice it gives checks again, as it does called from Python."""
