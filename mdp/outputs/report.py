"""One self-contained HTML page about a solved game: its rules, its value, how it ends, its
named strategies, and an explorer that gives the advice of :func:`mdp.advise` for any state.

Everything is inside the page (styles, script, data, the chart as inline SVG): it opens from
a file, offline. The explorer carries the policy as compact columns (each readable column
as a dictionary of values and one code per row), and its script ranks the actions of the
state the controls name as :func:`mdp.advise` does.
"""

from __future__ import annotations

import base64
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
from mdp.engine.model import CompiledModel, offsets
from mdp.engine.policy import FLOAT_TIE
from mdp.engine.rounds import RoundsSolution
from mdp.engine.solution import Solution
from mdp.engine.solve import solve
from mdp.errors import ModelError, ParamError
from mdp.game.columns import round_columns, row_columns, to_frame
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
        why = without_explorer(solution, game, max_rows)
        explorer = None if why else rounds_explorer_data(solution, game)
        return _page(game, [_round_facts(solution), _simulated(solution, game),
                            _explorer(explorer, why, game.name, rounds=True)],
                     solution.model.info.objective, explorer,
                     round_ends_script(game) if explorer else None)
    if solution.policy is not None:
        raise ParamError(f"a report shows optimal play and every named strategy; "
                         f"it is made from an optimal solution, not from {solution.policy.name}")
    model = solution.model
    floats = solve(model, sense=solution.sense) if solution.exact else solution
    exact = solution if solution.exact else solve(model, exact=True, sense=solution.sense)
    why = without_explorer(solution, game, max_rows)
    explorer = None if why else explorer_data(floats, game)
    sections = [
        _facts(exact, game),
        _outcomes(distribution(floats, game), model.info.objective.probability),
        _strategies(strategy_values(model, game, sense=solution.sense), model.info.objective.probability),
        _explorer(explorer, why, game.name),
    ]
    return _page(game, sections, model.info.objective, explorer)


def _page(game: Game, sections: list[str], objective: Any, explorer: dict | None,
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
             "DATA": json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c"),
             "SCRIPT": "" if script is None else
                       f"<script>\nvar mdpRoundEnds = ({script});\n</script>"}
    template = resources.files("mdp.outputs").joinpath("report.html").read_text(encoding="utf-8")
    # One pass: text put in is never read again for placeholders.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m[1]], template)


def explorer_data(solution: Solution, game: Game) -> dict[str, Any]:
    """What the explorer embeds, JSON-ready: the positions (:func:`_positions`) and every
    action's ``value``, ``regret`` and ``optimal`` (0 or 1) as
    :meth:`mdp.Solution.action_values` gives them."""
    per_action = solution.action_values()
    return {
        **_positions(solution.model, game),
        "value": np.asarray(per_action.value, dtype=np.float64).tolist(),
        "regret": np.asarray(per_action.regret, dtype=np.float64).tolist(),
        "optimal": np.asarray(per_action.optimal, dtype=np.int8).tolist(),
    }


def _positions(model: CompiledModel, game: Game, before: dict[str, Any] | None = None) -> dict[str, Any]:
    """The states of a model, JSON-ready: every state's readable columns (those
    :func:`mdp.advise` names a state by), ``actionStart`` (state ``s``'s actions are
    ``actionStart[s]`` to ``actionStart[s + 1] - 1``), every action's columns, ``initial``
    and ``controls`` (those of the columns ``before`` first: a round state's). A column is
    ``{"name", "values", "codes"}``: its distinct values as text (``null`` where it does not
    apply), sorted, and one code per row."""
    states = model.states
    table = pl.DataFrame(row_columns(game, states, [None] * len(states)), strict=False)
    names = [c for c in table.columns if table[c].null_count() < table.height]
    labels = row_columns(game, _take(states, model.action_state()), action_labels(game, model))
    actions = pl.DataFrame({k: v for k, v in labels.items() if k not in names}, strict=False)
    return {
        "states": model.n_states,
        "initial": int(model.initial),
        "columns": [_encode(table[c]) for c in names],
        "actionStart": model.action_offsets(0, model.n_states).tolist(),
        "actionColumns": [_encode(actions[c]) for c in actions.columns
                          if actions[c].null_count() < actions.height],
        "controls": controls(game, [*(before or {}), *names]),
    }


def rounds_explorer_data(solution: RoundsSolution, game: Game) -> dict[str, Any]:
    """What the explorer of a game of rounds embeds, JSON-ready (the page also needs the
    game's :func:`~mdp.hookspecs.game.mdp_round_ends_script`): the positions of the round
    model (:func:`_positions`), its transitions (``outStart``: action ``a``'s outcomes are ``outStart[a]`` to
    ``outStart[a + 1] - 1``, leading to ``outNext`` with chance ``outChance``), and
    ``rounds``: every round state's key and value, round after round (``roundStart``), its
    readable columns, the round's ``ends`` as the game writes them, and ``sense``. The long
    arrays are little-endian bytes in base64 (:func:`_packed`)."""
    model, inner = solution.model, solution.model.round
    keys = np.concatenate(model.keys)
    table = to_frame(round_columns(game, keys))
    action, following, chance = inner.edges()
    table_of = np.array([float(p) for p in inner.probabilities] + [1.0])  # -1: a certain one
    return {
        **_positions(inner, game, before=dict.fromkeys(table.columns)),
        "outStart": _packed(offsets(np.bincount(action, minlength=inner.n_actions))),
        "outNext": _packed(following),
        "outChance": _packed(table_of[chance]),
        "rounds": {
            "sense": solution.sense,
            "tie": FLOAT_TIE,
            "roundStart": offsets([len(k) for k in model.keys]).tolist(),
            "keys": _packed(keys),
            "values": _packed(np.concatenate([np.asarray(v, dtype=np.float64) for v in solution.values])),
            "columns": [_encode(table[c], packed=True) for c in table.columns],
            "ends": [_json_ready(end) for end in inner.states[:inner.n_terminal]],
        },
    }


def _packed(values: np.ndarray) -> dict[str, str]:
    """An array as ``{"type", "data"}``: integers in the smallest of Uint8, Uint16, Int32
    (past which Float64, exact up to 2**53), else Float64; little-endian bytes in base64,
    as the page's typed arrays read them."""
    values = np.asarray(values)
    if values.dtype.kind in "iub" and len(values):
        low, high = int(values.min()), int(values.max())
        kind = next((t for t, lo, hi in (("Uint8", 0, 255), ("Uint16", 0, 65535),
                                          ("Int32", -2**31, 2**31 - 1)) if lo <= low and high <= hi),
                    "Float64")
    else:
        kind = "Float64"
    if kind == "Float64" and values.dtype.kind in "iu" and (np.abs(values) > 2**53).any():
        raise ModelError("a page carries integers up to 2**53 (its numbers are doubles), "
                         f"not {int(np.abs(values).max())}")
    dtype = {"Uint8": "<u1", "Uint16": "<u2", "Int32": "<i4", "Float64": "<f8"}[kind]
    return {"type": kind, "data": base64.b64encode(values.astype(dtype).tobytes()).decode("ascii")}


def _json_ready(value: Any) -> Any:
    """A state as JSON: tuples as lists, numpy numbers as Python's; anything else as text."""
    if isinstance(value, (tuple, list)):
        return [_json_ready(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def explorer_rows(solution: Solution | RoundsSolution) -> int:
    """The rows the explorer carries, counted as policy rows (about 50 bytes each on the
    page): a row per action; in a game of rounds, a row per action of the round and one per
    two round states (each a key, a value and a code per column: about half the bytes)."""
    if isinstance(solution, RoundsSolution):
        return -(-solution.model.n_round_states // 2) + solution.model.round.n_actions
    return solution.model.n_actions


def without_explorer(solution: Solution | RoundsSolution, game: Game, max_rows: int) -> str | None:
    """Why the page of ``solution`` has no explorer, in words; ``None`` where it has one."""
    if isinstance(solution, RoundsSolution) and round_ends_script(game) is None:
        return ("the game gives no script of the ends of a round (mdp_round_ends_script), "
                "which the page needs to tell what they are worth")
    rows = explorer_rows(solution)
    return (f"its {rows:,} rows are more than the {max_rows:,} a page carries (--max-rows)"
            if rows > max_rows else None)


def round_ends_script(game: Game) -> str | None:
    """The game's :func:`~mdp.hookspecs.game.mdp_round_ends_script`, made safe to put inside
    a ``<script>`` element (it cannot close it); ``None`` where the game gives none."""
    script = game.call("mdp_round_ends_script")
    if script is None:
        return None
    if not isinstance(script, str):
        raise ModelError(f"game {game.name}: mdp_round_ends_script returned "
                         f"{type(script).__name__}, not the text of a JavaScript function")
    return re.sub(r"</(script)", r"<\\/\1", script, flags=re.IGNORECASE)


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


def _encode(series: pl.Series, packed: bool = False) -> dict[str, Any]:
    """A column as its sorted distinct values (text, compared as :func:`mdp.advise`
    compares them; ``None`` first) and one code per row (:func:`_packed` with ``packed``)."""
    values = series.unique().sort(nulls_last=False)
    text = values.cast(pl.String)
    codes = (series.to_frame("v").with_row_index("row")
             .join(values.to_frame("v").with_row_index("code"), on="v", how="left", nulls_equal=True)
             .sort("row")["code"])
    return {"name": series.name, "values": text.to_list(),
            "codes": _packed(codes.to_numpy()) if packed else codes.to_list()}


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


def _explorer(explorer: dict | None, why: str | None, game: str, rounds: bool = False) -> str:
    head = '<section aria-labelledby="explorer-h"><h2 id="explorer-h">What should I play?</h2>\n'
    if explorer is None:
        position = "the round state and the state" if rounds else "the state"
        return (head + f'<p class="note" id="no-explorer">This page has no explorer: {why}. Ask '
                f"<code>mdp advise {html.escape(game)} COLUMN=VALUE ...</code>, naming {position} "
                "by their columns.</p></section>")
    still = (" In this game of rounds a position is a round state and a state of the round; a "
             "value is what is still to come, the points of this round included, under best play."
             if rounds else "")
    return (head + '<p>Set the position; the best move and every alternative follow, best first, '
            f'with the value of each and the regret of playing it instead.{still}</p>\n'
            '<form id="controls" class="controls" onsubmit="return false"></form>\n'
            '<div id="advice" aria-live="polite"></div></section>')
