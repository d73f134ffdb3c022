"""mdp's analyses: ``policy``, ``distribution``, ``simulate`` and ``strategies`` (``advise``
has its own module, :mod:`~mdp.analysis.builtins.advise`),
registered as a built-in plugin (see :mod:`mdp.analysis.registry`). Each is one
call in Python (``mdp.analyse(solution, name, ...)``, or :func:`mdp.distribution` and its kin) and one
command; these only name the options and print the answer for people."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mdp
from mdp.analysis.builtins import presolve
from mdp.analysis.builtins import targets as toward
from mdp.analysis.builtins.against import AGAINST, against_check, against_model, matched
from mdp.analysis.builtins.options import as_given, check_plot
from mdp.analysis.builtins.options import seed as _seed
from mdp.analysis.builtins.options import size as _bytes
from mdp.analysis.builtins.options import state as state_columns
from mdp.analysis.builtins.options import text as _text
from mdp.analysis.registry import Analysis, program_arguments
from mdp.errors import ParamError, did_you_mean
from mdp.game.params import Param
from mdp.game.parsers import parse_flag, parse_int
from mdp.hookspecs import hookimpl
from mdp.outputs.files import say_when_written
from mdp.outputs.readable import (
    cells,
    chances_shown,
    exactly,
    fixed,
    fixed_exact,
    percent_cell,
    percentiles_shown,
    value_line,
)
from mdp.shown import counted

if TYPE_CHECKING:
    import polars as pl

    from mdp.analysis.pieces import Pieces
    from mdp.analysis.simulate import Simulation
    from mdp.engine.policy import Sense
    from mdp.engine.solved import Solved
    from mdp.program import arguments
else:  # the command line's, imported when a command uses them: mdp.analyse needs no program
    arguments = program_arguments()

# Parsers of the options, for text as on the command line and for Python values alike.


TIE_BREAK = Param("tie_break", (), as_given, "among optimal actions, keep those best for this "
                  "column of the terminal states (maximized unless min:), then the next; then the "
                  "game's first action is taken", metavar="[max:|min:]COLUMN", repeat=True)


def _play_check(game: mdp.Game, args: argparse.Namespace) -> None:
    """The tie-breaks and the other player's strategy, before any state is found."""
    _tie_break_check(game, args)
    against_check(game, args)
    toward.check_toward_game(game, args)
    if getattr(args, "at_least", None) is not None and getattr(args, "against", None):
        raise ParamError("--at-least plays a game of rounds toward a total; --against is for "
                         "a game of two players: give one or the other")


def _plot(what: str) -> Param:
    return Param("plot", None, _text, f"draw {what} of each outcome and the cumulative share to "
                 "FILE (.png or .svg; needs matplotlib)", metavar="FILE")


# mdp policy


def _policy(solution: Solved, game: mdp.Game | None, optimal_only: bool,
            within: Any = None) -> Pieces:
    return mdp.policy_pieces(solution, game, optimal_only, within)


def _within(value: Any) -> Any:
    """Where in a game of rounds: ``"all"``, round columns, or ``'filled="a b" upper=5'``."""
    if value is None or value == "all" or isinstance(value, dict):
        return value
    import shlex

    expected = "all, or the round columns of round states as COLUMN=VALUE ..."
    try:
        items = shlex.split(str(value))
    except ValueError:  # a quote not closed
        raise ParamError(f"within {value!r}: expected {expected}") from None
    return state_columns(items, "within", expected)


POLICY = Analysis(
        "policy", "the optimal policy, as a table", _policy,
        [Param("optimal_only", False, parse_flag, "keep only optimal actions"),
         Param("within", None, _within, "a game of rounds: the policy within the round at "
               "every round state (all), or at those whose round columns have these values "
               "('COLUMN=VALUE ...', as mdp advise names them); without it, the value of "
               "every round state")],
        "Solve a game and write every decision with the value of each action, whether it is "
        "optimal, and its regret; for a game of rounds, the value of every round state, or "
        "with --within the policy within the round.", rounds=True,
        check_game=lambda game, args: presolve.within(game, _within(args.within)),
        check_model=lambda model, args: presolve.policy(model, args, _within(args.within)))


# mdp distribution


def _distribution(solution: Solved, game: mdp.Game | None, tie_break: Sequence[Any],
                  plot: str | None, max_memory: int | None, at_least: int | None,
                  against: str | None = None,
                  progress: Callable[[str], None] | None = None) -> Any:
    if at_least is not None:
        toward.own_play(solution, tie_break=tie_break, against=against)
        answer: Any = toward.distribution_toward(solution, at_least)
    else:
        answer = mdp.distribution(matched(solution, game, against), game, tie_break=tie_break,
                                  progress=progress, max_memory=max_memory or "default")
    if plot:
        rules = game.describe() if game is not None else solution.model.info.rules
        line = toward.toward_line(answer) or value_line(solution)
        _draw(toward.inner(answer), plot, f"{rules}\n{line}", "probability")
    return answer


def _tie_break_check(game: mdp.Game, args: argparse.Namespace) -> None:
    """The tie-breaks, before any state is found: each names a column of the game's states
    (every state has the same, :func:`~mdp.hookspecs.game.mdp_state_columns`) or ``value``;
    that the column is a number is known once the terminal states are."""
    if not args.tie_break or not game.implements("mdp_initial_state"):
        return
    from mdp.engine.solution import parse_tie_break  # here: NumPy, once a game is loaded
    from mdp.game.columns import state_columns

    names = [*state_columns(game, [game.call("mdp_initial_state")]), "value"]
    for item in args.tie_break:
        _, column = parse_tie_break(item)
        if column not in names:
            raise ParamError(f"tie-break column {column!r}{did_you_mean(column, names)}: not a "
                             f"column of the game's states ({', '.join(names)}); a tie-break "
                             "takes one of them that is a number in every terminal state")


def _plot_check(args: argparse.Namespace) -> None:
    """The tie-breaks' form and the picture's file, checked before any work: its type, and
    that it can be written."""
    from mdp.engine.solution import parse_tie_breaks  # here: listing the commands needs no NumPy

    parse_tie_breaks(args.tie_break)
    if hasattr(args, "at_least"):
        toward.check_toward(args, "--tie-break")
    check_plot(args)


def _draw(frame: pl.DataFrame, plot: str, title: str, share: str) -> None:
    """Draw ``frame`` (an outcome column first, then ``probability``) to the file ``plot``."""
    # Here, not at the top: drawing needs matplotlib, and writing the file tempfile.
    from mdp.outputs.plot import plot_distribution

    plot_distribution(frame, plot, title, share=share)
    say_when_written(f"the picture written to {plot}")  # as mdp export says its files


def _followable(model: mdp.CompiledModel | mdp.Rounds, args: argparse.Namespace) -> None:
    """What the chance of every outcome cannot follow, refused before the solve."""
    against_model(model, args)
    if getattr(args, "at_least", None) is not None:
        toward.check_toward_model(model, args, follow=True)
        return
    model.check_chances(exact=args.exact, tie_break=args.tie_break,
                        max_memory=args.max_memory or "default")


def _spread_of(frame: pl.DataFrame, solution: Solved) -> dict[str, Any]:
    """A game of points' mean, standard deviation and percentiles, for --json."""
    return solution.spread(frame)


def _show_distribution(answer: Any, solution: Solved, game: mdp.Game) -> None:
    frame = toward.inner(answer)
    print(game.describe())
    toward_line = toward.toward_line(answer)  # (its exact chance on it, under --exact)
    print(toward_line or value_line(solution))
    if solution.exact and not toward_line:
        print(f"exact: {solution.summary()['exact']}")
    found = _spread_of(frame, solution)
    if found:  # points: how they spread
        shares = percentiles_shown(found["percentiles"], frame, found.get("percentiles_exact"))
        sd = found["sd_about"] if found["sd"] is None else f"{found['sd']:.4g}"
        mean = found["mean_about"] if found["mean"] is None else \
            exactly(found["mean"], found.get("mean_exact"))
        print(f"mean {mean}, standard deviation {sd}; percentiles: {shares}")
    names = [c for c in frame.columns if c not in ("probability", "exact")]
    exact = frame["exact"].to_list() if "exact" in frame.columns else None
    texts = cells(frame, names)  # (two outcomes never read alike)
    widths = _widths(names, texts)
    print("  ".join(f"{n:>{widths[n]}}" for n in names) + "  probability   cumulative"
          + ("  exact" if exact else ""))
    for i, (chance, total) in enumerate(chances_shown(frame)):
        print("  ".join(f"{texts[n][i]:>{widths[n]}}" for n in names) + f"  {chance}  {total}"
              + (f"  {exact[i]}" if exact else ""))


def _widths(names: list[str], texts: dict[str, list[str]]) -> dict[str, int]:
    """Each column's width in a table printed for people: at least 8, its name's and every
    cell's, so that the columns after it stay aligned."""
    return {n: max(8, len(n), *map(len, texts[n])) for n in names}


DISTRIBUTION = Analysis(
    "distribution", "the chance of every outcome under a way of playing", _distribution,
    [TIE_BREAK, _plot("the chance"),
     Param("max_memory", None, _bytes, "a game of rounds: the most bytes that the chance of "
           "every total may take (default: as a model compiled, --max-memory)", shared=True),
     toward.AT_LEAST, AGAINST],
    "Push the chance of reaching each state forward through the game and print the chance of "
    "every outcome (optimal play, or --strategy, against --against), exactly with --exact.",
    check=_plot_check, check_game=_play_check,
    table=toward.inner,
    summary=lambda answer, solution: {**toward.valued_toward(answer, solution),
                                      **_spread_of(toward.inner(answer), solution),
                                      "outcomes": toward.inner(answer).to_dicts()},
    show=_show_distribution, rounds=True, check_model=_followable, progress=True)


# mdp simulate


def _simulate(solution: Solved, game: mdp.Game | None, games: int, seed: int | None,
              tie_break: Sequence[Any], plot: str | None, at_least: int | None,
              against: str | None = None) -> Any:
    if at_least is not None:
        toward.own_play(solution, tie_break=tie_break, against=against)
        answer: Any = toward.simulate_toward(solution, game, games, seed, at_least)
    else:
        answer = mdp.simulate(matched(solution, game, against), game, games=games, seed=seed,
                              tie_break=tie_break)
    result = toward.inner(answer)
    if plot:
        rules = game.describe() if game is not None else solution.model.info.rules
        # The play as the value line says it (a strategy, a total to reach), as distribution's
        # picture says it; drawn as distribution's is, by the first outcome column that differs.
        line = toward.toward_line(answer) or value_line(solution)
        title = f"{rules}\n{line}\n{counted(result.games, 'game')}: {result.said()}"
        _draw(result.outcomes.drop("games").rename({"frequency": "probability"}), plot, title,
              "share of games")
    return answer


SHOWN_MOST = 60
"""The most outcomes of a game of rounds (its points, with the round state it ends in) that
``mdp simulate`` prints one by one; past it, how often each column of the round state ended
at each value."""


def _simulate_check(args: argparse.Namespace) -> None:
    from mdp.analysis.simulate import check_games  # here: listing the commands needs no NumPy

    check_games(args.games, args.seed)
    _plot_check(args)


def _show_simulation(answer: Any, solution: Solved, game: mdp.Game) -> None:
    result: Simulation = toward.inner(answer)
    print(game.describe())
    print(toward.toward_line(answer) or value_line(solution))
    if (reached := toward.reached_line(answer)) is not None:
        print(reached)
    print(f"{counted(result.games, 'game')}: {result.said()}")
    if not solution.objective.probability:
        shares = percentiles_shown(result.percentiles, result.outcomes)
        spread = "" if result.sd is None else f"standard deviation {result.sd:.4g}; "
        print(f"{spread}percentiles: {shares}")
    if result.outcomes.height > SHOWN_MOST and "points" in result.outcomes.columns:
        # A game of rounds: its points and the round state each game ended in.
        for column in result.outcomes.columns:
            if column not in ("points", "games", "frequency"):
                print(f"{column}: " + ", ".join(f"{value} {percent_cell(share).strip()}"
                                               for value, share in result.shares(column).iter_rows()))
        print(f"{result.outcomes.height:,} outcomes, a row per points and end: --out FILE "
              "writes them all")
        return
    names = [c for c in result.outcomes.columns if c not in ("games", "frequency")]
    texts = cells(result.outcomes, names)
    widths = _widths(names, texts)
    print("  ".join(f"{n:>{widths[n]}}" for n in names) + "       games   frequency")
    for i, row in enumerate(result.outcomes.iter_rows(named=True)):
        print("  ".join(f"{texts[n][i]:>{widths[n]}}" for n in names)
              + f"  {row['games']:>10,}  {percent_cell(row['frequency'])}")


SIMULATE = Analysis(
    "simulate", "play many games at random and count their outcomes", _simulate,
    [Param("games", None, parse_int(1, grouped=True), "the number of games to play", metavar="N",
           required=True),
     Param("seed", None, _seed, "seed of the random numbers (0 or more): the same seed, the "
           "same numbers", metavar="S"),
     TIE_BREAK, _plot("the share of games"), toward.AT_LEAST, AGAINST],
    "Play N games by sampling the game's transitions, all games at once, and print the mean "
    "value with a 95% confidence interval and the outcome frequencies.",
    table=lambda answer: toward.inner(answer).outcomes, check=_simulate_check,
    check_game=_play_check,
    check_model=toward.against_or_toward,
    summary=lambda answer, solution: {**solution.model.info.summary(),
                                      **toward.inner(answer).summary(),
                                      **toward.toward_summary(answer)},
    show=_show_simulation, rounds=True,
    without=("exact",))  # games played at random and counted: distribution --exact is exact


# mdp strategies


def _strategies(model: mdp.CompiledModel | mdp.Rounds, game: mdp.Game, *, exact: bool,
                sense: Sense | None, progress: Callable[[str], None] | None) -> pl.DataFrame:
    return mdp.strategy_values(model, game, exact=exact, sense=sense, progress=progress)




def _show_strategies(frame: pl.DataFrame, model: mdp.CompiledModel | mdp.Rounds,
                     game: mdp.Game) -> None:
    print(game.describe())
    width = max(len(name) for name in frame["strategy"])
    # From the fractions where exact: one no float holds by its size is not 0.0000000000.
    fractions = frame["exact"].to_list() if "exact" in frame.columns else [None] * frame.height
    values = [None if v is None else fixed(v) if e is None else fixed_exact(Fraction(e))
              for v, e in zip(frame["value"].to_list(), fractions)]
    wide = max((len(v) for v in values if v is not None), default=0)
    for row, value in zip(frame.iter_rows(named=True), values, strict=True):
        if value is None:  # the others are still worth reporting
            print(f"{row['strategy']:<{width}}  not evaluated: {row['problem']}")
            continue
        exact = f"  = {row['exact']}" if "exact" in row else ""
        print(f"{row['strategy']:<{width}}  {value:>{wide}}{exact}  {row['help']}")


STRATEGIES = Analysis(
    "strategies", "the game's named strategies, with their values", _strategies, (),
    "Evaluate each strategy the game names, exactly with --exact, and print its value beside "
    "the optimum.",
    needs="model", json="one JSON array", without=("strategy", "residual"),
    summary=lambda frame, model: frame.to_dicts(), show=_show_strategies, rounds=True)


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [POLICY, DISTRIBUTION, SIMULATE, STRATEGIES]
