"""Strategies: ways to play other than the optimal one, evaluated exactly on the same compiled
model (policy evaluation), and optimal play with its ties broken by a stated rule.

A strategy gives every action a *weight*; in each state it takes an action with probability
its weight over the state's total. Weights that are ``int`` (or ``Fraction``) keep exact
evaluation exact; ``0`` and ``1`` make a strategy that always takes the same action.

Where several actions are optimal, the choice changes how a game ends (not its value). The
rule: keep the optimal actions; for each tie-break objective in turn, keep those of them that
are best for it (the objective solved on the kept actions only); then take the *first* kept
action in the game's own order. Exact values tie when equal; floats within
:data:`mdp.engine.solve.FLOAT_TIE` of the best.
"""

from __future__ import annotations

import time
from fractions import Fraction
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.engine.arithmetic import Exact, Floats, Rationals, objects
from mdp.errors import ModelError, ParamError, did_you_mean
from mdp.engine.model import CompiledModel
from mdp.engine.solve import FLOAT_TIE, Sense, Solution, _terminal_values, solve

if TYPE_CHECKING:
    from mdp.game.load import Game

OPTIMAL = "optimal"
"""The name of optimal play, beside the game's strategies (``--strategy optimal``)."""


@attrs.frozen
class Strategy:
    """A named way to play, offered by a game or a rule plugin (:func:`~mdp.game.hookspecs.mdp_strategies`).

    ``weights(game, model)`` returns one non-negative weight per action of the compiled model,
    in action order (an integer array for a strategy that exact evaluation keeps exact); the
    strategy takes an action with probability its weight over the total of its state's.
    """

    name: str
    help: str
    weights: Callable[[Game, CompiledModel], Any] = attrs.field(repr=False)


def strategies(game: Game) -> dict[str, Strategy]:
    """The strategies a game and its rule plugins name, by name, the game's first."""
    found: dict[str, Strategy] = {}
    for item in game.collect("mdp_strategies", Strategy):
        if item.name in found or item.name == OPTIMAL:
            raise ModelError(f"game {game.name}: two strategies are named {item.name!r}")
        found[item.name] = item
    return found


def find_strategy(game: Game, name: str) -> Strategy:
    """The game's strategy ``name``; :class:`mdp.ParamError` naming those on offer if none."""
    known = strategies(game)
    if name not in known:
        names = ", ".join([OPTIMAL, *known])
        raise ParamError(f"game {game.name} has no strategy {name!r}{did_you_mean(name, [OPTIMAL, *known])} "
                         f"(known: {names})")
    return known[name]


def evaluate(model: CompiledModel, strategy: str | Strategy | Any, *, game: Game | None = None,
             exact: bool = False, terminal: Any = None, sense: Sense | None = None) -> Solution:
    """The value of every state when playing ``strategy``: a :class:`Solution` whose
    ``value`` is the strategy's (its ``action_values()`` are those of taking each action and
    following the strategy after it).

    ``strategy`` is a name (``"random"``; needs ``game``), a :class:`Strategy` (needs
    ``game``), or the weights themselves, one per action. ``"optimal"`` is optimal play, with
    ties broken by the rule of this module. ``exact``, ``terminal`` and ``sense`` are those of
    :func:`mdp.solve`.
    """
    start = time.perf_counter()
    if isinstance(strategy, str) and strategy == OPTIMAL:
        solution = solve(model, exact=exact, terminal=terminal, sense=sense)
        chosen = choices(solution)
        return attrs.evolve(solution, strategy=OPTIMAL,
                            probabilities=probabilities(model, chosen, exact))
    name, weights = _weights(model, strategy, game)
    p = probabilities(model, weights, exact, name)
    values = _terminal_values(model, terminal, exact)
    numbers = (Rationals if exact else Floats)(model, values)
    raw = numbers.start()
    for layer in range(1, model.n_layers):
        lo, hi = model.layer_start[layer], model.layer_start[layer + 1]
        a0, a1 = model.layer_actions(layer)
        q = model.backup(layer, raw, numbers) * p[a0:a1]
        raw[lo:hi] = np.add.reduceat(q, model.action_start[lo:hi] - a0)
    return Solution(model, sense or model.info.objective.sense, raw, numbers,
                    time.perf_counter() - start, strategy=name, probabilities=p)


def _weights(model: CompiledModel, strategy: Any, game: Game | None) -> tuple[str, Any]:
    if isinstance(strategy, str):
        if game is None:
            raise ParamError(f"strategy {strategy!r}: pass game= to look it up")
        strategy = find_strategy(game, strategy)
    if isinstance(strategy, Strategy):
        if game is None:
            raise ParamError(f"strategy {strategy.name!r}: pass game= to compute its weights")
        return strategy.name, _call(game, strategy, model)
    return "custom", strategy


def _call(game: Game, strategy: Strategy, model: CompiledModel) -> Any:
    try:
        return strategy.weights(game, model)
    except (ModelError, ParamError):
        raise
    except Exception as error:
        raise ModelError(f"game {game.name}: strategy {strategy.name} raised "
                         f"{type(error).__name__}: {error}") from error


def probabilities(model: CompiledModel, weights: Any, exact: bool, name: str = "custom") -> np.ndarray:
    """Each action's probability under per-action ``weights``: floats, or fractions in an
    object array when ``exact``. Checked: one weight per action, none negative, some weight
    in every state where the player acts."""
    w = np.asarray(weights)
    if w.shape != (model.n_actions,):
        raise ModelError(f"strategy {name}: {w.size:,} weights for {model.n_actions:,} actions")
    if w.dtype == bool:
        w = w.astype(np.int64)
    if exact:
        if w.dtype.kind == "f":
            raise ModelError(f"strategy {name}: float weights; exact evaluation needs int or "
                             "Fraction weights")
        w = objects([Fraction(x) for x in w.tolist()])
    elif w.dtype.kind not in "iuf":
        w = np.array([float(x) for x in w.tolist()], dtype=np.float64)
    else:
        w = w.astype(np.float64)
    if not len(w):
        return w
    if (w < 0).any():
        at = int(np.flatnonzero(w < 0)[0])
        raise ModelError(f"strategy {name}: negative weight for action {at}")
    starts = model.action_start[model.n_terminal:-1]
    totals = np.add.reduceat(w, starts)
    if (totals <= 0).any():
        at = int(np.flatnonzero(totals <= 0)[0]) + model.n_terminal
        raise ModelError(f"strategy {name}: no action has weight in state {model.states[at]!r}")
    return w / np.repeat(totals, model.action_counts[model.n_terminal:])


def parse_tie_break(text: str) -> tuple[Sense, str]:
    """``"max:shut_sum"`` -> ``("max", "shut_sum")``; a bare column is maximized."""
    sense, sep, column = text.rpartition(":")
    sense = sense if sep else "max"
    if sense not in ("max", "min") or not column:
        raise ParamError(f"tie-break {text!r}: expected COLUMN, max:COLUMN or min:COLUMN")
    return sense, column  # type: ignore[return-value]


def choices(solution: Solution, tie_break: Sequence[str | tuple[Sense, str]] = ()) -> np.ndarray:
    """Optimal play as weights, one per action: 1 for the action taken in each state, else 0.

    Among the optimal actions of a state, each tie-break objective in turn keeps those that
    are best for it (a column of ``model.terminals``, maximized or minimized, solved on the
    actions kept so far); then the first in the game's order is taken. Tie-breaks are
    ``"max:COLUMN"``, ``"min:COLUMN"`` (``"COLUMN"`` is maximized) or ``(sense, column)``.
    """
    model = solution.model
    if solution.strategy not in (None, OPTIMAL):
        raise ParamError(f"ties are broken in optimal play, not in the strategy {solution.strategy}")
    kept = np.asarray(solution.action_values().optimal, dtype=bool)
    for item in tie_break:
        sense, column = parse_tie_break(item) if isinstance(item, str) else item
        kept = _best_among(model, kept, _column(model, column), sense, solution.exact)
    return _first(model, kept)


def _column(model: CompiledModel, column: str) -> Any:
    terminals = model.terminals
    numeric = [c for c, t in terminals.schema.items() if t.is_numeric()]
    if column not in numeric:
        raise ParamError(f"tie-break column {column!r}{did_you_mean(column, numeric)}: the numeric "
                         f"columns of a terminal state are {', '.join(numeric)}")
    return terminals[column]


def _best_among(model: CompiledModel, kept: np.ndarray, terminal: Any, sense: Sense,
                exact: bool) -> np.ndarray:
    """The kept actions that are best for a second objective, solved on kept actions only."""
    values = _terminal_values(model, terminal, exact)
    numbers = (Exact if exact else Floats)(model, values)
    best = np.maximum if sense == "max" else np.minimum
    raw = numbers.start()
    parts = []
    for layer in range(1, model.n_layers):
        lo, hi = model.layer_start[layer], model.layer_start[layer + 1]
        a0, a1 = model.layer_actions(layer)
        q = model.backup(layer, raw, numbers)
        # A dropped action takes the layer's worst value: it never beats a kept one.
        worst = (np.minimum if sense == "max" else np.maximum).reduce(q)
        q = np.where(kept[a0:a1], q, worst)
        raw[lo:hi] = best.reduceat(q, model.action_start[lo:hi] - a0)
        parts.append(q)
    q = np.concatenate(parts) if parts else numbers.empty(0)
    top = raw[model.action_state()]
    if exact:
        return kept & (q == top)
    return kept & (np.abs(q - top) <= FLOAT_TIE * np.maximum(1.0, np.abs(top)))


def _first(model: CompiledModel, kept: np.ndarray) -> np.ndarray:
    """1 for the first kept action of each state, 0 elsewhere."""
    index = np.flatnonzero(kept)
    state = model.action_state()[index]
    first = np.ones(len(index), dtype=bool)
    first[1:] = state[1:] != state[:-1]
    chosen = np.zeros(model.n_actions, dtype=np.int64)
    chosen[index[first]] = 1
    return chosen


def play(solution: Solution, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The probability of each action in the play a solution stands for: its strategy's, or
    optimal play with ties broken (:func:`choices`); fractions in exact mode."""
    if solution.probabilities is not None and solution.strategy != OPTIMAL or \
            solution.probabilities is not None and not tie_break:
        if tie_break:
            raise ParamError(f"a tie-break applies to optimal play, not to the strategy {solution.strategy}")
        return solution.probabilities
    return probabilities(solution.model, choices(solution, tie_break), solution.exact)


def strategy_values(model: CompiledModel, game: Game, *, exact: bool = False,
                    sense: Sense | None = None) -> Any:
    """Optimal play and every strategy the game names, with their values: a Polars DataFrame
    with ``strategy``, ``value`` (a float), ``exact`` (``"p/q"``, exact mode only), ``regret``
    (the value lost against optimal play) and ``help``."""
    import polars as pl

    rows = [(OPTIMAL, solve(model, exact=exact, sense=sense).value, "the best play")]
    for strategy in strategies(game).values():
        solution = evaluate(model, strategy, game=game, exact=exact, sense=sense)
        rows.append((strategy.name, solution.value, strategy.help))
    best = rows[0][1]
    sign = 1 if (sense or model.info.objective.sense) == "max" else -1
    columns: dict[str, Any] = {"strategy": [r[0] for r in rows],
                               "value": [float(r[1]) for r in rows]}
    if exact:
        columns["exact"] = [f"{Fraction(r[1]).numerator}/{Fraction(r[1]).denominator}" for r in rows]
    columns["regret"] = [float(sign * (best - r[1])) for r in rows]
    columns["help"] = [r[2] for r in rows]
    return pl.DataFrame(columns)
