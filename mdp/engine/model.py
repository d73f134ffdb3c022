"""The compiled model: a game's states and transitions as arrays, and the queries that read
them (a state's actions, an action's successors, the layers). The operations that solving,
evaluating, pushing probabilities forward and sampling are built on are its base class,
:class:`mdp.engine.operations.Operations`."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.engine.groups import ranks, starts
from mdp.engine.keys import KeyIndex
from mdp.engine.numeric import float_holds
from mdp.engine.operations import Operations
from mdp.errors import ParamError
from mdp.game.cells import to_frame
from mdp.game.columns import made
from mdp.game.load import Objective

if TYPE_CHECKING:
    import polars as pl

    from mdp.engine.turns import PassedTurns

class _ReadOnly(dict):  # type: ignore[type-arg]
    """A dict that refuses a change (a mapping proxy cannot be pickled, as a model is)."""

    def _refused(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("the model's parameters are read-only: copy them to change them")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refused  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))


def _read_only_mapping(params: Mapping[str, Any]) -> Mapping[str, Any]:
    return _ReadOnly(params)


@attrs.frozen
class ModelInfo:
    """What a model was compiled from, in words: for summaries, tables and reports."""

    game: str
    variant: str | None
    params: Mapping[str, Any] = attrs.field(converter=_read_only_mapping)
    """The parameters as ``--set`` takes them back, read-only: a strategy or an analysis
    handed the model cannot change the rules its summaries record."""
    rules: str
    objective: Objective
    plugins: tuple[str, ...] = ()
    """The game's plugins beside its own module, by name, in the order they were registered
    (a rule plugin given to :func:`~mdp.load_game` by its path): other plugins, other rules."""
    rule_plugins: tuple[str, ...] = ()
    """Those of :attr:`plugins` that are not the game's own modules
    (:func:`mdp.checks.rule_plugins`): the summaries record them."""

    def summary(self) -> dict[str, Any]:
        """The game, variant, parameters, rule plugins and rules, JSON-ready: how every
        summary begins."""
        return {"game": self.game, "variant": self.variant, "params": dict(self.params),
                "plugins": list(self.rule_plugins), "rules": self.rules}


@attrs.frozen(eq=False)
class CompiledModel(Operations):
    """Every reachable state of a game, numbered so that successors come first. It holds no
    game: compile once (:func:`mdp.compile`), then solve it as often as needed, with the
    game's terminal values or others (:func:`mdp.solve`).

    States are grouped in *layers*: layer 0 holds the terminal states (ids ``0`` to
    ``n_terminal - 1``), and every transition leads from a state to one in a lower layer, or,
    in a game whose states may come back, to one in the same layer (:attr:`cyclic`).

    Transitions are compressed rows. State ``s`` has ``action_counts[s]`` actions, numbered
    from ``action_start[s]`` (made on first use: the solve works from the counts, a layer at
    a time, and a full array of offsets would cost a fifth of a large model). An action with
    one certain outcome (a choice) costs one successor id: ``action_next[a] >= 0`` is that
    successor. Any other action is a *chance* action ``c = -1 - action_next[a]``, whose
    outcomes are ``chance_start[c]`` to ``chance_start[c + 1] - 1``; outcome ``o`` leads to
    ``outcome_next[o]`` with probability ``probabilities[outcome_prob[o]]``. Code outside
    the engine goes through the model's operations (:meth:`backup`, :meth:`push`,
    :meth:`sample`, :meth:`actions_of`, ...), so that this storage can change.

    The model keeps no action labels: :func:`mdp.action_labels` asks the game for them.
    """

    states: np.ndarray | Sequence[Any] = attrs.field(repr=False)
    """Each state as the game wrote it: integer keys (a batch game), or any hashable values."""
    layer_start: np.ndarray = attrs.field(repr=False)
    action_counts: np.ndarray = attrs.field(repr=False)
    layer_action_start: np.ndarray = attrs.field(repr=False)
    """The first action of each layer, with the number of actions at the end."""
    action_next: np.ndarray = attrs.field(repr=False)
    chance_start: np.ndarray = attrs.field(repr=False)
    outcome_next: np.ndarray = attrs.field(repr=False)
    outcome_prob: np.ndarray = attrs.field(repr=False)
    probabilities: tuple[Any, ...] = attrs.field(repr=False)
    """The distinct probabilities, as the game gave them (``int``, ``Fraction`` or ``float``)."""
    initial: int
    terminal_values: np.ndarray | Sequence[Any] = attrs.field(repr=False)
    """The game's value of each terminal state, in state order: numbers, checked."""
    terminal_columns: Mapping[str, Any] = attrs.field(repr=False)
    """The game's readable columns of the terminal states (see :attr:`terminals`), some
    maybe still to be made (:class:`mdp.LazyColumn`)."""
    info: ModelInfo
    inexact: str | None = None
    """Who gave a float probability, and where, if one did (``"the game gave a float:
    probability 0.5 (state 3, action 'a')"``, or a rule plugin's hook): exact solving is then
    refused."""
    inexact_values: str | None = None
    """Who gave a float terminal value, and where, if one did."""
    tiny: str | None = None
    """The first exact number not 0 that a float makes 0 (or keeps fewer digits of), what
    and where: a solve in floats is then refused."""
    label_prints: np.ndarray | None = attrs.field(default=None, repr=False)
    """Per state, a fingerprint of its action labels in their order
    (:func:`mdp.engine.walk.label_print`), where the game gave them as the model was
    compiled (a game of per-state hooks, or a batch game that gave its labels unasked):
    :func:`mdp.action_labels` checks that the game gives them in that order again."""
    column_prints: np.ndarray | None = attrs.field(default=None, repr=False)
    """Per state, a fingerprint of its readable columns
    (:func:`mdp.game.columns.row_print`), where the game gave them as the model was compiled
    (:func:`~mdp.hookspecs.game.mdp_state_columns`): a table made of them checks that the
    game gives the same again."""
    seconds: float = attrs.field(default=0.0, repr=False)
    """How long discovery and compiling took."""
    cyclic: np.ndarray | None = attrs.field(default=None, repr=False)
    """Per layer, whether a transition of it stays in it, so that its states may come back
    (:mod:`mdp.engine.cycles` solves it); ``None`` where no layer does."""
    turns: PassedTurns | None = attrs.field(default=None, repr=False)
    """Which transitions pass the turn, in a game of two players (:mod:`mdp.engine.turns`)."""

    def __attrs_post_init__(self) -> None:
        """Its arrays made read-only: it is a value, handed to strategies (and kept in
        solutions) as it is, which must not change it; those it works out later too."""
        for value in attrs.astuple(self, recurse=False):
            if isinstance(value, np.ndarray):
                _fixed(value)

    @property
    def one_pass(self) -> bool:
        """Whether one pass over the layers solves it: no cycle, one player."""
        return self.cyclic is None and self.turns is None

    @property
    def n_states(self) -> int:
        """Number of states."""
        return len(self.action_counts)

    @property
    def n_actions(self) -> int:
        """Number of actions, over all states."""
        return len(self.action_next)

    @property
    def n_outcomes(self) -> int:
        """Number of outcomes, over all actions (a certain one counts once)."""
        return len(self.outcome_next) + self.n_actions - (len(self.chance_start) - 1)

    @property
    def n_terminal(self) -> int:
        """Number of terminal states (layer 0)."""
        return int(self.layer_start[1])

    @property
    def n_layers(self) -> int:
        """Number of layers."""
        return len(self.layer_start) - 1

    @property
    def terminals(self) -> pl.DataFrame:
        """The terminal states as a Polars DataFrame, one row per state in the order that
        ``mdp.solve(model, terminal=...)`` expects: the game's readable columns, then
        ``value``, the game's own terminal value (and ``value_exact``, ``"p/q"``, where the
        values are exact and some is a fraction or more than a float holds). A frame of its
        own each time it is asked (a clone: no copy of the columns), so that what a reader
        changes in place (a strategy's ``replace_column``) changes nothing of the model's.

        >>> win = model.terminals.select(pl.col("open") == "")   # doctest: +SKIP
        """
        return self._terminals.clone()

    @functools.cached_property
    def _terminals(self) -> pl.DataFrame:
        values = self.terminal_values
        # Integer columns are kept narrow (compile), lazy ones unmade: made for the table.
        columns = {name: made(column, self.info.game, name) for name, column in self.terminal_columns.items()}
        columns = {name: column.astype(np.int64) if isinstance(column, np.ndarray)
                   and column.dtype.kind in "iu" and column.dtype != np.uint64 else column
                   for name, column in columns.items()}
        if isinstance(values, np.ndarray):
            columns["value"] = values
        else:
            columns["value"] = [float(v) for v in values]
            if any(isinstance(v, Fraction) and v.denominator != 1  # (a whole one as an int)
                   or isinstance(v, (int, Fraction)) and not float_holds(v) for v in values):
                columns["value_exact"] = [str(Fraction(v)) for v in values]
        return to_frame(columns, f"game {self.info.game}")

    def single(self, what: str) -> CompiledModel:
        """Itself: ``what`` reads a game of one model (:meth:`mdp.Rounds.single` refuses)."""
        return self

    def played_at(self, game: Any, columns: dict[str, Any]) -> tuple[CompiledModel, dict[str, Any]]:
        """The model whose states ``columns`` name, and the columns that name one: itself
        and all of them (:meth:`mdp.Rounds.played_at` takes out a round state's)."""
        return self, columns

    def over_at(self, game: Any, columns: dict[str, Any]) -> bool:
        """Whether the game is over before any play where ``columns`` name: never known here,
        for one model, where a terminal state is named as a state (compare
        :meth:`mdp.Rounds.over_at`)."""
        return False

    def of_rounds(self, what: str) -> Any:
        """Refuse ``what``, work that reads a game of rounds (:meth:`mdp.Rounds.of_rounds`)."""
        raise ParamError(f"game {self.info.game} is of one model, and {what} is for a game "
                         "played in rounds")

    def extent(self) -> str:
        """Its size in words."""
        return f"{self.n_states:,} states"

    def check_chances(self, **_: Any) -> None:
        """Nothing to refuse: the chance of every outcome of one model is one forward pass
        (:meth:`mdp.Rounds.check_chances` may refuse)."""

    def policy_rows(self, within: Any = None, optimal_only: bool = False, *,
                    game: Any = None, most: int | None = None) -> int:
        """The fewest rows its policy table can have, known before it is solved: a row per
        action (per state with actions, ``optimal_only``). ``within``, ``game`` and ``most``
        are for a game of rounds (:meth:`mdp.Rounds.policy_rows`)."""
        return self.n_actions if not optimal_only else self.n_states - self.n_terminal

    def state_id(self, state: Any) -> int:
        """The id of a state given as the game writes it; ``KeyError`` if unreachable."""
        return self._ids[state]

    @functools.cached_property
    def _ids(self) -> Mapping[Any, int]:
        if isinstance(self.states, np.ndarray):
            return KeyIndex(self.states)
        return {s: i for i, s in enumerate(self.states)}

    def layer_of(self) -> np.ndarray:
        """The layer of every state, as an array."""
        return self._layers

    def layer_of_id(self, state_id: int) -> int:
        """The layer of one state (without the array of every state's layer)."""
        return int(np.searchsorted(self.layer_start, state_id, side="right")) - 1

    @functools.cached_property
    def _layers(self) -> np.ndarray:
        return _fixed(np.repeat(np.arange(self.n_layers, dtype=np.int32), np.diff(self.layer_start)))

    def action_state(self) -> np.ndarray:
        """The state each action belongs to, as an array (of the model's index type)."""
        return np.repeat(np.arange(self.n_states, dtype=self.action_next.dtype), self.action_counts)

    def layer_actions(self, layer: int) -> tuple[int, int]:
        """The first action of layer ``layer`` and one past its last."""
        return int(self.layer_action_start[layer]), int(self.layer_action_start[layer + 1])

    @functools.cached_property
    def action_start(self) -> np.ndarray:
        """The first action of every state, with the number of actions at the end."""
        return _fixed(starts(self.action_counts, self.n_actions))

    def actions_of(self, state_id: int) -> tuple[int, int]:
        """The first action of a state and one past its last."""
        first = int(self.action_offsets(state_id, state_id + 1)[0]) if self.n_actions else 0
        return first, first + int(self.action_counts[state_id])

    def action_count(self, ids: np.ndarray | None = None) -> np.ndarray:
        """How many actions each state has (those of ``ids``, or every state's)."""
        return self.action_counts if ids is None else self.action_counts[ids]

    def layers_of(self, ids: np.ndarray) -> np.ndarray:
        """The layer of each of the states ``ids`` (without the array of every state's)."""
        return np.searchsorted(self.layer_start, ids, side="right") - 1

    def actions_of_states(self, ids: np.ndarray) -> np.ndarray:
        """The actions of the states ``ids``, state after state, each state's in their order."""
        counts = self.action_counts[ids]
        starts = self._first_actions(ids)
        actions = np.arange(int(np.sum(counts, dtype=np.int64)), dtype=starts.dtype)
        first = np.cumsum(counts, dtype=starts.dtype)
        first -= counts
        actions += np.repeat(starts - first, counts)
        return actions

    def _first_actions(self, ids: np.ndarray) -> np.ndarray:
        """The first action of each of the states ``ids``: from their layer's offsets where
        they are of one layer (a table a piece at a time), without the array of every
        state's first action."""
        if len(ids):
            layer = self.layer_of_id(int(ids.min()))
            lo, hi = int(self.layer_start[layer]), int(self.layer_start[layer + 1])
            if int(ids.max()) < hi:
                return self._layer_offsets(layer, lo, hi)[ids - lo]
        return self.action_start[ids]

    def _layer_offsets(self, layer: int, lo: int, hi: int) -> np.ndarray:
        """The first action of every state of a layer, kept for the layer last asked for (a
        table is made a piece at a time, several pieces a layer)."""
        last = self._kept_offsets.get("last")  # one read, one write: threads may ask too
        if last is None or last[0] != layer:
            last = layer, self.action_offsets(lo, hi)
            self._kept_offsets["last"] = last
        return last[1]

    @functools.cached_property
    def _kept_offsets(self) -> dict[str, Any]:
        return {}

    def successors(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The outcomes of ``actions``, action after action, each action's in the order the
        game gave them: how many each action has, and the id of the state each leads to."""
        nexts = self.action_next[actions].astype(np.int64)
        counts = np.ones(len(actions), dtype=np.int64)
        chance = np.flatnonzero(nexts < 0)
        if not len(chance):
            return counts, nexts
        c = -1 - nexts[chance]
        first = self.chance_start[c]
        n = counts[chance] = self.chance_start[c + 1] - first
        if (np.diff(c) == 1).all():  # one run (the actions of whole layers): so are their outcomes
            outcomes = self.outcome_next[first[0]:first[0] + int(n.sum())]
        else:
            outcomes = self.outcome_next[ranks(n) + np.repeat(first, n)]
        ids = np.repeat(nexts, counts)  # each choice's successor in its place
        ids[np.repeat(starts(counts)[:-1][chance], n) + ranks(n)] = outcomes
        return counts, ids

    def action_rank(self) -> np.ndarray:
        """Each action's place among its state's actions (0 for the first), in action order."""
        return ranks(self.action_counts)

    def per_state(self, ufunc: np.ufunc, values: np.ndarray) -> np.ndarray:
        """``ufunc`` over each state's actions of ``values`` (one row per action): one row per
        state that has actions, the states from :attr:`n_terminal` on."""
        return ufunc.reduceat(values, self.action_start[self.n_terminal:-1], axis=0)

    def each_action(self, values: np.ndarray) -> np.ndarray:
        """Values of the states from :attr:`n_terminal` on (one row each), one row per action."""
        return np.repeat(values, self.action_counts[self.n_terminal:], axis=0)

    def action_offsets(self, first: int, last: int) -> np.ndarray:
        """``action_start[first:last + 1]`` for states ``first`` to ``last`` of one layer,
        without making the array for every state."""
        layer = self.layer_of_id(first)
        before = int(self.layer_action_start[layer])
        before += int(np.sum(self.action_counts[self.layer_start[layer]:first], dtype=np.int64))
        return starts(self.action_counts[first:last], self.n_actions, before)


def _fixed(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only."""
    array.flags.writeable = False
    return array
