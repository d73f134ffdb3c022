"""One self-contained HTML page about a solved game: its rules, its value, how it ends, its
named strategies, and an explorer that gives the advice of :func:`mdp.advise` for any state.

Everything is inside the page (styles, script, data, the chart as inline SVG): it opens from
a file, offline. The explorer carries the policy as compact columns (each readable column
as a dictionary of values and one code per row), and its script ranks the actions of the
state the controls name as :func:`mdp.advise` does.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from mdp.analysis.distribution import distribution
from mdp.analysis.labels import action_labels
from mdp.analysis.simulate import simulate
from mdp.analysis.strategy import strategy_values
from mdp.engine.rounds import RoundsSolution
from mdp.engine.solution import Solution
from mdp.engine.solve import solve
from mdp.errors import ModelError, ParamError
from mdp.game.columns import row_columns
from mdp.limits import REPORT_GAMES, REPORT_MAX_ROWS
from mdp.outputs.readable import readable

if TYPE_CHECKING:
    from mdp.game.load import Game


CHART_MOST = 150
"""Bars of the outcome chart of a game of rounds at most: past it, final scores in ranges."""

CONTROL_KINDS = ("select", "toggles", "multiset", "derived")
"""The controls the explorer draws (see :func:`~mdp.hookspecs.game.mdp_report_controls`)."""


def report(solution: Solution | RoundsSolution, game: Game, *,
           max_rows: int = REPORT_MAX_ROWS) -> str:
    """The HTML page of an optimal solution, as text: the rules, the value under optimal
    play (exact), the objective, the number of states, the outcome distribution (a chart),
    the named strategies beside the optimum, and the strategy explorer, left out (with a
    line saying so) when the policy has more than ``max_rows`` rows.

    For a game of rounds (a :class:`mdp.RoundsSolution`): the rules, the value, the rounds
    and round states, and how :data:`~mdp.limits.REPORT_GAMES` games played at random end (seed 0); its
    positions are asked of :func:`mdp.advise`.

    >>> html = mdp.report(mdp.solve(model), game)   # doctest: +SKIP
    """
    if isinstance(solution, RoundsSolution):
        return _page(game, [_round_facts(solution), _simulated(solution, game),
                            _explorer(None, 0, max_rows, game.name, rounds=True)],
                     solution.model.info.objective, None)
    if solution.policy is not None:
        raise ParamError(f"a report shows optimal play and every named strategy; "
                         f"it is made from an optimal solution, not from {solution.policy.name}")
    model = solution.model
    floats = solve(model, sense=solution.sense) if solution.exact else solution
    exact = solution if solution.exact else solve(model, exact=True, sense=solution.sense)
    explorer = explorer_data(floats, game) if model.n_actions <= max_rows else None
    sections = [
        _facts(exact, game),
        _outcomes(distribution(floats, game), model.info.objective.probability),
        _strategies(strategy_values(model, game, sense=solution.sense), model.info.objective.probability),
        _explorer(explorer, model.n_actions, max_rows, game.name),
    ]
    return _page(game, sections, model.info.objective, explorer)


def _page(game: Game, sections: list[str], objective: Any, explorer: dict | None) -> str:
    """The page: the template filled with the sections and the explorer's data."""
    data = {"objective": {"name": objective.name, "probability": objective.probability},
            "explorer": explorer}
    name, _, rules = game.describe().partition(": ")  # "Name: rules", the usual description
    parts = {"TITLE": html.escape(game.describe()), "NAME": html.escape(name),
             "RULES": html.escape(rules),
             "NAV": '<p class="jump"><a href="#explorer-h">Find the best move of a position</a></p>'
                    if explorer is not None else "",
             "BODY": "\n".join(sections),
             "DATA": json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")}
    template = resources.files("mdp.outputs").joinpath("report.html").read_text(encoding="utf-8")
    # One pass: text put in is never read again for placeholders.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m[1]], template)


def explorer_data(solution: Solution, game: Game) -> dict[str, Any]:
    """What the explorer embeds, JSON-ready: every state's readable columns (those
    :func:`mdp.advise` names a state by), ``actionStart`` (state ``s``'s actions are
    ``actionStart[s]`` to ``actionStart[s + 1] - 1``), every action's columns, ``value``,
    ``regret`` and ``optimal`` (0 or 1) as :meth:`mdp.Solution.action_values` gives them,
    ``initial`` and ``controls``. A column is ``{"name", "values", "codes"}``: its distinct
    values as text (``null`` where it does not apply), sorted, and one code per row."""
    model = solution.model
    states = model.states
    table = pl.DataFrame(row_columns(game, states, [None] * len(states)), strict=False)
    names = [c for c in table.columns if table[c].null_count() < table.height]
    labels = row_columns(game, _take(states, model.action_state()), action_labels(game, model))
    actions = pl.DataFrame({k: v for k, v in labels.items() if k not in names}, strict=False)
    per_action = solution.action_values()
    return {
        "states": model.n_states,
        "initial": int(model.initial),
        "columns": [_encode(table[c]) for c in names],
        "actionStart": model.action_offsets(0, model.n_states).tolist(),
        "actionColumns": [_encode(actions[c]) for c in actions.columns
                          if actions[c].null_count() < actions.height],
        "value": np.asarray(per_action.value, dtype=np.float64).tolist(),
        "regret": np.asarray(per_action.regret, dtype=np.float64).tolist(),
        "optimal": np.asarray(per_action.optimal, dtype=np.int8).tolist(),
        "controls": controls(game, names),
    }


def controls(game: Game, columns: list[str]) -> list[dict[str, Any]]:
    """One control per state column: the game's (:func:`~mdp.hookspecs.game.mdp_report_controls`)
    where it gives one, else a select of the values that occur."""
    given = game.call("mdp_report_controls") or []
    if not isinstance(given, (list, tuple)):
        raise ModelError(f"game {game.name}: mdp_report_controls returned {given!r}, not a list")
    by_column: dict[str, dict[str, Any]] = {}
    for control in given:
        problem = _control_problem(control, columns)
        if problem:
            raise ModelError(f"game {game.name}: mdp_report_controls gave {control!r}: {problem}")
        by_column[control["column"]] = {"label": control["column"], **control}
    return [by_column.get(c, {"column": c, "kind": "select", "label": c}) for c in columns]


def _control_problem(control: Any, columns: list[str]) -> str | None:
    if not isinstance(control, dict):
        return "not a dict"
    if control.get("column") not in columns:
        return f"column must be one of the state columns {', '.join(columns)}"
    if control.get("kind") not in CONTROL_KINDS:
        return f"kind must be one of {', '.join(CONTROL_KINDS)}"
    if control["kind"] in ("toggles", "multiset"):
        items = control.get("items")
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            return f"{control['kind']} need items, a list of texts"
    if control["kind"] == "multiset":
        most = control.get("most")
        if not isinstance(most, int) or isinstance(most, bool) or most < 1:
            return "a multiset needs most, the most items picked, a whole number of 1 or more"
    try:
        json.dumps(control, allow_nan=False)
    except (TypeError, ValueError):
        return "not JSON (texts, numbers, lists and dicts only)"
    return None


def _encode(series: pl.Series) -> dict[str, Any]:
    """A column as its sorted distinct values (text, compared as :func:`mdp.advise`
    compares them; ``None`` first) and one code per row."""
    values = series.unique().sort(nulls_last=False)
    text = values.cast(pl.String)
    codes = (series.to_frame("v").with_row_index("row")
             .join(values.to_frame("v").with_row_index("code"), on="v", how="left", nulls_equal=True)
             .sort("row")["code"])
    return {"name": series.name, "values": text.to_list(), "codes": codes.to_list()}


def _take(items: Any, ids: np.ndarray) -> Any:
    return items[ids] if isinstance(items, np.ndarray) else [items[i] for i in ids.tolist()]


# The sections of the page, as HTML.


def _percent(value: float) -> str:
    return f"{100 * value:.4f}%"


def _number(value: float, probability: bool) -> str:
    return _percent(value) if probability else f"{value:.10g}"


def _facts(exact: Solution, game: Game) -> str:
    model = exact.model
    return _facts_section(exact, f"{model.n_states:,} ({model.n_terminal:,} where the game is "
                                 f"over); {model.n_actions:,} actions")


def _round_facts(solution: RoundsSolution) -> str:
    """The facts of a game of rounds: its value (exact where it was solved exactly) and
    its rounds."""
    model = solution.model
    return _facts_section(solution, f"{model.n_rounds} rounds through "
                                    f"{model.n_round_states:,} round states; a round of "
                                    f"{model.round.n_states:,} states")


def _facts_section(solution: Solution | RoundsSolution, size: str) -> str:
    """The section on the game: its rules, value (with the fraction where exact) and size."""
    info, value = solution.model.info, solution.value
    sense = "maximized" if solution.sense == "max" else "minimized"
    shown = readable(float(value))
    if info.objective.probability:
        shown = f"{float(value):.4%} ({shown})"
    exact = f" = {value.numerator}/{value.denominator}" if solution.exact else ""
    params = ", ".join(f"{k}={_param(v)}" for k, v in info.params.items() if v not in (None, ""))
    rows = [("Rules", info.rules), ("Variant", info.variant or "none (the default rules)"),
            ("Parameters", params or "none"), ("Objective", f"{info.objective.name} ({sense})"),
            ("Value under optimal play", shown + exact),
            ("Rounds" if isinstance(solution, RoundsSolution) else "States", size)]
    items = "\n".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in rows)
    return (f'<section aria-labelledby="facts-h"><h2 id="facts-h">The game</h2>\n'
            f'<p class="value" id="value">{html.escape(info.objective.name)}: '
            f'<strong>{html.escape(shown)}</strong></p>\n<dl class="facts">\n{items}\n</dl></section>')


def _simulated(solution: RoundsSolution, game: Game) -> str:
    """How games played at random end: a chart of their points, the mean, the spread, and
    how often each column of the round state they end in took each value."""
    result = simulate(solution, game, games=REPORT_GAMES, seed=0)
    frame = result.shares("points")
    labels, width = None, 1
    if frame["points"].dtype.is_integer():  # every score from the least to the greatest,
        lo, hi = int(frame["points"].min()), int(frame["points"].max())  # in equal ranges
        width = -(-(hi - lo + 1) // CHART_MOST)
        start = lo // width * width
        low = ((pl.col("points") - start) // width * width + start).alias("points")
        frame = (pl.DataFrame({"points": range(start, hi + 1, width)})
                 .join(frame.group_by(low).agg(pl.col("probability").sum()), on="points", how="left")
                 .with_columns(pl.col("probability").fill_null(0.0)).sort("points"))
        labels = [f"points {p}" if width == 1 else f"points {p} to {p + width - 1}"
                  for p in frame["points"].to_list()]
    spread = ", ".join(f"{p} {v:g}" for p, v in result.percentiles.items())
    ends = []
    for column in result.outcomes.columns:
        if column not in ("points", "games", "frequency"):
            ends.append(f"<li>{html.escape(column)}: " + ", ".join(
                f"{html.escape(str(v))} {_percent(share)}"
                for v, share in result.shares(column).iter_rows()) + "</li>")
    intro = (f"{result.games:,} games played at random under optimal play (seed 0): mean "
             f"{result.mean:.6g} (95% confidence interval {result.low:.6g} to {result.high:.6g}), "
             f"standard deviation {result.sd:.4g}; percentiles {spread}. The bars are the share "
             f"of games at each final score{f' range ({width} points each)' if width > 1 else ''}, "
             "the line the share up to it.")
    extra = (f"<p>Where the games ended:</p><ul>{''.join(ends)}</ul>\n" if ends else "")
    return _outcomes(frame, False, intro=intro, extra=extra, labels=labels)


def _param(value: Any) -> str:
    text = "" if value is None else str(value)
    return f'"{text}"' if " " in text or not text else text


def _outcomes(frame: pl.DataFrame, probability: bool, intro: str | None = None,
              extra: str = "", labels: list[str] | None = None) -> str:
    names = [c for c in frame.columns if c not in ("probability", "exact")]
    p = frame["probability"].to_numpy()
    cumulative = np.minimum(np.cumsum(p), 1.0)
    labels = labels or [", ".join(f"{n} {v}" for n, v in zip(names, row))
                        for row in frame.select(names).iter_rows()]
    rows = "\n".join(f"<tr><td>{html.escape(label)}</td><td>{_percent(a)}</td><td>{_percent(b)}</td></tr>"
                     for label, a, b in zip(labels, p, cumulative))
    head = "".join(f"<th scope=col>{html.escape(n)}</th>" for n in ("outcome", "probability", "cumulative"))
    intro = intro or ("The chance of each outcome under optimal play (bars), and the chance of "
                      "an outcome up to it (the line, right axis).")
    return (f'<section aria-labelledby="outcomes-h"><h2 id="outcomes-h">How the game ends</h2>\n'
            f"<p>{html.escape(intro)}</p>\n"
            f"<div class=scroll>{chart(frame[names[0]].to_list(), p, cumulative, names[0], labels)}</div>\n"
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
           f'aria-labelledby="chart-t"><title id="chart-t">Chance of each {html.escape(axis)} '
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
                   f'{_percent(float(chance))} (cumulative {_percent(float(total))})</title></rect>')
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


def _explorer(explorer: dict | None, rows: int, max_rows: int, game: str,
              rounds: bool = False) -> str:
    head = '<section aria-labelledby="explorer-h"><h2 id="explorer-h">What should I play?</h2>\n'
    if rounds:
        return (head + '<p class="note" id="no-explorer">This game is played in rounds: its '
                "positions, a round state and a state of the round, are too many for a page. "
                f"Ask <code>mdp advise {html.escape(game)} COLUMN=VALUE ...</code>, naming the "
                "round state and the state by their columns.</p></section>")
    if explorer is None:
        return (head + f'<p class="note" id="no-explorer">This game\'s policy has {rows:,} rows, '
                f"more than the {max_rows:,} a page carries, so this page has no explorer; ask "
                f"<code>mdp advise {html.escape(game)} COLUMN=VALUE ...</code> for a state.</p></section>")
    return (head + '<p>Set the position; the best move and every alternative follow, best first, '
            'with the value of each and the regret of playing it instead.</p>\n'
            '<form id="controls" class="controls" onsubmit="return false"></form>\n'
            '<div id="advice" aria-live="polite"></div></section>')
