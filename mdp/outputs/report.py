"""One self-contained HTML page about a solved game: its rules, its value, how it ends, its
named strategies, and an explorer that gives the advice of :func:`mdp.advise` for any state.

Everything is inside the page (styles, script, data, the chart as inline SVG): it opens from
a file, offline. The explorer carries what :mod:`mdp.outputs.explorer` makes, and its script
ranks the actions of the state the controls name as :func:`mdp.advise` does.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from fractions import Fraction
from importlib import resources
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.analysis.distribution import distribution
from mdp.analysis.simulate import simulate
from mdp.analysis.strategy_table import strategy_values
from mdp.checks import CALLBACK, FLAG, GAME, SOLVED, arguments, whole
from mdp.engine.solution import Solution
from mdp.engine.solve import solve
from mdp.engine.solved import Solved
from mdp.errors import ParamError, TooLarge
from mdp.limits import REPORT_GAMES, REPORT_MAX_ROWS
from mdp.outputs.explorer import (
    explorer_data,
    json_ready,
    round_ends_script,
    rounds_explorer_data,
    without_explorer,
)
from mdp.outputs.plot import varied
from mdp.outputs.readable import readable, value_name
from mdp.shown import counted, fixed, percent, play_aimed

if TYPE_CHECKING:
    from mdp.engine.rounds.solution import RoundsSolution
    from mdp.game.load import Game


CHART_MOST = 150
"""Bars of the outcome chart of a game of rounds at most: past it, final scores in ranges."""

def report(solution: Solved, game: Game, *, max_rows: int = REPORT_MAX_ROWS,
           strategies: bool = True, progress: Callable[[str], None] | None = None) -> str:
    """The HTML page of an optimal solution, as text: the rules, the value under optimal
    play (exact), the objective, the number of states, the outcome distribution (a chart),
    the named strategies beside the optimum, and the strategy explorer, left out (with a
    line saying so) when the policy has more than ``max_rows`` rows. ``strategies=False``
    leaves the named strategies out (a line says so): each is valued by a solve of its own,
    most of the time a large game's page takes.

    For a game of rounds (a :class:`mdp.RoundsSolution`): the rules, the value, the rounds
    and round states, how :data:`~mdp.limits.REPORT_GAMES` games played at random end (seed
    0), the strategies, and the explorer where the game gives
    :func:`~mdp.hookspecs.game.mdp_round_ends_script`. ``progress`` hears of the long steps.
    Each kind of solution says which page it gets (:meth:`mdp.engine.solved.Solved.shown`).

    >>> html = mdp.report(mdp.solve(model), game)   # doctest: +SKIP
    """
    arguments("report", solution=(solution, SOLVED), game=(game, GAME), max_rows=(max_rows, whole(1)),
              strategies=(strategies, FLAG), progress=(progress, CALLBACK))
    if solution.strategy is not None:
        raise ParamError(f"a report shows optimal play and every named strategy; "
                         f"it is made from an optimal solution, not from {solution.strategy}")
    if solution.terminal is not None:
        raise ParamError("a report shows the game's objective; the solution was solved with "
                         "terminal values of its own (terminal=)")
    sense = solution.sense
    aim = () if sense == game.objective.sense else (f"--{sense}imize",)  # as the page solved it
    return solution.shown(_Pages(game, max_rows, strategies, progress, aim))


@attrs.frozen
class _Pages:
    """The page of each kind of solution (:meth:`mdp.engine.solved.Solved.shown`)."""

    game: Game
    max_rows: int
    strategies: bool
    progress: Callable[[str], None] | None
    aim: tuple[str, ...]
    """The option that asks a command for the aim of the page's solution, where it is not the
    game's own (``--minimize``)."""

    def asked(self, command: str, *more: str) -> str:
        """The command ``mdp COMMAND`` that answers for this game, its rules and the page's aim."""
        return self.game.command(command, *self.aim, *more)

    def model(self, solution: Solution[Any]) -> str:
        """A game of one model: every outcome's exact chance, and its states' advice."""
        game, model = self.game, solution.model
        objective = model.info.objective
        floats = solve(model, sense=solution.sense) if solution.exact else solution
        rational = not (model.inexact or model.inexact_values)  # a float among them: floats
        try:
            exact = solution if solution.exact else \
                solve(model, exact=True, sense=solution.sense) if rational else floats
        except TooLarge:  # states that come back, past what exact solving takes: in floats
            exact = floats
        why = without_explorer(solution, game, self.max_rows)
        explorer = None if why else explorer_data(floats, game)
        sections = [
            _facts(exact, game),
            _outcomes(distribution(floats, game), objective.probability,
                      play=play_aimed(solution.sense, objective.sense)),
            self._ways(lambda: strategy_values(model, game, sense=solution.sense,
                                                     optimal=floats), objective.probability),
            _explorer(explorer, why, self.asked('advise', 'COLUMN=VALUE', '...')),
        ]
        return _page(game, sections, objective, explorer)

    def rounds(self, solution: RoundsSolution) -> str:
        """A game of rounds: games played at random, and the explorer of its positions."""
        game, progress = self.game, self.progress
        objective = solution.model.info.objective
        why = without_explorer(solution, game, self.max_rows)
        explorer = None if why else rounds_explorer_data(solution, game)
        if progress:
            progress(f"playing {REPORT_GAMES:,} games")
        played = _simulated(solution, game)
        return _page(game, [_round_facts(solution), played,
                            self._ways(lambda: strategy_values(
                                solution.model, game, sense=solution.sense, progress=progress,
                                optimal=None if solution.exact else solution), objective.probability),
                            _explorer(explorer, why, self.asked('advise', 'COLUMN=VALUE', '...'),
                                      rounds=True)],
                     objective, explorer, round_ends_script(game) if explorer else None)


    def _ways(self, values: Callable[[], pl.DataFrame], probability: bool) -> str:
        """The section of the named strategies, valued by ``values`` unless left out."""
        if self.strategies:
            return _strategies(values(), probability)
        return ('<section aria-labelledby="strategies-h"><h2 id="strategies-h">Ways to play</h2>\n'
                '<p class="note" id="no-strategies">The named strategies were left out of this '
                f"page. Ask <code>{html.escape(self.asked('strategies'))}</code> for their "
                "values beside the best play.</p></section>")


def _page(game: Game, sections: list[str], objective: Any, explorer: dict[str, Any] | None,
          script: str | None = None) -> str:
    """The page: the template filled with the sections, the explorer's data and, for a game
    of rounds, the game's script of the ends of a round."""
    data = {"objective": {"name": objective.name, "probability": objective.probability},
            "explorer": explorer}
    name, _, rules = game.describe().partition(": ")  # "Name: rules", the usual description
    parts = {"TITLE": html.escape(game.describe()), "NAME": html.escape(name),
             "RULES": html.escape(rules),
             "NAV": '<p class="jump"><a href="#explorer-h">Find the best move of a position</a></p>'
                    if explorer is not None else "",
             "BODY": "\n".join(sections),
             "DATA": json.dumps(json_ready(data), separators=(",", ":"),
                                allow_nan=False).replace("<", "\\u003c"),
             "SCRIPT": "" if script is None else
                       f"<script>\nvar mdpRoundEnds = ({script});\n</script>"}
    template = resources.files("mdp.outputs").joinpath("report.html").read_text(encoding="utf-8")
    # One pass: text put in is never read again for placeholders.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m[1]], template)


# The sections of the page, as HTML.


def _number(value: float, probability: bool) -> str:
    """A strategy's value or regret as ``mdp strategies`` shows it: a percentage, or ten
    decimals (one below 0.0001, not 0, to ten digits: :func:`~mdp.shown.fixed`)."""
    return percent(value) if probability else fixed(value)


def _facts(exact: Solution[Any], game: Game) -> str:
    model = exact.model
    return _facts_section(exact, "States", f"{model.n_states:,} ({model.n_terminal:,} where the "
                                           f"game is over); {counted(model.n_actions, 'action')}")


def _round_facts(solution: RoundsSolution) -> str:
    """The facts of a game of rounds: its value (exact where it was solved exactly) and
    its rounds."""
    model = solution.model
    return _facts_section(solution, "Rounds", f"{counted(model.n_rounds, 'round')} through "
                                    f"{counted(model.n_round_states, 'round state')}; a round of "
                                    f"{counted(model.round.n_states, 'state')}")


def _facts_section(solution: Solved, label: str, size: str) -> str:
    """The section on the game: its rules, value (with the fraction where exact) and size."""
    info, value = solution.model.info, solution.value
    sense = "maximized" if solution.sense == "max" else "minimized"
    play = play_aimed(solution.sense, info.objective.sense)
    shown = readable(float(value))
    if info.objective.probability:
        shown = f"{percent(value)} ({shown})"
    exact = ""
    if solution.exact and value != int(value):  # 10, not 10 = 10/1
        assert isinstance(value, Fraction)
        exact = f" = {value.numerator}/{value.denominator}"
    params = ", ".join(f"{k}={_param(v)}" for k, v in info.params.items() if v not in (None, ""))
    rows = [("Rules", info.rules), ("Variant", info.variant or "none (the default rules)"),
            ("Parameters", params or "none"), ("Objective", f"{info.objective.name} ({sense})"),
            (f"Value under {play}", shown + exact),
            (label, size)]
    items = "\n".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in rows)
    return (f'<section aria-labelledby="facts-h"><h2 id="facts-h">The game</h2>\n'
            f'<p class="value" id="value">{html.escape(value_name(solution))}: '
            f'<strong>{html.escape(shown)}</strong></p>\n<dl class="facts">\n{items}\n</dl></section>')


def _simulated(solution: RoundsSolution, game: Game) -> str:
    """How games played at random end: a chart of their points, the mean, the spread, and
    how often each column of the round state they end in took each value."""
    result = simulate(solution, game, games=REPORT_GAMES, seed=0)
    frame = result.shares("points")
    labels, width = None, 1
    if frame["points"].dtype.is_integer():  # every score from the least to the greatest,
        lo, hi = frame["points"].min(), frame["points"].max()  # in equal ranges
        assert isinstance(lo, int) and isinstance(hi, int)  # of the games played: some
        width = -(-(hi - lo + 1) // CHART_MOST)
        start = lo // width * width
        low = ((pl.col("points") - start) // width * width + start).alias("points")
        frame = (pl.DataFrame({"points": range(start, hi + 1, width)})
                 .join(frame.group_by(low).agg(pl.col("probability").sum()), on="points", how="left")
                 .with_columns(pl.col("probability").fill_null(0.0)).sort("points"))
        labels = [f"points {p}" if width == 1 else f"points {p} to {p + width - 1}"
                  for p in frame["points"].to_list()]
    spread = ", ".join(f"{p} {readable(v)}" for p, v in result.percentiles.items())
    ends = []
    for column in result.outcomes.columns:
        if column not in ("points", "games", "frequency"):
            ends.append(f"<li>{html.escape(column)}: " + ", ".join(
                f"{html.escape(str(v))} {percent(share)}"
                for v, share in result.shares(column).iter_rows()) + "</li>")
    play = play_aimed(solution.sense, solution.objective.sense)
    intro = (f"{result.games:,} games played at random under {play} (seed 0): "
             f"{result.said()}, standard deviation {result.sd or 0:.4g}; percentiles {spread}. "
             "The bars are the share "
             f"of games at each final score{f' range ({width} points each)' if width > 1 else ''}, "
             "the line the share up to it.")
    extra = (f"<p>Where the games ended:</p><ul>{''.join(ends)}</ul>\n" if ends else "")
    return _outcomes(frame, False, intro=intro, extra=extra, labels=labels, sampled=True)


def _param(value: Any) -> str:
    text = "" if value is None else str(value)
    return f'"{text}"' if " " in text or not text else text


def _outcomes(frame: pl.DataFrame, probability: bool, intro: str | None = None,
              extra: str = "", labels: list[str] | None = None, play: str = "optimal play",
              sampled: bool = False) -> str:
    """The section of how the game ends: a chart, and the outcomes as a table. ``sampled``:
    shares of games played, not chances, and the table lists only what a game reached (the
    chart keeps an empty bar for the others of its range)."""
    names = [c for c in frame.columns if c not in ("probability", "exact")]
    p = frame["probability"].to_numpy()
    cumulative = np.minimum(np.cumsum(p), 1.0)
    labels = labels or [", ".join(f"{n} {v}" for n, v in zip(names, row))
                        for row in frame.select(names).iter_rows()]
    rows = "\n".join(f"<tr><td>{html.escape(label)}</td><td>{percent(a)}</td><td>{percent(b)}</td></tr>"
                     for label, a, b in zip(labels, p, cumulative) if a > 0 or not sampled)
    head = "".join(f"<th scope=col>{html.escape(n)}</th>" for n in
                   ("outcome", "share of games" if sampled else "probability", "cumulative"))
    intro = intro or (f"The chance of each outcome under {play} (bars), and the chance of "
                      "an outcome up to it (the line, right axis).")
    axis = varied(frame)  # (as --plot draws it: who won, in a game of two whose ends are worth 1)
    return (f'<section aria-labelledby="outcomes-h"><h2 id="outcomes-h">How the game ends</h2>\n'
            f"<p>{html.escape(intro)}</p>\n"
            f"<div class=scroll>{chart(frame[axis].to_list(), p, cumulative, axis, labels)}</div>\n"
            f"{extra}"
            f"<details><summary>The outcomes as a table</summary>\n<table class=numbers>"
            f"<thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table></details></section>")


def chart(x: list[Any], p: np.ndarray, cumulative: np.ndarray, axis: str, labels: list[str]) -> str:
    """Bars of ``p`` over the outcomes ``x`` and the ``cumulative`` line (right axis, 0 to
    100%), as inline SVG coloured by the page's style."""
    width, height, left, right, top, bottom = 640, 300, 52, 52, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(x), 1)
    top_p = _nice(float(p.max()) if len(p) else 1.0)
    step = plot_w / n
    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
           f'aria-labelledby="chart-t"><title id="chart-t">Chance by {html.escape(axis)} '
           f'(bars) and cumulative chance (line)</title>']
    for k in range(5):  # grid and left axis: probability
        value = top_p * k / 4
        y = top + plot_h * (1 - k / 4)
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<text class="tick" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{100 * value:.3g}%</text>'
                   f'<text class="tick" x="{width - right + 6}" y="{y + 4:.1f}">{25 * k}%</text>')
    every = max(1, int(np.ceil(n / 16)))
    for i, (value, chance, label, total) in enumerate(zip(x, p, labels, cumulative)):
        h = plot_h * float(chance) / top_p
        x0 = left + i * step
        out.append(f'<rect class="bar" x="{x0 + step * 0.1:.1f}" y="{top + plot_h - h:.1f}" '
                   f'width="{step * 0.8:.1f}" height="{h:.1f}"><title>{html.escape(label)}: '
                   f'{percent(float(chance))} (cumulative {percent(float(total))})</title></rect>')
        if i % every == 0:
            out.append(f'<text class="tick" x="{x0 + step / 2:.1f}" y="{top + plot_h + 16}" '
                       f'text-anchor="middle">{html.escape(str(value))}</text>')
    points = " ".join(f"{left + (i + 0.5) * step:.1f},{top + plot_h * (1 - float(c)):.1f}"
                      for i, c in enumerate(cumulative))
    out.append(f'<polyline class="cum" points="{points}"/>')
    out.append(f'<line class="axis" x1="{left}" x2="{width - right}" y1="{top + plot_h}" '
               f'y2="{top + plot_h}"/>')
    out.append(f'<text class="label" x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">'
               f'{html.escape(axis)}</text></svg>')
    return "".join(out)


def _nice(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten at or above ``value``."""
    if value <= 0:
        return 1.0
    power = 10 ** np.floor(np.log10(value))
    return float(next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= value * (1 - 1e-12)))


def _strategies(frame: pl.DataFrame, probability: bool) -> str:
    rows = []
    for row in frame.iter_rows(named=True):
        best = ' class="best"' if row["strategy"] == "optimal" else ""
        cells = (f"<td colspan=2>not evaluated: {html.escape(row['problem'])}</td>"
                 if row["value"] is None else f"<td>{_number(row['value'], probability)}</td>"
                 f"<td>{_number(row['regret'], probability)}</td>")
        rows.append(f"<tr{best}><th scope=row>{html.escape(row['strategy'])}"
                    f"<span class=help>{html.escape(row['help'])}</span></th>{cells}</tr>")
    return ('<section aria-labelledby="strategies-h"><h2 id="strategies-h">Ways to play</h2>\n'
            "<p>The best play beside the game's named strategies; regret is the value each "
            "gives up against it.</p>\n<div class=scroll><table class=numbers>"
            "<thead><tr><th scope=col>strategy</th><th scope=col>value</th>"
            "<th scope=col>regret</th></tr></thead><tbody>\n"
            + "\n".join(rows) + "\n</tbody></table></div></section>")


def _script_checked(check: dict[str, Any]) -> str:
    """How many round states the game's script of round ends was checked on, said on the page
    (see :func:`mdp.outputs.explorer.checked_round_ends`)."""
    carried, made, total = check["carried"], check["made"], check["of"]
    made_here = (f"was checked against <code>mdp_round_rule</code> on {made:,} of its {total:,} "
                 "round states when this page was made, and " if made else "")
    return (f" The game's JavaScript copy of its round rule, which this page plays the rounds by, "
            f"{made_here}is checked on {carried:,} of its {total:,} round states when the page "
            "opens: where it disagrees, the page says so and gives no advice.")


def _explorer(explorer: dict[str, Any] | None, why: str | None, advise: str, rounds: bool = False) -> str:
    head = '<section aria-labelledby="explorer-h"><h2 id="explorer-h">What should I play?</h2>\n'
    if explorer is None:
        position = "the round state and the state" if rounds else "the state"
        return (head + f'<p class="note" id="no-explorer">This page has no explorer: {why}. Ask '
                f"<code>{html.escape(advise)}</code>, naming {position} "
                "by their columns.</p></section>")
    still = (" In this game of rounds a position is a round state and a state of the round; a "
             "value is what is still to come, the points of this round included, under best play."
             + _script_checked(explorer["rounds"]["check"]) if rounds else "")
    return (head + '<p>Set the position; the best move and every alternative follow, best first, '
            f'with the value of each and the regret of playing it instead.{still}</p>\n'
            '<form id="controls" class="controls" onsubmit="return false"></form>\n'
            '<div id="advice" aria-live="polite"></div></section>')
