"""Strategies: named ways to play other than the optimal one, offered by a game or a rule plugin,
evaluated exactly on the same compiled model (policy evaluation). A strategy gives every action
a *weight*; in each state it takes an action with probability its weight over the state's total
(:meth:`mdp.Policy.of_weights`). Weights that are ``int`` (or ``Fraction``) keep exact
evaluation exact; ``0`` and ``1`` make a strategy that always takes the same action.

A game played in rounds is too large for a choice per state: its strategies are of their own type,
:class:`RoundsStrategy`, and give *aims* instead, the worth the player aims at for each end of a
round from each round state, and play each round best toward them
(:class:`mdp.engine.rounds.Aims`). Every game of rounds has one without code of its own,
:data:`GREEDY`. Each type evaluates itself, and refuses a game of the other kind."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, overload

import attrs
import numpy as np

from mdp.analysis.labels import action_label, action_labels, worded
from mdp.checks import (
    CALLBACK,
    FLAG,
    FUNCTION,
    GAME,
    MODEL,
    NAME,
    OPTIONAL_GAME,
    OPTIONAL_PLAYED,
    PLAYED,
    SENSE,
    STRATEGY,
    TERMINAL,
    TEXT,
    arguments,
    shown,
)
from mdp.engine.checks import NOT_LISTS
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import fault as not_number
from mdp.engine.numeric import plain_array, quoted, to_floats
from mdp.engine.policy import OPTIMAL, Policy, Sense
from mdp.engine.rounds import Aims, RoundEnds, Rounds, RoundsSolution, solve_rounds
from mdp.engine.rounds.prints import row_prints
from mdp.engine.rounds.rule import Fingerprints, asked
from mdp.engine.solution import Solution
from mdp.engine.solve import sense_of, solve
from mdp.engine.solved import Solved
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, did_you_mean, fault, passed_on
from mdp.game.load import describe
from mdp.game.names import one_name
from mdp.game.plugins import by_name, named_twice
from mdp.handed import read_only

if TYPE_CHECKING:
    from mdp.game.load import Game


@attrs.frozen
class Strategy:
    """A named way to play a game of one model, offered by a game or a rule plugin
    (:func:`~mdp.hookspecs.game.mdp_strategies`).

    ``weights(game, model)`` returns one non-negative weight per action of the compiled model,
    in action order (an integer array for a strategy that exact evaluation keeps exact; a
    NumPy array of true/false, a mask, as weights 1 and 0, where ``True`` and ``False``
    among numbers are refused); the strategy takes an action with probability its weight
    over the total of its state's. :meth:`per_state` makes one from a function of one state
    instead. A game played in rounds has strategies of another type: :class:`RoundsStrategy`.
    """

    name: str
    help: str
    weights: Callable[[Game, CompiledModel], Any] = attrs.field(repr=False)

    def fits(self, game: Game) -> bool:
        """Whether it is a strategy of ``game``'s kind: a game of one model."""
        return not game.in_rounds

    def evaluate(self, model: Any, game: Game, *, exact: bool, terminal: Any, sense: Sense | None,
                 progress: Callable[[str], None] | None) -> Solution[Any]:
        """Its value on ``model``: the policy of its weights, evaluated."""
        policy = strategy_policy(model, self, game=game, exact=exact)
        try:  # a play that never ends: from a state in the game's words
            return solve(model, exact=exact, terminal=terminal, sense=sense, policy=policy, progress=progress)
        except ModelError as error:
            raise worded(error, game) from None

    @classmethod
    def per_state(cls, name: str, help: str,
                  choose: Callable[[Any, list[Any]], Sequence[Any]]) -> Strategy:
        """A strategy written one state at a time: ``choose(state, actions)`` receives a state
        where the player acts and its actions, both as the game writes them (for a game
        discovered in batches, the integer key and the labels of
        :func:`~mdp.hookspecs.game.mdp_expand`), and returns their weights, one per action in
        the same order (``int`` or ``Fraction`` keep exact evaluation exact; ``1`` for the
        action taken and ``0`` for the others make a strategy that always takes it). Called
        once per such state: quick up to some hundred thousand states; beyond, ``weights``.
        """
        arguments("Strategy.per_state", name=(name, NAME), help=(help, TEXT), choose=(choose, FUNCTION))
        return cls(name, help, functools.partial(_weights_per_state, name, choose))


@attrs.frozen
class RoundsStrategy:
    """A named way to play a game played in rounds (:func:`~mdp.hookspecs.game.mdp_strategies`).

    ``aims(game, model, keys, ends)`` receives the :class:`mdp.Rounds`, some round states of
    one round (an integer array of keys, none that ends the game) and their :class:`mdp.RoundEnds`
    (read-only, both), and returns the worth the player aims at for each end of the round
    from each: numbers, a row per round state and a column per end, as ``ends.points``
    (``int`` or ``Fraction`` keep exact evaluation exact). Within
    each round the player plays best toward those worths, the first of tied actions; an end
    not allowed stays not allowed. Only how the worths compare matters: ``ends.points``
    itself is :data:`GREEDY`. ``aims`` must be pure, as a round rule: each round state's
    answer the same each time, whatever is asked with it (refused otherwise). A game of one
    model has strategies of another type: :class:`Strategy`.
    """

    name: str
    help: str
    aims: Callable[[Game, Rounds, np.ndarray, RoundEnds], Any] = attrs.field(repr=False)

    def fits(self, game: Game) -> bool:
        """Whether it is a strategy of ``game``'s kind: a game played in rounds."""
        return game.in_rounds

    def evaluate(self, model: Any, game: Game, *, exact: bool, terminal: Any, sense: Sense | None,
                 progress: Callable[[str], None] | None) -> RoundsSolution:
        """Its value on ``model``, a game of rounds: each round played best toward its aims."""
        rounds = model.of_rounds(f"strategy {self.name} (aims at the ends of rounds)")
        if terminal is not None:
            raise ParamError("a game of rounds is solved with the points of its rounds' ends: "
                             "terminal= does not apply to it")
        aims = Aims(self.name, functools.partial(_pure_aims, game, self, rounds, exact, Fingerprints()))
        return solve_rounds(rounds, exact=exact, sense=sense_of(rounds.round, sense),
                            progress=progress, aims=aims)


GREEDY = RoundsStrategy("greedy", "each round for its own points alone, later rounds ignored",
                        lambda game, model, keys, ends: ends.points)
"""The strategy every game played in rounds has: each end worth its points, as if last."""


def strategies(game: Game) -> dict[str, Strategy]:
    """The strategies a game and its rule plugins name, by name, the game's first; for a
    game played in rounds, :data:`GREEDY` before them. A strategy of the other kind (a
    :class:`Strategy` of a game of rounds, a :class:`RoundsStrategy` of a game of one
    model) is refused."""
    arguments("strategies", game=(game, GAME))
    found = game.collect("mdp_strategies", (Strategy, RoundsStrategy))
    for strategy in found:
        if not strategy.fits(game):
            kind, other = ("a game of one model", "RoundsStrategy") if isinstance(strategy, Strategy) \
                else ("a game played in rounds", "Strategy")
            raise ModelError(f"game {game.name}: strategy {strategy.name} is an mdp."
                             f"{type(strategy).__name__}, for {kind}, but {game.name} is not: "
                             f"give an mdp.{other}")
    def clash(name: str, other: str) -> ModelError:
        if other != OPTIMAL:
            return ModelError(f"game {game.name}: two strategies are named {named_twice(name, other)}")
        plugin = game.blame("mdp_strategies", lambda answer: any(
            one_name(getattr(s, "name", "")) == OPTIMAL for group in answer or () for s in group))
        whose = f"plugin {plugin}'s " if plugin else ""
        return ModelError(f"game {game.name}: {whose}mdp_strategies names a strategy {name!r}, as "
                          "mdp names optimal play: name it otherwise")

    return by_name([GREEDY, *found] if GREEDY.fits(game) else found, clash, reserved=(OPTIMAL,))


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
    """The policy of a strategy on a compiled model: ``strategy`` is a name (``"random"``),
    a :class:`Strategy` (each needs ``game``), or the weights themselves, one per action."""
    arguments("strategy_policy", model=(model, MODEL), strategy=(strategy, STRATEGY),
              game=(game, OPTIONAL_GAME), exact=(exact, FLAG))
    model = model.single("a policy of its actions")
    if isinstance(strategy, str):
        if game is None:
            raise ParamError(f"strategy {strategy!r}: pass game= to look it up")
        strategy = find_strategy(game, strategy)
    words: dict[str, Any] = {} if game is None else {"named": lambda state: describe(game, state),
                                                     "action": lambda at: action_label(model, game, at)}
    if isinstance(strategy, Strategy):
        if game is None:
            raise ParamError(f"strategy {strategy.name!r}: pass game= to compute its weights")
        weights = _call(game, strategy, model)
        try:
            return Policy.of_weights(model, weights, exact=exact, name=strategy.name, **words)
        except ParamError:  # not weights at all (None, a dict): the strategy's fault
            raise ModelError(f"game {game.name}: strategy {strategy.name} gave {shown(weights)}; "
                             "expected one weight per action: a list, numpy array or Polars "
                             "Series of numbers") from None
        except ModelError as error:
            raise ModelError(f"game {game.name}: {error}") from None
    return Policy.of_weights(model, strategy, exact=exact, **words)


@overload
def evaluate(model: CompiledModel, strategy: str | Strategy | RoundsStrategy | Policy | Any,
             *, game: Game | None = None, exact: bool = False, terminal: Any = None,
             sense: Sense | None = None,
             progress: Callable[[str], None] | None = None, against: Any = None) -> Solution[Any]: ...
@overload
def evaluate(model: Rounds, strategy: str | Strategy | RoundsStrategy | Policy | Any,
             *, game: Game | None = None, exact: bool = False, terminal: Any = None,
             sense: Sense | None = None,
             progress: Callable[[str], None] | None = None, against: Any = None) -> RoundsSolution: ...
@overload
def evaluate(model: CompiledModel | Rounds, strategy: str | Strategy | RoundsStrategy | Policy | Any,
             *, game: Game | None = None, exact: bool = False, terminal: Any = None,
             sense: Sense | None = None,
             progress: Callable[[str], None] | None = None, against: Any = None) -> Solved: ...
def evaluate(model: CompiledModel | Rounds, strategy: str | Strategy | RoundsStrategy | Policy | Any,
             *, game: Game | None = None, exact: bool = False, terminal: Any = None,
             sense: Sense | None = None,
             progress: Callable[[str], None] | None = None, against: Any = None) -> Solved:
    """The value of every state when playing ``strategy``: a solution whose ``value`` is the
    strategy's (for a game of one model, a :class:`mdp.Solution` whose ``action_values()``
    are those of taking each action and following the strategy after it).

    ``strategy`` is a name (``"random"``; needs ``game``), a :class:`Strategy` or a
    :class:`RoundsStrategy` (needs ``game``), or for a game of one model a
    :class:`mdp.Policy` or the weights themselves, one per action. ``"optimal"`` is optimal
    play, with ties broken by the first action. ``exact``, ``terminal``, ``sense`` and
    ``progress`` are those of :func:`mdp.solve`. A strategy of a game of rounds gives the
    value of every round state under it, which :func:`mdp.simulate` plays and
    :func:`mdp.advise` and :func:`mdp.distribution` follow.

    In a game two players take in turns, ``strategy`` is the play of the player to move at
    the start, and ``against`` the other's, named or given as ``strategy`` is (optimal play
    where it is ``None``): the value is the first player's, and :func:`mdp.simulate` and
    :func:`mdp.distribution` play the two against each other.
    """
    arguments("evaluate", model=(model, MODEL), strategy=(strategy, PLAYED), game=(game, OPTIONAL_GAME),
              exact=(exact, FLAG), terminal=(terminal, TERMINAL), sense=(sense, SENSE),
              progress=(progress, CALLBACK), against=(against, OPTIONAL_PLAYED))
    if against is not None:
        return _versus(model, strategy, against, game=game, exact=exact, terminal=terminal,
                       sense=sense, progress=progress)
    if isinstance(strategy, str) and strategy == OPTIMAL:
        return solve(model, exact=exact, terminal=terminal, sense=sense, progress=progress).fixed()
    if isinstance(strategy, str):
        if game is None:
            raise ParamError(f"strategy {strategy!r}: pass game= to look it up")
        strategy = find_strategy(game, strategy)
    if isinstance(strategy, (Strategy, RoundsStrategy)):
        if game is None:
            raise ParamError(f"strategy {strategy.name!r}: pass game= to compute its play")
        return strategy.evaluate(model, game, exact=exact, terminal=terminal, sense=sense,
                                 progress=progress)
    one = model.single("a policy of its actions")
    policy = strategy if isinstance(strategy, Policy) else \
        strategy_policy(one, strategy, game=game, exact=exact)
    return solve(one, exact=exact, terminal=terminal, sense=sense, policy=policy, progress=progress)


def _versus(model: CompiledModel | Rounds, strategy: Any, against: Any, *, game: Game | None,
            exact: bool, terminal: Any, sense: Sense | None,
            progress: Callable[[str], None] | None) -> Solution[Any]:
    """``strategy`` against ``against`` in a game two players take in turns (:func:`evaluate`)."""
    one = model.single("a play against another")
    if one.turns is None:
        raise ParamError(f"game {one.info.game} is played by one player: against names the "
                         "other player's play in a game two players take in turns")
    optimal: list[Policy] = []  # solved once, if either side plays it

    def policy_of(played: Any) -> Policy:
        if isinstance(played, Policy):
            return played
        if isinstance(played, str) and played == OPTIMAL:
            if not optimal:
                optimal.append(solve(one, exact=exact, terminal=terminal, sense=sense,
                                     progress=progress).as_policy())
            return optimal[0]
        if isinstance(played, RoundsStrategy):
            raise ParamError(f"strategy {played.name}: a strategy of a game of rounds")
        return strategy_policy(one, played, game=game, exact=exact)

    mine, theirs = policy_of(strategy), policy_of(against)
    return solve(one, exact=exact, terminal=terminal, sense=sense, policy=mine, against=theirs,
                 progress=progress)


def _pure_aims(game: Game, strategy: RoundsStrategy, model: Rounds, exact: bool,
               prints: Fingerprints, keys: np.ndarray, ends: RoundEnds) -> np.ndarray:
    """A strategy's aims from some round states (:func:`_aims`), refused where the strategy
    is not a pure function of them, as a round rule is: each round state given the aims it
    was given before (``prints``), else value, distribution and advice follow other aims."""
    worth = _aims(game, strategy, model, exact, keys, ends)

    def again(rows: np.ndarray) -> np.ndarray:
        return row_prints(_aims(game, strategy, model, exact, keys[rows], ends.rows(rows)))

    def impure(key: int, when: str) -> ModelError:
        return ModelError(f"{named(game, strategy.name)} gave round state {key} other aims "
                          f"than it gave before{when}; its aims must be a pure "
                          "function of the round states and their ends (the same answer each "
                          "time, whatever other round states are asked with it)")

    prints.check(np.asarray(keys), row_prints(worth), again, impure)
    return worth


def _aims(game: Game, strategy: RoundsStrategy, model: Rounds, exact: bool, keys: np.ndarray,
          ends: RoundEnds) -> np.ndarray:
    """A strategy's aims from some round states, checked where they enter: a number per round
    state and end, finite where the end is allowed, rational in exact evaluation."""
    where = functools.partial(named, game, strategy.name)  # asked only for a fault
    try:  # the strategy reads the ends, never changes them: the engine trusts them after
        given = strategy.aims(game, model, read_only(keys),
                              RoundEnds(read_only(ends.next), read_only(ends.points)))
    except PLUGIN_FAULTS as error:
        if passed_on(error, f"game {game.name}"):
            raise
        raise ModelError(f"{where()} raised {fault(error)} (asked about {asked(keys)})") from error
    try:  # (long doubles by the numbers they hold, as every number a game gives)
        worth = np.asarray(plain_array(given))
    except ValueError as error:
        raise ModelError(f"{where()} gave {error}") from None
    if worth.shape != ends.next.shape:
        raise ModelError(f"{where()} gave aims of shape {worth.shape}; expected one row per round "
                         f"state and one column per end of the round: {ends.next.shape}")
    if worth.dtype.kind == "b" or (worth.dtype.kind == "O" and any(
            isinstance(v, (bool, np.bool_)) for v in worth.flat)):
        raise ModelError(f"{where()} gave aims of true or false; aims are numbers (int, Fraction "
                         "or float), the worth of each end")
    if worth.dtype.kind not in "iufO" or worth.dtype.kind == "O" and (  # (a NumPy duration too)
            any(not_number(v) == "is not a number" for v in worth.flat)):
        raise ModelError(f"{where()} gave aims that are not all numbers (int, Fraction or float)")
    if worth.dtype.kind == "O" and (odd := next((v for v in worth.flat if not_number(v) not in (
            None, "is not finite")), None)) is not None:  # (not finite: where no end is allowed)
        raise ModelError(f"{where()} gave the aim {quoted(odd)}, which {not_number(odd)}")
    if exact and worth.dtype.kind == "O" and (inexact := next(
            (v for v in worth.flat if not isinstance(v, (int, Fraction, np.integer))), None)) is not None:
        raise ModelError(f"{where()} gave the aim {quoted(inexact)}, a {type(inexact).__name__}; "
                         "exact evaluation needs int or Fraction aims")
    if worth.dtype.kind == "O" and not exact:
        floats, lost = to_floats(worth.ravel())
        if lost is not None:
            raise ModelError(f"{where()} gave the aim {quoted(worth.flat[lost])}, which a float "
                             "cannot hold (it would be 0 or infinite); evaluate exactly (--exact)")
        worth = floats.reshape(worth.shape)
    if worth.dtype.kind == "f":
        if exact:
            raise ModelError(f"{where()} gave float aims; exact evaluation needs int or Fraction aims")
        bad = ~np.isfinite(worth) & (ends.next >= 0)
        if bad.any():
            row = int(np.flatnonzero(bad.any(axis=1))[0])
            raise ModelError(f"{where()} gave an aim that is not a finite number for an end allowed "
                             f"there (round state {int(keys[row])})")
    return worth


def named(game: Game, name: str) -> str:
    """``game G: strategy S``, and ``of plugin P`` where a rule plugin offers it."""
    plugin = game.blame("mdp_strategies", lambda groups: any(
        getattr(s, "name", None) == name for group in groups or () for s in group or ()))
    return f"game {game.name}: strategy {name}" + (f" of plugin {plugin}" if plugin else "")


def _call(game: Game, strategy: Strategy, model: CompiledModel) -> Any:
    try:
        return strategy.weights(game, model)
    except PLUGIN_FAULTS as error:
        if passed_on(error, f"game {game.name}"):
            raise
        raise ModelError(f"{named(game, strategy.name)} raised {fault(error)}") from error


def _weights_per_state(name: str, choose: Callable[[Any, list[Any]], Sequence[Any]],
                       game: Game, model: CompiledModel) -> list[Any]:
    """The weights of a :meth:`Strategy.per_state`: ``choose`` asked state after state, with
    the actions' labels asked of the game (the model keeps none)."""
    labels = action_labels(model, game)
    labels = labels.tolist() if isinstance(labels, np.ndarray) else labels
    ids = range(model.n_terminal, model.n_states)
    weights: list[Any] = []
    for state_id, count in zip(ids, model.action_count(np.arange(ids.start, ids.stop)).tolist()):
        state = model.states[state_id]
        state = state.item() if isinstance(state, np.generic) else state
        actions = labels[len(weights):len(weights) + count]
        try:
            answer = choose(state, actions)
            if isinstance(answer, NOT_LISTS) or not isinstance(answer, Iterable):  # a set: no order
                raise ModelError(f"game {game.name}: strategy {name} gave {shown(answer)}, not a "
                                 f"list of weights in the actions' order ({describe(game, state)})")
            chosen = list(answer)
        except PLUGIN_FAULTS as error:
            if passed_on(error, f"game {game.name}"):
                raise
            raise ModelError(f"{named(game, name)} raised {fault(error)} "
                             f"({describe(game, state)})") from error
        if len(chosen) != count:
            raise ModelError(f"game {game.name}: strategy {name} gave {len(chosen)} weight"
                             f"{'s' * (len(chosen) != 1)} for {count} action{'s' * (count != 1)} "
                             f"({describe(game, state)}); give one per action")
        weights += chosen
    return weights
