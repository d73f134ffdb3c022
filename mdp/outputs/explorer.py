"""What the explorer of ``mdp report``'s page carries: the states of a model by their
readable columns, each action's columns, and either each action's value, regret and optimal
mark (a game of one model) or, for a game of rounds, every round state's value and the
round's model, which the page solves for the round state set (:func:`rounds_explorer_data`).
Columns are compact: each column's distinct values once, then a code per row; long arrays
as bytes. The controls that name a state are :mod:`mdp.outputs.controls`'s."""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.analysis.labels import action_labels
from mdp.engine.groups import starts
from mdp.engine.model import CompiledModel
from mdp.engine.policy import FLOAT_TIE
from mdp.engine.rounds.table import every_round_frame, round_frame
from mdp.engine.solution import Solution
from mdp.engine.solved import Solved
from mdp.errors import ModelError
from mdp.game.cells import to_frame
from mdp.game.columns import row_columns
from mdp.game.naming import written
from mdp.outputs.controls import controls
from mdp.outputs.evaluated import evaluated
from mdp.outputs.evaluated import quiet_late_callbacks as _quiet_late_callbacks

if TYPE_CHECKING:
    from mdp.engine.rounds.solution import RoundsSolution
    from mdp.game.load import Game


"""The controls the explorer draws (see :func:`~mdp.hookspecs.game.mdp_report_controls`)."""


def explorer_data(solution: Solution[Any], game: Game) -> dict[str, Any]:
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


def _positions(model: CompiledModel, game: Game, first: Sequence[str] = ()) -> dict[str, Any]:
    """The states of a model, JSON-ready: every state's readable columns (those
    :func:`mdp.advise` names a state by), ``actionStart`` (state ``s``'s actions are
    ``actionStart[s]`` to ``actionStart[s + 1] - 1``), every action's columns, ``initial``,
    ``tie`` (values within ``tie`` of the best, relative, are tied) and ``controls`` (those
    of the columns ``first`` before them: a round state's). A column is
    ``{"name", "values", "codes"}``: its distinct values as text (``null`` where it does not
    apply), sorted, and one code per row."""
    states = model.states
    prints = model.column_prints
    table = to_frame(row_columns(game, states, [None] * len(states), prints), f"game {game.name}")
    names = [c for c in table.columns if table[c].null_count() < table.height]
    labels = row_columns(game, _take(states, model.action_state()), action_labels(model, game),
                         None if prints is None else prints[model.action_state()])
    actions = to_frame({k: v for k, v in labels.items() if k not in names}, f"game {game.name}")
    return {
        "states": model.n_states,
        "initial": int(model.initial),
        "tie": FLOAT_TIE,
        "columns": [_encode(table[c]) for c in names],
        "actionStart": model.action_offsets(0, model.n_states).tolist(),
        "actionColumns": [_encode(actions[c]) for c in actions.columns
                          if actions[c].null_count() < actions.height],
        "controls": controls(game, [*first, *names],
                             {c: table[c].drop_nulls().unique().cast(pl.String).to_list() for c in names}),
    }


def rounds_explorer_data(solution: RoundsSolution, game: Game) -> dict[str, Any]:
    """What the explorer of a game of rounds embeds, JSON-ready (the page also needs the
    game's :func:`~mdp.hookspecs.game.mdp_round_ends_script`): the positions of the round
    model (:func:`_positions`), its transitions (``outStart``: action ``a``'s outcomes are
    ``outStart[a]`` to ``outStart[a + 1] - 1``, leading to ``outNext`` with chance
    ``outChance``), and ``rounds``: every round state's key and value, round after round
    (``roundStart``), its readable columns, the round's ``ends`` as the game writes them,
    and ``sense``.
    The long arrays are little-endian bytes in base64 (:func:`_packed`)."""
    model, inner = solution.model, solution.model.round
    keys = np.concatenate(model.keys)
    table = every_round_frame(model, game)
    action, following, chance = inner.edges()
    table_of = np.array([float(p) for p in inner.probabilities] + [1.0])  # -1: a certain one
    return {
        **_positions(inner, game, first=table.columns),
        "outStart": _packed(starts(np.bincount(action, minlength=inner.n_actions))),
        "outNext": _packed(following),
        "outChance": _packed(table_of[chance]),
        "rounds": {
            "sense": solution.sense,
            "roundStart": starts([len(k) for k in model.keys]).tolist(),
            "keys": _packed(keys),
            "values": _packed(np.concatenate([np.asarray(v, dtype=np.float64) for v in solution.values])),
            "columns": [_encode(table[c], packed=True) for c in table.columns],
            "ends": [json_ready(end) for end in inner.states[:inner.n_terminal]],
            "check": checked_round_ends(solution, game),
        },
    }


PAGE_CELLS = 50_000
"""The most ends (round states times the ends of a round) whose next round state and points
the page carries, to check the game's script against when it opens: every round state of a
game with no more, else a spread of every round's (at least :data:`SAMPLE` of each). Full
Yahtzee's 187 ends: about 270 round states, under 0.4 MB of the page."""

CHECK_CELLS = 2_000_000
"""The most ends the game's script is run on before the page is written, where a JavaScript
engine is installed: every round state of a game with no more, else a spread of every
round's, besides those the page carries. V8 runs Yahtzee's script on about two million ends a
second, its answers read back included: about 10,700 of full Yahtzee's 359,616 round states."""

SAMPLE = 16
"""The fewest round states of each round, spread over its keys, that both checks cover."""

SCRIPT_SECONDS = 10
"""The longest a game's script of round ends may run on the round states checked before it
is refused."""

SCRIPT_BYTES = 512 << 20
"""The most memory a game's script of round ends may take (its JavaScript heap) before it is
refused: past V8's own limit, V8's fatal error would end the process."""


def checked_round_ends(solution: RoundsSolution, game: Game) -> dict[str, Any]:
    """The ends the game's round rule (:func:`~mdp.hookspecs.game.mdp_round_rule`) gives
    round states of every round (``keys``; ``next`` and ``points``, a row per key and a
    column per end: every round state where there are few, see :data:`PAGE_CELLS`), which the
    page checks the game's script of round ends against when it opens, with ``carried``
    (how many), ``of`` (the round states of the game) and ``made`` (how many the script was checked on here, 0
    without a JavaScript engine). Where one is installed (mini-racer, the extra ``report``),
    the script is run first on those and more (:data:`CHECK_CELLS`): one that disagrees,
    raises or does not parse is a :class:`~mdp.ModelError` naming the round state and the
    end, and no page is made."""
    model, ends = solution.model, solution.model.round.n_terminal
    keys = _spread(model.keys, max(PAGE_CELLS // ends, SAMPLE))
    asked = model.rule(keys)
    points = np.asarray(asked.points)
    points = points if points.dtype.kind in "iu" else points.astype(np.float64)
    sample = {"keys": _packed(keys), "next": _packed(asked.next.ravel()), "points": _packed(points.ravel()),
              "carried": len(keys), "of": model.n_round_states, "made": 0}
    try:
        from py_mini_racer import MiniRacer  # optional: exact-mdp[report]
    except ImportError:
        return sample
    checked = np.union1d(keys, _spread(model.keys, max(CHECK_CELLS // ends, SAMPLE)))
    _quiet_late_callbacks()
    with MiniRacer() as engine:  # closed before an error leaves: V8 then lets Python exit
        engine.set_hard_memory_limit(SCRIPT_BYTES)
        _check_script(engine, solution, game, checked)
    return {**sample, "made": len(checked)}


def _spread(keys: Sequence[np.ndarray], rows: int) -> np.ndarray:
    """About ``rows`` round states spread over every round's ``keys`` (at least ``SAMPLE``
    of each, or all it has): all of a round with no more than its share, else its share,
    spread evenly over its keys; the smaller rounds first, what they leave shared by the rest."""
    chosen: list[np.ndarray] = [np.empty(0, dtype=np.int64)] * len(keys)
    left = rows
    for done, r in enumerate(np.argsort([len(k) for k in keys], kind="stable").tolist()):
        share, k = max(left // (len(keys) - done), SAMPLE), keys[r]
        chosen[r] = k if len(k) <= share else k[np.unique(np.linspace(0, len(k) - 1, share).astype(np.int64))]
        left -= len(chosen[r])
    return np.concatenate(chosen)


def _check_script(engine: Any, solution: RoundsSolution, game: Game, keys: np.ndarray) -> None:
    """Run the game's script of round ends on every round state of ``keys`` and compare its
    answers with :func:`~mdp.hookspecs.game.mdp_round_rule`'s (see :func:`checked_round_ends`)."""
    from py_mini_racer import JSEvalException, JSOOMException

    model, inner = solution.model, solution.model.round
    ends = [json_ready(end) for end in inner.states[:inner.n_terminal]]
    script = _theirs(game, "mdp_round_ends_script")
    whose = f"plugin {script[-1]}'s " if script else ""
    where = f"game {game.name}: {whose}mdp_round_ends_script"

    def run(body: str, ids: np.ndarray, size: int | None = None) -> Any:
        try:  # numbers where the script gives numbers, null for anything else; JSON's own
            text = str(evaluated(engine, "(function (stringify) { return (function (f, keys, ends) "
                                 f"{{ {body} }})(({round_ends_script(game)}), {json.dumps(ids.tolist())}, "
                                 f"{json.dumps(ends)}); }})(JSON.stringify)", SCRIPT_SECONDS))
            answer = json.loads(text)  # [next, points], of ``size`` numbers each where given
            if isinstance(answer, list) and len(answer) == 2 and (size is None or all(
                    isinstance(p, list) and len(p) == size and all(type(v) in (int, float, type(None))
                                                                   for v in p) for p in answer)):
                return answer
        except json.JSONDecodeError:
            pass
        except JSOOMException as error:
            raise ModelError(f"{where} does not run: it took more than the "
                             f"{SCRIPT_BYTES >> 20} MB of memory a script may take") from error
        except JSEvalException as error:  # a syntax error, an exception thrown, a long run
            raise ModelError(f"{where} does not run: {str(error).splitlines()[0]}") from error
        raise ModelError(f"{where} gives back {text[:60]!r}, not the answers mdp asked for; a script "
                         "leaves JavaScript's own objects (JSON, Object.prototype) as they are")

    asked = model.rule(keys)
    want, worth = asked.next, np.asarray(asked.points, dtype=np.float64)
    got = run("function number(v) { return typeof v === 'number' && isFinite(v) ? v : null; }"
              "var n = ends.length, next = [], points = [];"
              "keys.forEach(function (k) { var g = f(k, ends), a = g && g.next, b = g && g.points;"
              " for (var e = 0; e < n; e++) {"
              " next.push(number(a && typeof a === 'object' ? a[e] : undefined));"
              " points.push(number(b && typeof b === 'object' ? b[e] : undefined)); } });"
              "return stringify([next, points]);", keys, want.size)
    shown = np.array(got[0], dtype=np.float64).reshape(want.shape)
    score = np.array(got[1], dtype=np.float64).reshape(want.shape)
    with np.errstate(invalid="ignore"):
        close = np.abs(score - worth) <= 1e-9 * np.maximum(1, np.abs(worth))
        wrong = (shown != want) | (want >= 0) & ~close
    if not wrong.any():
        return
    row, e = (int(i) for i in np.argwhere(wrong)[0])
    following, scored = run(  # each answer tagged where it is an object (new Number(1))
        "function tag(v) { return v !== null && typeof v === 'object' && !Array.isArray(v) ? {object: "
        "Object.prototype.toString.call(v).slice(8, -1), value: String(v)} : v; }"
        "function each(x) { return Array.isArray(x) ? x.map(tag) : x; }"
        "var g = f(keys[0], ends); return stringify([each(g.next), each(g.points)]);",
        keys[row:row + 1])

    def at(values: Any) -> Any:
        return values[e] if isinstance(values, list) and e < len(values) else None

    card = written(round_frame(model, game, keys[row:row + 1]).row(0, named=True))
    raise ModelError(f"{where} disagrees with mdp_round_rule at round state {int(keys[row])} "
                     f"({card or 'every round column empty'}), end {inner.states[e]!r}: it gives "
                     f"the next round state {_js(at(following))} and {_js(at(scored))} points, "
                     f"mdp_round_rule {int(want[row, e])} and {worth[row, e]:g}{_changed_by(game)}")


def _theirs(game: Game, hook: str) -> list[str]:
    """The rule plugins that implement ``hook``, the last registered (outermost) last."""
    return [impl.plugin_name for impl in getattr(game.plugins.hook, hook).get_hookimpls()
            if not game.own(impl.plugin_name)]


def _changed_by(game: Game) -> str:
    """Where a rule plugin's mdp_round_rule is the rule played and the script is not its
    own, the plugin that changed the rule without giving the page its script."""
    rule = _theirs(game, "mdp_round_rule")
    if not rule or rule[-1] in _theirs(game, "mdp_round_ends_script"):
        return ""
    return (f"; plugin {rule[-1]} changes mdp_round_rule, and gives the page no script of its "
            "own (mdp_round_ends_script) to change it alike")


def _js(value: Any) -> str:
    """A script's answer as JavaScript writes it: a string quoted, so that "1" is not read
    as 1, and null for what JSON has no number for (NaN, Infinity, undefined)."""
    if isinstance(value, dict) and "object" in value:  # (a Number object: no number)
        kind = str(value["object"])
        return f"{value.get('value')} ({'an' if kind[:1] in 'AEIOU' else 'a'} {kind} object, not a number)"
    return "null (NaN, Infinity or undefined)" if value is None else json.dumps(value)


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


def json_ready(value: Any) -> Any:
    """A value as the page's JSON holds it, wherever it sits (states, columns, ends, the
    page's data): dicts by their values, tuples and lists as lists, numpy numbers as
    Python's; floats that are not finite (``"inf"``, ``"nan"``), as anything else that JSON
    has no value for, as text."""
    if isinstance(value, dict):
        return {key: json_ready(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [json_ready(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


class _Rows:
    """The rows the explorer carries, counted as policy rows (about 50 bytes each on the
    page), by kind (:meth:`mdp.engine.solved.Solved.shown`): a row per action; in a game of
    rounds, a row per action of the round and one per two round states (each a key, a value
    and a code per column: about half the bytes)."""

    @staticmethod
    def model(solution: Solution[Any]) -> int:
        return solution.model.n_actions

    @staticmethod
    def rounds(solution: RoundsSolution) -> int:
        return -(-solution.model.n_round_states // 2) + solution.model.round.n_actions


def explorer_rows(solution: Solved) -> int:
    """The rows the explorer of ``solution`` carries (see :class:`_Rows`)."""
    return solution.shown(_Rows)


@attrs.frozen
class _Without:
    """Why a page has no explorer, by kind: a game of rounds needs the game's script of the
    ends of a round as well."""

    game: Game

    def model(self, solution: Solution[Any]) -> str | None:
        return None

    def rounds(self, solution: RoundsSolution) -> str | None:
        if round_ends_script(self.game) is None:
            return ("the game gives no script of the ends of a round (mdp_round_ends_script), "
                    "which the page needs to tell what they are worth")
        return None


def without_explorer(solution: Solved, game: Game, max_rows: int) -> str | None:
    """Why the page of ``solution`` has no explorer, in words; ``None`` where it has one."""
    why = solution.shown(_Without(game))
    if why is not None:
        return why
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
