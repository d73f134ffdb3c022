"""Strategies: named ways to play other than the optimal one, offered by a game or a rule
plugin, evaluated exactly on the same compiled model (policy evaluation). A strategy gives
every action a *weight*; in each state it takes an action with probability its weight over
the state's total (:meth:`mdp.Policy.of_weights`). Weights that are ``int`` (or
``Fraction``) keep exact evaluation exact; ``0`` and ``1`` make a strategy that always takes
the same action.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.analysis.labels import action_labels
from mdp.engine.model import CompiledModel
from mdp.engine.policy import OPTIMAL, Policy, Sense
from mdp.engine.rounds import one_model
from mdp.engine.solution import Solution
from mdp.engine.solve import solve
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, did_you_mean, fault
from mdp.game.load import describe
from mdp.game.plugins import by_name

if TYPE_CHECKING:
    from mdp.game.load import Game


@attrs.frozen
class Strategy:
    """A named way to play, offered by a game or a rule plugin (:func:`~mdp.hookspecs.game.mdp_strategies`).

    ``weights(game, model)`` returns one non-negative weight per action of the compiled model,
    in action order (an integer array for a strategy that exact evaluation keeps exact); the
    strategy takes an action with probability its weight over the total of its state's.
    :meth:`per_state` makes one from a function of one state instead.
    """

    name: str
    help: str
    weights: Callable[[Game, CompiledModel], Any] = attrs.field(repr=False)

    @classmethod
    def per_state(cls, name: str, help: str,
                  choose: Callable[[Any, list[Any]], Sequence[Any]]) -> Strategy:
        """A strategy written one state at a time: ``choose(state, actions)`` receives a state
        where the player acts and its actions, both as the game writes them (for a game
        discovered in batches, the integer key and the labels of
        :func:`~mdp.hookspecs.game.mdp_expand`), and returns their weights, one per action in
        the same order (``int`` or ``Fraction`` keep exact evaluation exact; ``1`` for the
        action taken and ``0`` for the others make a strategy that always takes it).

        It is called once for every such state of the model: simple to write, and quick for
        games of up to some hundred thousand states; a game of millions is better served by
        ``weights`` computed for all actions at once.
        """
        return cls(name, help, functools.partial(_weights_per_state, name, choose))


def strategies(game: Game) -> dict[str, Strategy]:
    """The strategies a game and its rule plugins name, by name, the game's first."""
    return by_name(game.collect("mdp_strategies", Strategy), lambda name: ModelError(
        f"game {game.name}: two strategies are named {name!r}"), reserved=(OPTIMAL,))


def find_strategy(game: Game, name: str) -> Strategy:
    """The game's strategy ``name``; :class:`mdp.ParamError` naming those on offer if none."""
    known = strategies(game)
    if name not in known:
        names = ", ".join([OPTIMAL, *known])
        raise ParamError(f"game {game.name} has no strategy {name!r}{did_you_mean(name, [OPTIMAL, *known])} "
                         f"(known: {names})")
    return known[name]


def strategy_policy(model: CompiledModel, strategy: str | Strategy | Any, *,
                    game: Game | None = None, exact: bool = False) -> Policy:
    """The policy of a strategy on a compiled model: ``strategy`` is a name (``"random"``;
    needs ``game``), a :class:`Strategy` (needs ``game``), or the weights themselves, one
    per action."""
    one_model("a strategy", model)
    if isinstance(strategy, str):
        if game is None:
            raise ParamError(f"strategy {strategy!r}: pass game= to look it up")
        strategy = find_strategy(game, strategy)
    if isinstance(strategy, Strategy):
        if game is None:
            raise ParamError(f"strategy {strategy.name!r}: pass game= to compute its weights")
        weights = _call(game, strategy, model)
        try:
            return Policy.of_weights(model, weights, exact=exact, name=strategy.name,
                                     named=lambda state: describe(game, state))
        except ModelError as error:
            raise ModelError(f"game {game.name}: {error}") from None
    return Policy.of_weights(model, strategy, exact=exact)


def evaluate(model: CompiledModel, strategy: str | Strategy | Policy | Any, *,
             game: Game | None = None, exact: bool = False, terminal: Any = None,
             sense: Sense | None = None) -> Solution:
    """The value of every state when playing ``strategy``: a :class:`mdp.Solution` whose
    ``value`` is the strategy's (its ``action_values()`` are those of taking each action and
    following the strategy after it).

    ``strategy`` is a :class:`mdp.Policy`, a name (``"random"``; needs ``game``), a
    :class:`Strategy` (needs ``game``), or the weights themselves, one per action.
    ``"optimal"`` is optimal play, with ties broken by the first action. ``exact``,
    ``terminal`` and ``sense`` are those of :func:`mdp.solve`.
    """
    one_model("a strategy", model)
    if isinstance(strategy, str) and strategy == OPTIMAL:
        solution = solve(model, exact=exact, terminal=terminal, sense=sense)
        return attrs.evolve(solution, policy=solution.play())
    policy = strategy if isinstance(strategy, Policy) else \
        strategy_policy(model, strategy, game=game, exact=exact)
    return solve(model, exact=exact, terminal=terminal, sense=sense, policy=policy)


def _call(game: Game, strategy: Strategy, model: CompiledModel) -> Any:
    try:
        return strategy.weights(game, model)
    except (ModelError, ParamError):
        raise
    except PLUGIN_FAULTS as error:
        raise ModelError(f"game {game.name}: strategy {strategy.name} raised {fault(error)}") from error


def _weights_per_state(name: str, choose: Callable[[Any, list[Any]], Sequence[Any]],
                       game: Game, model: CompiledModel) -> list[Any]:
    """The weights of a :meth:`Strategy.per_state`: ``choose`` asked state after state, with
    the actions' labels asked of the game (the model keeps none)."""
    labels = action_labels(game, model)
    if isinstance(labels, np.ndarray):
        labels = labels.tolist()
    ids = range(model.n_terminal, model.n_states)
    weights: list[Any] = []
    for state_id, count in zip(ids, model.action_count(np.arange(ids.start, ids.stop)).tolist()):
        state = model.states[state_id]
        state = state.item() if isinstance(state, np.generic) else state
        actions = labels[len(weights):len(weights) + count]
        try:
            chosen = list(choose(state, actions))
        except (ModelError, ParamError):
            raise
        except PLUGIN_FAULTS as error:
            raise ModelError(f"game {game.name}: strategy {name} raised {fault(error)} "
                             f"({describe(game, state)})") from error
        if len(chosen) != count:
            raise ModelError(f"game {game.name}: strategy {name} gave {len(chosen)} weight"
                             f"{'s' * (len(chosen) != 1)} for {count} action{'s' * (count != 1)} "
                             f"({describe(game, state)}); give one per action")
        weights += chosen
    return weights


def strategy_values(model: CompiledModel, game: Game, *, exact: bool = False,
                    sense: Sense | None = None) -> pl.DataFrame:
    """Optimal play and every strategy the game names, with their values: a Polars DataFrame
    with ``strategy``, ``value`` (a float), ``exact`` (``"p/q"``, exact mode only), ``regret``
    (the value lost against optimal play) and ``help``.

    A strategy that cannot be evaluated (it gives no weight in some state, say) does not stop
    the others: its row has no value, and a column ``problem`` says why."""
    rows = [(OPTIMAL, solve(model, exact=exact, sense=sense).value, "the best play", None)]
    for strategy in strategies(game).values():
        try:
            value, problem = evaluate(model, strategy, game=game, exact=exact, sense=sense).value, None
        except ModelError as error:
            value, problem = None, str(error)
        rows.append((strategy.name, value, strategy.help, problem))
    best = rows[0][1]
    sign = 1 if (sense or model.info.objective.sense) == "max" else -1
    values = [r[1] for r in rows]
    columns: dict[str, Any] = {"strategy": [r[0] for r in rows],
                               "value": pl.Series([None if v is None else float(v) for v in values],
                                                  dtype=pl.Float64)}
    if exact:
        exacts = [None if v is None else Fraction(v) for v in values]
        columns["exact"] = pl.Series([None if v is None else f"{v.numerator}/{v.denominator}"
                                      for v in exacts], dtype=pl.String)
    columns["regret"] = pl.Series([None if v is None else float(sign * (best - v)) for v in values],
                                  dtype=pl.Float64)
    columns["help"] = [r[2] for r in rows]
    if any(r[3] for r in rows):
        columns["problem"] = pl.Series([r[3] for r in rows], dtype=pl.String)
    return pl.DataFrame(columns)
