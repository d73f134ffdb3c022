"""Playing a game of rounds for a total (a built-in plugin, see :mod:`mdp.analysis.registry`):
the ``targets`` analysis, the best chance of at least every total beside best-mean play's,
and what ``mdp solve --at-least T`` prints."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

import mdp
from mdp.analysis.builtins import options
from mdp.analysis.registry import Analysis, program_arguments
from mdp.errors import ParamError
from mdp.game.params import Param
from mdp.hookspecs import hookimpl
from mdp.outputs.files import say_when_written
from mdp.outputs.readable import exactly, readable, shown_float
from mdp.shown import percent

if TYPE_CHECKING:
    import polars as pl

    from mdp.engine.policy import Sense
    from mdp.engine.solved import Solved
    from mdp.program import arguments
else:  # the command line's, imported when a command uses them: mdp.analyse needs no program
    arguments = program_arguments()


def _chance(value: Any) -> str:
    """A chance in words: its percentage, and the number (exact: by its size where no float
    holds it, ``1e-360``, never the float's 0)."""
    number = exactly(float(value), str(value)) if isinstance(value, Fraction) else readable(float(value))
    return f"{percent(value)} ({number})"


# mdp targets


def _targets(model: mdp.CompiledModel | mdp.Rounds, game: mdp.Game | None, *, exact: bool,
             sense: Sense | None, progress: Callable[[str], None] | None, plot: str | None,
             max_memory: int | None) -> pl.DataFrame:
    from mdp.analysis.targets import targets

    frame = targets(model, game, exact=exact, progress=progress, max_memory=max_memory or "default")
    if plot:
        from mdp.outputs.plot import plot_targets  # here: drawing needs matplotlib

        rules = game.describe() if game is not None else model.info.rules
        plot_targets(frame, plot, rules)
        say_when_written(f"the picture written to {plot}")
    return frame


def _of_rounds(game: mdp.Game, what: str) -> None:
    """Refuse, once the game is loaded and before any work, a game that is not played in
    rounds, or whose objective is the least total (:func:`mdp.analysis.targets.check_most`)."""
    from mdp.analysis.targets import check_most

    if not game.in_rounds:
        raise ParamError(f"game {game.name} is of one model, and {what} is for a game played "
                         "in rounds")
    check_most(game.name, game.objective.sense, what)


def _gain(frame: pl.DataFrame) -> str:
    """What playing for each total gains over best-mean play, where it gains most: exactly
    nothing (or, in floats, within FLOAT_TIE) said so."""
    from mdp.engine.policy import FLOAT_TIE  # the engine's numpy: not imported for --help

    if "chance_exact" in frame.columns:
        gap: list[Any] = [Fraction(a) - Fraction(b) for a, b in
                          zip(frame["chance_exact"], frame["chance_best_mean_exact"])]
    else:
        gap = [g if g > FLOAT_TIE else 0 for g in (frame["chance"] - frame["chance_best_mean"])]
    widest = max(range(len(gap)), key=lambda i: gap[i]) if gap else 0
    if not gap or gap[widest] <= 0:
        return "playing for each total gains nothing over best-mean play"
    points = 100 * float(gap[widest])  # a gain too small for four decimals by its digits
    amount = f"{points:+.4f}" if points >= 5e-5 else f"{points:+.3g}"
    return (f"playing for each total gains most over best-mean play at {frame['at_least'][widest]} or more, "
            f"{amount} percentage points")


def _show(frame: pl.DataFrame, model: Any, game: mdp.Game) -> None:
    print(game.describe())
    print(f"totals {frame['at_least'][0]} to {frame['at_least'][-1]}: {_gain(frame)}")
    exact = "chance_exact" in frame.columns
    print(" at_least      chance  best-mean play" + ("  exact, then best-mean play's" if exact else ""))
    for row in frame.iter_rows(named=True):
        more = f"  {row['chance_exact']}  {row['chance_best_mean_exact']}" if exact else ""
        # (from the fractions where exact: one no float holds by its size is not 0.0000%)
        best, mean = ((Fraction(row[c]) for c in ("chance_exact", "chance_best_mean_exact")) if exact
                      else (row["chance"], row["chance_best_mean"]))
        print(f"{row['at_least']:>9}  {percent(best):>10}  {percent(mean):>14}{more}")


TARGETS = Analysis(
    "targets", "the best chance of at least every total, beside best-mean play's", _targets,
    [Param("plot", None, options.text, "draw both chances of at least each total, and their gap, to "
           "FILE (.png or .svg; needs matplotlib)", metavar="FILE"),
     Param("max_memory", None, options.size, "the most bytes that the chances of every total may "
           "take (default: as a model compiled, --max-memory)", shared=True)],
    "A game of rounds: for every total from 0 (or the least it surely earns, where points may "
    "be negative) to the most its points can reach, the best "
    "chance of finishing with at least that total (each total played for on its own), and "
    "the chance under the play of the best mean; exactly with --exact.",
    needs="model", optimizes=False, rounds=True, check=options.check_plot,
    check_game=lambda game, args: _of_rounds(game, "mdp targets"),
    check_model=lambda model, args: _followable(model, args),
    summary=lambda frame, model: {**model.info.summary(), "totals": frame.to_dicts()}, show=_show)


def _followable(model: mdp.Rounds, args: argparse.Namespace) -> None:
    """Refuse, once compiled and before any solve, chances of every total that could take
    more memory than the budget, or too many to work out exactly (best-mean play's too), or
    a table of more totals than it may have, a Markdown table's too
    (:func:`mdp.analysis.targets.check_targets`)."""
    from mdp.analysis.targets import check_targets
    from mdp.outputs.formats import most_rows

    check_targets(model, exact=args.exact, max_memory=args.max_memory or "default",
                  most_rows=most_rows(args.written))


# --at-least T of mdp advise and mdp distribution: play toward a total.


AT_LEAST = Param("at_least", None, options.total, "a game of rounds: play for the best "
                 "chance of finishing with at least T points in all, rather than the best mean",
                 metavar="T")
POINTS = Param("points", 0, options.points, "in a game of rounds, with --at-least or --after: "
               "the points earned so far (less than 0 where a game's points may be)", metavar="P")


def check_toward(args: argparse.Namespace, what: str) -> None:
    """``--at-least`` and ``--points`` where they apply, before any work: ``--points`` with
    ``--at-least`` or ``--after`` only, ``--at-least`` with no strategy, ``--minimize`` or
    ``what``."""
    given = getattr(args, what.strip("-").replace("-", "_"), None)
    if args.at_least is None:
        if getattr(args, "points", 0) and not (what == "--after" and given):
            raise ParamError("--points is the points earned so far toward --at-least T (or, "
                             "advising, to beat --after's total); give --at-least too")
        return
    if args.strategy not in (None, "optimal") or args.sense or given:
        raise ParamError(f"--at-least plays for the chance of the total: --strategy, "
                         f"--maximize, --minimize and {what} do not apply")


def check_toward_game(game: mdp.Game, args: argparse.Namespace) -> None:
    """``--at-least`` for a game played in rounds that plays for the most, once the game is
    loaded and before any work."""
    if getattr(args, "at_least", None) is not None:
        _of_rounds(game, "--at-least")


def check_toward_model(model: Any, args: argparse.Namespace, follow: bool = False) -> None:
    """``--at-least`` once the game is compiled and before the solve: the chances of every
    total it needs that cannot be held, or are too many to work out exactly; with ``follow``
    (``mdp distribution``), the play followed round state by round state for too many."""
    if getattr(args, "at_least", None) is None:
        return
    from mdp.analysis.targets import check_whole
    from mdp.engine.rounds.reach import check_reach
    from mdp.engine.rounds.totals import MOST_ROUND_STATES

    rounds = model.of_rounds("--at-least")
    check_whole(rounds)
    check_reach(rounds, exact=args.exact, max_memory=args.max_memory or "default", total=args.at_least)
    if follow and rounds.n_round_states > MOST_ROUND_STATES:
        raise mdp.TooLarge(f"game {rounds.info.game}: {rounds.n_round_states:,} round states, too "
                           "many to follow one by one for the chance of every total played toward a "
                           f"total (at most {MOST_ROUND_STATES:,}); mdp simulate --at-least estimates it")


def against_or_toward(model: Any, args: argparse.Namespace) -> None:
    """``mdp simulate``'s checks once compiled: ``--against`` and ``--at-least``."""
    from mdp.analysis.builtins.against import against_model

    against_model(model, args)
    check_toward_model(model, args)


@attrs.frozen
class Toward:
    """What an analysis found of play toward at least ``total`` (``mdp distribution`` and
    ``mdp simulate`` with ``--at-least``): its answer (the chance of every outcome, or the
    games played), the total, and the best chance of reaching it."""

    answer: Any
    total: int
    chance: Any
    reached: tuple[float, float | None, float | None] | None = None
    """Of games played: the share that reached the total, and its 95% confidence interval
    (Wilson's score interval, as :func:`mdp.simulate` gives a chance's)."""


def own_play(solution: Any, **given: Any) -> None:
    """Refuse ``at_least`` beside what would have play go otherwise, where the command line
    refuses it before any work: the solution of a strategy, or of the least points, or any
    of ``given`` (``tie_break``, ``after``, ``against``) set. The play toward a total is its
    own: the table would be of a play the caller did not ask for."""
    if getattr(solution, "strategy", None) is not None or getattr(solution, "sense", "max") != "max" \
            or any(given.values()):
        raise ParamError("at_least: the play toward a total is its own; give the optimal "
                         f"solution of the most points, without a strategy, {' or '.join(given)}")


def distribution_toward(solution: Any, total: int) -> Toward:
    """The chance of every final total of ``solution``'s game of rounds, played toward at
    least ``total`` (in its number type)."""
    from mdp.analysis.targets import at_least
    from mdp.engine.rounds.toward import toward_distribution

    reach = at_least(solution.model, exact=solution.exact, total=total)
    return Toward(toward_distribution(reach, total), total, reach.chance(total))


def simulate_toward(solution: Any, game: mdp.Game | None, games: int, seed: int | None,
                    total: int) -> Toward:
    """``games`` games of ``solution``'s game of rounds played toward at least ``total``,
    counted as :func:`mdp.simulate` counts them."""
    import numpy as np

    from mdp.analysis.simulate import check_games, counted
    from mdp.analysis.targets import at_least
    from mdp.engine.rounds.sample import simulated

    check_games(games, seed)
    model = solution.model.of_rounds("play toward a total")
    reach = at_least(model, total=total)
    values, counts, outcomes = simulated(solution, game, games, seed, (reach, total))
    played = counted(games, seed, values, counts, outcomes, chance=False)
    hit = int(np.asarray(counts)[np.asarray(values, dtype=np.float64) >= total].sum())
    share = counted(games, seed, np.array([0.0, 1.0]), np.array([games - hit, hit]), outcomes, chance=True)
    return Toward(played, total, reach.chance(total), (share.mean, share.low, share.high))


def advice_toward(solution: Any, game: mdp.Game, state: dict[str, Any], total: int,
                  points: int) -> mdp.Advice:
    """The advice at ``state`` of ``solution``'s game of rounds, played toward at least
    ``total`` with ``points`` earned so far: each action's value is its best chance."""
    from mdp.analysis.advise import advice_at
    from mdp.analysis.targets import at_least
    from mdp.engine.rounds.toward import located

    # One total's vectors (mdp.engine.rounds.window): the round state named is reached with
    # ``points`` it can have (mdp.analysis.targets.check_earned), so that ``total - points`` is
    # among the needs that ``total`` from the start leaves it.
    reach = at_least(solution.model, exact=solution.exact, total=total)
    return advice_at(located(reach, game, state, total - points), game)


def inner(answer: Any) -> Any:
    """The answer of an analysis, played toward a total or not."""
    return answer.answer if isinstance(answer, Toward) else answer


def toward_line(answer: Any) -> str | None:
    """What a distribution played toward a total says first; ``None`` for one that is not."""
    if not isinstance(answer, Toward):
        return None
    from mdp.analysis.targets import fraction_text

    exact = f" = {fraction_text(answer.chance)}" if isinstance(answer.chance, Fraction) else ""
    return f"played toward at least {answer.total} points: {_chance(answer.chance)}{exact}"


def toward_summary(answer: Any) -> dict[str, Any]:
    """What a distribution played toward a total adds to its ``--json``."""
    if not isinstance(answer, Toward):
        return {}
    from mdp.analysis.targets import fraction_text
    from mdp.engine.numeric import float_or_none  # (null where no float holds its size)

    more: dict[str, Any] = {"chance_exact": fraction_text(answer.chance)} \
        if isinstance(answer.chance, Fraction) else {}
    if answer.reached is not None:  # games played: the share that reached it, measured
        more.update(zip(("reached", "reached_low", "reached_high"), answer.reached))
    return {"at_least": answer.total, "chance": float_or_none(answer.chance), **more}


def reached_line(answer: Any) -> str | None:
    """What games played toward a total say of it: the share that reached it, and its
    interval; ``None`` for games that were not."""
    if not isinstance(answer, Toward) or answer.reached is None:
        return None
    from mdp.shown import percent

    share, low, high = answer.reached
    interval = "" if low is None or high is None else \
        f" (95% confidence interval {percent(low)} to {percent(high)})"
    return f"reached in {percent(share)} of the games played{interval}"


def valued_toward(answer: Any, solution: Solved) -> dict[str, Any]:
    """A solution's ``--json`` (:meth:`~mdp.engine.solved.Solved.summary`) for play toward a
    total where ``answer`` is of that play: its objective and value are the chance of the
    total, as ``mdp solve --at-least --json`` has them, not best-mean play's."""
    summary = {**solution.summary(), **toward_summary(answer)}
    if isinstance(answer, Toward):
        summary.update(objective=f"chance of at least {answer.total} points", value=summary["chance"])
        if summary.pop("exact", None) is not None:  # best-mean play's, where it was exact
            from mdp.analysis.targets import fraction_text

            summary["exact"] = summary["chance_exact"] = fraction_text(Fraction(answer.chance))
    return summary


# mdp solve --at-least T


def add_at_least(parser: argparse.ArgumentParser) -> None:
    """``--at-least T`` of ``mdp solve``."""
    parser.add_argument("--at-least", dest="total", type=_total, metavar="T",
                        help="a game of rounds: the best chance of finishing with at least T "
                        "points, beside best-mean play's")


def _total(text: str) -> int:
    """``--at-least``'s total, read as the analyses' ``--at-least`` reads it (:data:`AT_LEAST`)."""
    try:
        total = options.total(text)
    except (ValueError, TypeError) as error:  # said as every command's --at-least says it
        raise ParamError(f"--at-least {text}: {error}") from None
    assert total is not None, "a text is a total or refused"
    return total


def solve_at_least(args: argparse.Namespace) -> None:
    """What ``mdp solve --at-least T`` prints: the best chance of at least ``T``, and best-mean
    play's; checked before any work."""
    from mdp.analysis.targets import (
        at_least,
        best_mean_chances,
        chance_of,
        check_chance_of_total,
        fraction_text,
        no_worse,
    )
    from mdp.engine.numeric import float_or_none

    if args.vary:
        raise ParamError("--at-least solves one rule set; --vary does not apply")
    if args.strategy not in (None, "optimal") or args.sense or args.residual is not None:
        raise ParamError("--at-least plays for the chance of the total, beside best-mean play: "
                         "--strategy, --maximize, --minimize and --residual do not apply")
    game = arguments.load(args)
    _of_rounds(game, "--at-least")
    total = args.total

    game, solution = arguments.solved(args, game, lambda model: check_chance_of_total(
        model, exact=args.exact, max_memory=args.max_memory or "default", total=total))
    with arguments.Progress() as progress:
        reach = at_least(solution.model, exact=args.exact, progress=progress,
                         max_memory=args.max_memory or "default", start_only=True, total=total)
        ended, above = best_mean_chances(solution, progress=progress,
                                         max_memory=args.max_memory or "default")
    mean = chance_of(ended, above, total, args.exact)
    best = no_worse(reach.chance(total), mean)
    summary = {**solution.summary(), "objective": f"chance of at least {total} points",
               "at_least": total, "value": float_or_none(best)}
    summary.pop("exact", None)
    if args.exact:
        summary["exact"] = fraction_text(best)
    summary["chance_best_mean"] = float_or_none(mean)
    if args.exact:
        summary["chance_best_mean_exact"] = fraction_text(mean)
    summary["seconds"] = round(summary["seconds"] + reach.seconds, 6)
    if args.json:
        arguments.print_json(summary)
        return
    print(summary["rules"])
    print(f"best chance of at least {total} points: {_chance(best)}")
    if args.exact:
        print(f"exact: {summary['exact']}")
    print(f"under best-mean play ({readable(shown_float(solution.value))} on average): {_chance(mean)}"
          + (f" = {summary['chance_best_mean_exact']}" if args.exact else ""))
    from mdp.engine.rounds.model import extent  # here: --help imports no NumPy

    print(f"{extent(summary['round_states'], summary['rounds'], summary['states'])}, "
          f"solved in {summary['seconds']:.3f} s")


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [TARGETS]
