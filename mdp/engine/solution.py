"""What a solve gives: the value of every state and action (:class:`Solution`, and
:class:`Solutions` for many sets of terminal values at once), and the rule of optimal play.

Where several actions are optimal, the choice changes how a game ends (not its value). The rule of
optimal play (:meth:`Solution.as_policy`): keep the optimal actions (exact values tie when equal;
floats within :data:`~mdp.engine.policy.FLOAT_TIE` of the best; where states may come back, those
that bring an end nearer, :mod:`mdp.engine.cycles_ending`, and in floats whose play repeated keeps
the values, :func:`mdp.engine.solve.ending_play`); for each tie-break objective in turn, keep
those best for it (solved on the kept actions only); then take the *first* kept action in the
game's own order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Generic, overload

import attrs
import numpy as np

from mdp.checks import SOLUTION, TIE_BREAK, arguments
from mdp.engine.arithmetic import Arithmetic, Exact, Floats, Number, floats
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import float_or_none
from mdp.engine.policy import OPTIMAL, Policy, Sense, tie_margin
from mdp.engine.sweep import Piece, backward
from mdp.engine.terminal import OWN_TERMINAL, check_terminal, own_terminal, tie_break_column
from mdp.errors import ParamError
from mdp.game.load import Objective
from mdp.handed import read_only


@attrs.frozen
class Located:
    """A position that COLUMN=VALUE columns name (:meth:`Solved.locate`): the solution of
    the one model played there, the columns that named where it is played (a round state's;
    none for a game of one model), the columns left to name a state of that model, and
    whether the game is over there (no action left)."""

    solution: Solution[Any]
    named: dict[str, Any]
    rest: dict[str, Any]
    over: bool = False


@attrs.frozen(eq=False)
class Solution(Generic[Number]):
    """The values of a solved model's states, under optimal play or under a policy. Tables
    of it are outputs: :func:`mdp.policy`. A ``Solution[Fraction]`` in exact mode, else a
    ``Solution[float]``."""

    model: CompiledModel
    sense: Sense
    _raw: np.ndarray = attrs.field(repr=False)
    """State values as computed: floats, or integer numerators in exact mode."""
    _arithmetic: Arithmetic[Number] = attrs.field(repr=False)
    seconds: float = attrs.field(default=0.0, repr=False)
    """How long the solve took (without compiling)."""
    policy: Policy | None = attrs.field(default=None, repr=False)
    """The policy evaluated (``mdp.solve(model, policy=...)``), or ``None`` for optimal play."""
    allowed: np.ndarray | None = attrs.field(default=None, repr=False, kw_only=True)
    """Per action, whether the position allows it; ``None``: every action. A round of a game
    of rounds (:meth:`mdp.RoundsSolution.at`) does not allow an action that may come to an
    end the round state does not allow: no output shows one."""
    residual: float | None = attrs.field(default=None, repr=False, kw_only=True)
    """Where states may come back and the values are floats: a bound of every value's error
    left by value iteration, the sum of the cyclic layers' (:mod:`mdp.engine.cycles`); else None."""
    terminal: Any = attrs.field(default=None, repr=False, kw_only=True)
    """The terminal values it was solved with where they are not the game's (``terminal=``
    of :func:`mdp.solve`), one per row of :attr:`model.terminals
    <mdp.CompiledModel.terminals>`; ``None``: the game's own."""
    opponent: Policy | None = attrs.field(default=None, repr=False, kw_only=True)
    """A game of two players valued with a :attr:`policy`: the other player's play (optimal
    unless ``against=`` of :func:`mdp.solve` named one; ``None``: both play alike), and
    ``turned``, every state's value (raw) with the other to move."""
    turned: np.ndarray | None = attrs.field(default=None, repr=False, kw_only=True)
    nearer: np.ndarray | None = attrs.field(default=None, repr=False, kw_only=True)
    """Per action, whether it brings an end nearer, where states may come back; else ``None``."""

    def __attrs_post_init__(self) -> None:
        """Its arrays read-only: handed to analyses and strategies as they are."""
        for array in (self._raw, self.allowed, self.turned, self.nearer):
            if isinstance(array, np.ndarray):
                array.flags.writeable = False

    @property
    def objective(self) -> Objective:
        """The game's objective, or, solved with terminal values of its own, theirs."""
        if self.terminal is None:
            return self.model.info.objective
        return Objective(OWN_TERMINAL, self.sense)

    @property
    def terminal_values(self) -> Any:
        """The terminal values it was solved with: its own, else the game's."""
        return self.model.terminal_values if self.terminal is None else self.terminal

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""
        return self._arithmetic.exact

    @property
    def strategy(self) -> str | None:
        """The name of the policy evaluated (``against`` the other's, if not optimal play)."""
        other = self.opponent.name if self.opponent is not None else OPTIMAL
        return None if self.policy is None else \
            self.policy.name + (f" against {other}" if other != OPTIMAL else "")

    @property
    def steered(self) -> bool:
        """Whether the play is optimal, on both sides (a strategy of weights goes neither way)."""
        return all(p is None or p.name == OPTIMAL for p in (self.policy, self.opponent))

    def single(self, what: str) -> Solution[Number]:
        """Itself: a solution of one model (see :class:`mdp.engine.solved.Solved`)."""
        return self

    def at(self, key: int | None = None) -> Solution[Number]:
        """Itself: the one model is played everywhere (see :meth:`mdp.RoundsSolution.at`)."""
        if key is not None:
            raise ParamError(f"game {self.model.info.game} is of one model: no round state {key!r}")
        return self

    def extent(self) -> str:
        """Its size in words."""
        return f"{self.model.n_states:,} states"

    def locate(self, game: Any, columns: dict[str, Any]) -> Located:
        """The one model, and every column to name a state of it."""
        return Located(self, {}, dict(columns))

    def simulated(self, game: Any, games: int, seed: int | None,
                  tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray, Any]:
        """Games played at random: see :func:`mdp.engine.outcomes.simulated`."""
        from mdp.engine.outcomes import simulated  # here: Polars, for the outcomes

        return simulated(self, game, games, seed, tie_break)

    def chances(self, game: Any = None, tie_break: Sequence[Any] = (), progress: Any = None,
                max_memory: Any = "default") -> Any:
        """The chance of every outcome: see :func:`mdp.engine.outcomes.chances`."""
        from mdp.engine.outcomes import chances  # here: Polars, for the outcomes

        return chances(self, game, tie_break)

    def spread(self, frame: Any) -> dict[str, Any]:
        """Nothing: the outcomes of a game of one model are its own columns, not points."""
        return {}

    def shown(self, by: Any) -> Any:
        """``by.model(self)``: see :meth:`mdp.engine.solved.Solved.shown`."""
        return by.model(self)

    def policy_pieces(self, game: Any, within: Any, table: Any) -> Any:
        """The policy table: every action of every state, by ``table``."""
        if within is not None:
            raise ParamError(f"game {self.model.info.game} is of one model: its policy table "
                             "has every state already (within applies to a game of rounds)")
        return table(self, {})

    @property
    def value(self) -> Number:
        """The value of the initial state: a ``Fraction`` in exact mode, else a float."""
        return self.value_of_id(self.model.initial)

    def value_of_id(self, state_id: int) -> Number:
        """The value of the state numbered ``state_id`` in the compiled model."""
        return self._arithmetic.value(self._raw[state_id], self.model.layer_of_id(state_id))

    def value_of(self, state: Any) -> Number:
        """The value of a state given as the game writes it."""
        try:
            state_id = self.model.state_id(state)
        except KeyError:
            raise ParamError(f"{state!r} is not a reachable state of {self.model.info.game}") from None
        return self.value_of_id(state_id)

    @property
    def values(self) -> np.ndarray:
        """Every state's value as a float, in the model's state order (read-only)."""
        return read_only(floats(self._raw, self._arithmetic.scales(self._layers)))

    def action_values(self, states: np.ndarray | None = None) -> ActionValues:
        """Every action's value (its successors' expected value), how far it falls short of
        the best action of its state, and whether it is optimal; in action order. Under a
        policy: the value of taking the action and following the policy after it, measured
        against the best of them. ``states`` (ids of states of one layer, in any order)
        gives those of their actions only, state after state: a table a piece at a time."""
        model, arithmetic = self.model, self._arithmetic
        every = None
        if self.turned is not None:  # two players, one policy a side
            from mdp.engine.versus import action_values

            every = action_values(model, self._raw, self.turned, arithmetic)
        first: Callable[[], np.ndarray]
        if states is None:
            q = arithmetic.empty(model.n_actions) if every is None else every
            if every is None:
                backward(model, arithmetic, None, self._raw, actions=q)
            state, first = model.action_state(), lambda: model.action_start[model.n_terminal:-1]
        else:
            ids = np.asarray(states, dtype=np.int64)
            counts = model.action_count(ids).astype(np.int64)  # indices for reduceat, signed
            q = every[model.actions_of_states(ids)] if every is not None else \
                model.backup_actions(model.layer_of_id(int(ids[0])) if len(ids) else 0,
                                     model.actions_of_states(ids), self._raw, arithmetic)
            state = np.repeat(ids, counts)
            first = lambda: (np.cumsum(counts) - counts)[counts > 0]
        ending = True if self.nearer is None else \
            self.nearer if states is None else self.nearer[model.actions_of_states(ids)]
        # The best of the actions: not the policy's mix, nor, where values come from value
        # iteration, the last sweep's (one backup behind these, by up to its residual).
        if (self.policy is not None or self.residual is not None) and len(q):
            pick = np.maximum if self.sense == "max" else np.minimum
            starts = first()  # each state's first action among q
            best = np.repeat(pick.reduceat(q, starts), np.diff(starts, append=len(q)))
        else:
            best = self._raw[state]
        if self.exact:
            gap = best - q if self.sense == "max" else q - best
            scale = arithmetic.action_scales(self._layers[state])
            return ActionValues(state, floats(q, scale), (gap == 0) & ending, floats(gap, scale),
                                *([Fraction(n, d) for n, d in zip(v, scale)] for v in (q, gap)))
        # In place where it can be: a policy has millions of actions, each array is large.
        tie = tie_margin(best)
        with np.errstate(over="ignore"):  # a regret past a float is one: infinite, not optimal
            gap = np.subtract(best, q, out=best) if self.sense == "max" else \
                np.subtract(q, best, out=best)
        optimal = (gap <= tie) & ending
        del tie
        return ActionValues(state, q, optimal, np.maximum(gap, 0.0, out=gap), None)

    @property
    def _layers(self) -> np.ndarray:
        return self.model.layer_of()
    def fixed(self) -> Solution[Number]:
        """Optimal play fixed as a strategy (``mdp.evaluate(model, "optimal")``): its policy
        takes the first optimal action; action values are those of following it."""
        return attrs.evolve(self, policy=self.as_policy())

    def as_policy(self, tie_break: Sequence[Any] = ()) -> Policy:
        """How this solution plays: the policy evaluated, or optimal play with its ties
        broken (see :func:`choices`)."""
        if self.policy is None or (self.policy.name == OPTIMAL and tie_break):
            return Policy.of_weights(self.model, choices(self, tie_break), exact=self.exact, name=OPTIMAL)
        if tie_break:
            raise ParamError(f"a tie-break applies to optimal play, not to the strategy "
                             f"{self.policy.name}")
        return self.policy

    def summary(self) -> dict[str, Any]:
        """The solve in one JSON-ready dict, as ``mdp solve --json`` prints it: the game,
        variant, parameters, rules, objective, sense, value (and ``exact``, ``"p/q"``, in exact
        mode), the number of states and the seconds spent compiling and solving."""
        info, value = self.model.info, self.value
        summary: dict[str, Any] = {
            **info.summary(),
            "objective": self.objective.name,
            "sense": self.sense,
            "value": float_or_none(value),
        }
        if isinstance(value, Fraction):  # exact mode
            summary["exact"] = f"{value.numerator}/{value.denominator}"
        if self.policy is not None:
            summary["strategy"] = self.policy.name
        summary.update({} if self.opponent is None else {"against": self.opponent.name})
        if self.residual is not None:
            summary["residual"] = self.residual
        summary["states"] = self.model.n_states
        summary["seconds"] = round(self.model.seconds + self.seconds, 6)
        return summary


@attrs.frozen(eq=False)
class Solutions(Generic[Number]):
    """The values of one model solved for many sets of terminal values
    (:func:`solve_many`): a column of values per set."""

    model: CompiledModel
    sense: Sense
    _raw: np.ndarray = attrs.field(repr=False)
    """State values as computed, one row per state, one column per set."""
    _arithmetic: Arithmetic[Number] = attrs.field(repr=False)
    seconds: float = attrs.field(default=0.0, repr=False)
    terminals: Any = attrs.field(default=None, repr=False, kw_only=True)
    """The terminal values solved with: a matrix, one column per set."""

    @property
    def exact(self) -> bool:
        """Whether the values are exact rationals."""
        return self._arithmetic.exact

    @property
    def n_columns(self) -> int:
        """How many sets of terminal values were solved."""
        return self._raw.shape[1]

    @property
    def value(self) -> list[Fraction] | np.ndarray:
        """The initial state's value in each column: fractions in exact mode, else floats."""
        return self.value_of_id(self.model.initial)

    @overload
    def value_of_id(self: Solutions[Fraction], state_id: int) -> list[Fraction]: ...

    @overload
    def value_of_id(self: Solutions[float], state_id: int) -> np.ndarray: ...

    def value_of_id(self, state_id: int) -> list[Any] | np.ndarray:
        """The value in each column of the state numbered ``state_id``."""
        layer = self.model.layer_of_id(state_id)
        if self.exact:
            return [self._arithmetic.value(raw, layer) for raw in self._raw[state_id].tolist()]
        return self._raw[state_id].copy()

    @property
    def values(self) -> np.ndarray:
        """Every state's value in every column as floats: one row per state."""
        scales = self._arithmetic.scales(self.model.layer_of())
        return floats(self._raw, scales if isinstance(scales, int) else scales[:, None])

    def optimal(self, layer: int) -> np.ndarray:
        """Whether each action of layer ``layer`` is optimal in each column: a boolean
        matrix, one row per action of the layer (exact ties in exact mode; within
        :data:`~mdp.engine.policy.FLOAT_TIE` in floats)."""
        model = self.model
        q = model.backup(layer, self._raw, self._arithmetic)
        a0, a1 = model.layer_actions(layer)
        best = self._raw[model.action_state()[a0:a1]]
        if not self.exact:  # the best of these backups (a value 0 but for rounding ties with nothing)
            starts = model.action_offsets(*model.layer_start[layer:layer + 2])[:-1] - a0
            best = np.repeat((np.maximum if self.sense == "max" else np.minimum).reduceat(
                q, starts, axis=0), np.diff(starts, append=len(q)), axis=0)
        gap = best - q if self.sense == "max" else q - best
        return gap == 0 if self.exact else gap <= tie_margin(best)

    def first_optimal(self, layer: int, a0: int, a1: int) -> np.ndarray:
        """1 for the first optimal action of each state of layer ``layer`` in each column,
        else 0: a matrix, one row per action ``a0`` to ``a1 - 1`` (the layer's), for the
        forward pass of :func:`mdp.engine.sweep.forward`."""
        optimal = self.optimal(layer)
        model = self.model
        lo = int(model.layer_start[layer])
        starts = model.action_offsets(lo, int(model.layer_start[layer + 1]))[:-1] - a0
        position = np.where(optimal, np.arange(a1 - a0)[:, None], a1 - a0)
        chosen = np.minimum.reduceat(position, starts, axis=0)  # one row per state
        taken = np.zeros((a1 - a0, optimal.shape[1]), dtype=np.int64)
        taken[chosen, np.broadcast_to(np.arange(optimal.shape[1]), chosen.shape)] = 1
        return taken

    def column(self, j: int) -> Solution[Number]:
        """Column ``j`` as a :class:`Solution`: its policy, action values and summary."""
        own = None if self.terminals is None else own_terminal(self.model, self.terminals[:, j])
        return Solution(self.model, self.sense, self._raw[:, j], self._arithmetic, self.seconds,
                        terminal=own)


@attrs.frozen(eq=False)
class ActionValues:
    """Per action of a solved model, in action order (see :meth:`Solution.action_values`)."""

    state: np.ndarray
    """The id of the state each action belongs to."""
    value: np.ndarray
    """Its value, as a float."""
    optimal: np.ndarray
    """Whether it ties for best (exact: equal; floats: :func:`~mdp.engine.policy.tie_margin`)."""
    regret: np.ndarray
    """The value lost against the best action of its state, as a float (never negative);
    exactly, ``exact`` its value and ``exact_regret`` its regret, fractions."""
    exact: list[Fraction] | None
    exact_regret: list[Fraction] | None = None


def parse_tie_break(text: str) -> tuple[Sense, str]:
    """``"max:shut_sum"`` -> ``("max", "shut_sum")``; a bare column is maximized."""
    sense, sep, column = text.rpartition(":")
    sense = sense if sep else "max"
    if sense not in ("max", "min") or not column:
        raise ParamError(f"tie-break {text!r}: expected COLUMN, max:COLUMN or min:COLUMN")
    return ("max" if sense == "max" else "min"), column


def parse_tie_breaks(items: Sequence[str | tuple[Sense, str]]) -> list[tuple[Sense, str]]:
    """Each tie-break parsed (:func:`parse_tie_break`; a ``(sense, column)`` kept as it is);
    a column given twice is refused: kept best for once, a second time it does nothing, or
    asks the opposite."""
    objectives = [parse_tie_break(item) if isinstance(item, str) else item for item in items]
    columns = [column for _, column in objectives]
    twice = next((column for column in columns if columns.count(column) > 1), None)
    if twice is not None:
        given = ", ".join(repr(item if isinstance(item, str) else ":".join(item))
                          for item, (_, column) in zip(items, objectives) if column == twice)
        raise ParamError(f"tie-break column {twice} is given twice ({given}); give each column once")
    return objectives


def choices(solution: Solution[Any], tie_break: Sequence[str | tuple[Sense, str]] = ()) -> np.ndarray:
    """Optimal play as weights, one per action: 1 for the action taken in each state, else 0.

    Among the optimal actions of a state, each tie-break objective in turn keeps those that
    are best for it (a column of ``model.terminals``, maximized or minimized, solved on the
    actions kept so far); then the first in the game's order is taken. Tie-breaks are
    ``"max:COLUMN"``, ``"min:COLUMN"`` (``"COLUMN"`` is maximized) or ``(sense, column)``.
    """
    arguments("choices", solution=(solution, SOLUTION), tie_break=(tie_break, TIE_BREAK))
    model = solution.model
    if solution.policy is not None and solution.policy.name != OPTIMAL:
        raise ParamError(f"ties are broken in optimal play, not in the strategy {solution.policy.name}")
    objectives = parse_tie_breaks(tie_break)
    if objectives and not model.one_pass:
        raise ParamError(f"game {model.info.game}: a tie-break is not yet worked out for a game "
                         "whose states come back, or of two players")
    columns = [tie_break_column(model, c, solution.exact) for _, c in objectives]  # checked, first
    kept = np.asarray(solution.action_values().optimal, dtype=bool)
    for (sense, _), column in zip(objectives, columns):
        kept = _best_among(solution, kept, column, sense)
    return first_kept(model, kept)


def _best_among(solution: Solution[Any], kept: np.ndarray, terminal: Any, sense: Sense) -> np.ndarray:
    """The kept actions that are best for a second objective, solved on kept actions only."""
    model, exact = solution.model, solution.exact
    arithmetic = (Exact if exact else Floats)(model, check_terminal(model, terminal, exact))
    best = np.maximum if sense == "max" else np.minimum
    worst = np.minimum if sense == "max" else np.maximum
    q = arithmetic.empty(model.n_actions)

    def decide(backup: Callable[[], np.ndarray], starts: np.ndarray, where: Piece) -> np.ndarray:
        values = backup()
        # A dropped action takes the piece's worst value: it never beats a kept one.
        values = np.where(kept[where.a0:where.a1], values, worst.reduce(values))
        return best.reduceat(values, starts)

    raw = backward(model, arithmetic, decide, arithmetic.start(), actions=q)
    top = raw[model.action_state()]
    if exact:
        return kept & (q == top)
    return kept & (np.abs(q - top) <= tie_margin(top))


def first_kept(model: CompiledModel, kept: np.ndarray) -> np.ndarray:
    """1 for the first kept action of each state, 0 elsewhere."""
    index = np.flatnonzero(kept)
    state = model.action_state()[index]
    first = np.append(True, state[1:] != state[:-1]) if len(index) else np.zeros(0, dtype=bool)
    chosen = np.zeros(model.n_actions, dtype=np.int64)
    chosen[index[first]] = 1
    return chosen
