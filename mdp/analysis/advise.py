"""Advice for one state, named by its readable columns: every action there, best first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import polars as pl

from mdp.analysis.labels import action_labels
from mdp.checks import GAME, SOLVED, arguments
from mdp.engine.model import CompiledModel
from mdp.engine.policy import OPTIMAL, tie_margin
from mdp.engine.rounds import Rounds
from mdp.engine.solution import Located, Solution
from mdp.engine.solved import Solved
from mdp.errors import ModelError, ParamError, said
from mdp.game.cells import numbered, to_frame
from mdp.game.columns import row_columns, table_state_columns
from mdp.game.load import describe
from mdp.game.naming import near, same, written
from mdp.shown import seen

if TYPE_CHECKING:
    from mdp.game.load import Game


@attrs.frozen
class Advice:
    """The state advised on (its columns) and its actions, best first: the action's columns,
    ``value``, ``regret`` and ``optimal``, and exactly ``value_exact`` and ``regret_exact`` (as in
    :func:`mdp.policy`)."""

    state: dict[str, Any]
    actions: pl.DataFrame
    over: bool = False
    """Whether the game is over at the round state advised on: no round is played there."""

    def summary(self) -> dict[str, Any]:
        """As ``mdp advise --json`` prints it."""
        return {"state": self.state, "actions": self.actions.to_dicts()}


def advise(solution: Solved, game: Game, **columns: Any) -> Advice:
    """The actions of the state whose readable columns have the given values (compared as
    text: ``open="1 2 3 5 8", roll=9``), best first. A column left out that some states lack
    must be empty (null) in the state, unless a single state matches without it; with every
    column left out, the state whose columns are all empty.

    In a game of rounds, the columns name a round state as well
    (:func:`~mdp.hookspecs.game.mdp_round_columns`) and a state of the round played from it;
    the actions that round state does not allow are left out.

    A state that no column values name raises :class:`mdp.ParamError`, saying which columns
    a state has and giving the initial state's values as an example.
    """
    arguments("advise", solution=(solution, SOLVED), game=(game, GAME))
    return advice_at(solution.locate(game, columns), game)


def advice_at(where: Located, game: Game) -> Advice:
    """:func:`advise` at a position already found: the actions of the state that
    ``where.rest`` names in the model played there."""
    within = _advise(where.solution, game, where.rest, where.over, where.named)
    state = {**where.named, **within.state}
    return Advice(state, within.actions.clear() if where.over else within.actions, where.over)


def check_advice(model: CompiledModel | Rounds, game: Game, columns: dict[str, Any]) -> None:
    """Refuse, before the solve, columns that name no state of the compiled model, or
    several (as :func:`advise` would once it is solved): the model alone knows its states."""
    played, rest = model.played_at(game, columns)
    _found(played, game, rest, model.over_at(game, columns),
           {c: v for c, v in columns.items() if c not in rest})


def check_columns(game: Game, columns: Mapping[str, Any]) -> None:
    """Refuse, before the compile, a column that no state of a game of one model has: every
    state has the columns of the initial state (:func:`~mdp.hookspecs.game.mdp_state_columns`).
    A game's batch columns (``mdp_columns``) hold its actions' too, empty for a state: which
    name a state is known once the states are, and checked then (:func:`check_advice`)."""
    from mdp.engine.checks import initial_state

    if game.in_rounds or not columns or not game.implements("mdp_initial_state") \
            or game.implements("mdp_columns"):
        return
    start = initial_state(game)
    table = to_frame(table_state_columns(game, [start]), f"game {game.name}")
    unknown = [c for c in columns if c not in table.columns]
    if unknown:
        raise ParamError(_expected(game, table, table.columns, 0, unknown))


def _found(model: CompiledModel, game: Game, columns: dict[str, Any], over: bool = False,
           round_state: Mapping[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """The id of the state of ``model`` that ``columns`` name, and its columns. Where the
    game is over (``over``: at a round state that ends it) no round is played: the round's
    first state stands for the round state, named or not, and no other can be named.
    ``round_state``: the columns that named the round state, in a game of rounds."""
    states = model.states
    # The columns a policy table shows of a state, those that say something.
    table = to_frame(table_state_columns(game, states, model.column_prints), f"game {game.name}")
    table = numbered(table.select([c for c in table.columns if table[c].null_count() < table.height]),
                     len(states), "_id")
    names = [c for c in table.columns if c != "_id"]
    unknown = [c for c in columns if c not in names]
    if unknown:
        raise ParamError(_expected(game, table, names, model.initial, unknown))
    if over and not columns:
        matches = table.filter(pl.col("_id") == model.initial)
    elif columns:
        matches = table.filter([same(table, c, v) for c, v in columns.items()])
        lacking = [pl.col(c).is_null() for c in names if c not in columns and table[c].null_count()]
        if matches.height > 1 and lacking:  # a state lacking the columns left out, if any
            empty = matches.filter(lacking)
            matches = empty if empty.height else matches
    else:  # every column left out: the state where every one is empty, one that is played
        matches = table.filter([pl.col(c).is_null() for c in names] or [pl.lit(True)])
        played = matches.filter(pl.col("_id") >= model.n_terminal)  # (Pig's is its end)
        matches = played if played.height else matches
        if not matches.height or int(matches["_id"][0]) < model.n_terminal <= model.initial:
            raise ParamError(_expected(game, table, names, model.initial, [], round_state))
    given = ", ".join(f"{c}={v!r}" for c, v in columns.items()) or "every column empty"
    if matches.height == 0:
        raise ParamError(f"no reachable state has {given}{near(table, columns)}; "
                         + _expected(game, table, names, model.initial, []))
    if matches.height > 1:
        raise ParamError(_several(game, matches, names, given))
    if over and int(matches["_id"][0]) != model.initial:
        raise ParamError(f"the game is over at that round state, and no round is played from it: "
                         f"{given} is not the round's first state, the only one there; name the "
                         "round state alone")
    return int(matches["_id"][0]), {c: _plain(matches[c][0]) for c in names}


def _advise(solution: Solution[Any], game: Game, columns: dict[str, Any], over: bool = False,
            round_state: Mapping[str, Any] | None = None) -> Advice:
    """Advice at a state of one model, left out the actions the position does not allow."""
    model = solution.model
    states = model.states
    state_id, state = _found(model, game, columns, over, round_state)
    per_action = solution.action_values()
    ids = np.arange(*model.actions_of(state_id))
    actions = action_labels(model, game, [state_id])
    labels = row_columns(game, [states[state_id]] * len(ids), actions)
    _own_columns(game, states[state_id], state, labels, actions)
    # A row per action even where no column is left of them (every one the state's, or empty).
    frame = numbered(to_frame({k: v for k, v in labels.items() if k not in state}), len(ids), "\0")
    if solution.allowed is not None:  # what the position does not allow, left out
        frame = frame.filter(pl.Series(solution.allowed[ids]))
        ids = ids[solution.allowed[ids]]
    frame = frame.select([c for c in frame.columns if c == "\0" or frame[c].null_count() < frame.height])
    frame = frame.with_columns(value=pl.Series(per_action.value[ids], dtype=pl.Float64)).drop("\0")
    if per_action.exact is not None:
        frame = frame.with_columns(value_exact=pl.Series([str(per_action.exact[i]) for i in ids],
                                                         dtype=pl.String))
    frame = frame.with_columns(regret=pl.Series(per_action.regret[ids], dtype=pl.Float64))
    if per_action.exact_regret is not None:  # beside the regret, as the policy table has it
        frame = frame.with_columns(regret_exact=pl.Series(
            [str(per_action.exact_regret[i]) for i in ids], dtype=pl.String))
    frame = frame.with_columns(optimal=pl.Series(per_action.optimal[ids], dtype=pl.Boolean))
    if solution.policy is not None and solution.policy.name != OPTIMAL:
        frame = frame.with_columns(probability=pl.Series(solution.policy.as_floats()[ids]))
    return Advice(state, frame[_ranked(per_action, ids)])


def _own_columns(game: Game, key: Any, state: dict[str, Any], labels: dict[str, Any],
                 actions: Any) -> None:
    """Refuse columns that the game gives a state named alone (its action ``None``) but
    otherwise with one of its actions: a state's own columns are the same with each action,
    and an action's columns are left empty without one."""
    if not game.implements("mdp_columns"):  # the state's hook and the action's are apart
        return
    rows = to_frame(labels, f"game {game.name}")
    for name, value in state.items():
        if value is None or name not in rows.columns:
            continue
        other = next((i for i, v in enumerate(rows[name].to_list())
                      if v != value and (v == v or value == value)), None)  # NaN as NaN
        if other is not None:
            raise ModelError(f"game {game.name}: mdp_columns gave {name}={value!r} for the state "
                             f"named alone (action None), but {name}={rows[name][other]!r} with "
                             f"its action {said(actions[other])} ({describe(game, key)}); a "
                             "state's own columns are the same with each of its actions, and an "
                             "action's columns are None without one")


def _ranked(per_action: Any, ids: np.ndarray) -> np.ndarray:
    """The order advice of every kind lists the actions ``ids`` in: best first, and actions
    tied in the game's order (:func:`~mdp.hookspecs.game.mdp_actions`'): equal in exact
    numbers; in floats, each within :data:`~mdp.engine.policy.FLOAT_TIE` of the best of the
    run it falls in (:func:`~mdp.engine.policy.tie_margin`), so that rounding noise (six
    sixths adding up to 0.9999999999999999) orders none, and floats list as exact does."""
    if per_action.exact_regret is not None:  # by the fractions: 1e-400 is no float's 0
        return np.array(sorted(range(len(ids)), key=lambda i: per_action.exact_regret[ids[i]]),
                        dtype=np.int64)
    regret = np.asarray(per_action.regret[ids], dtype=np.float64)
    order = np.argsort(regret, kind="stable")
    if not len(ids):
        return order
    margin = float(tie_margin(np.abs(per_action.value[ids][order[:1]]))[0])
    runs = np.zeros(len(ids), dtype=np.int64)
    run, first = 0, regret[order[0]]
    for i in order.tolist():
        if regret[i] - first > margin:  # past the run's first: a new run
            run, first = run + 1, regret[i]
        runs[i] = run
    return np.lexsort((np.arange(len(ids)), runs))


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _expected(game: Game, table: pl.DataFrame, names: list[str], initial: int, unknown: list[str],
              round_state: Mapping[str, Any] | None = None) -> str:
    lead = f"unknown column {', '.join(unknown)}; " if unknown else ""
    if not names:
        return f"{lead}the states of {game.name} show no column: name none"
    start = table.row(initial, named=True)
    example = written({c: start[c] for c in names})
    if round_state and not unknown:  # the round state understood, the state within it not given
        named = written(round_state)
        lead = (f"{named or 'every round column left out'} names the round state; the state "
                "within its round is missing: ")
    shown = (f"e.g. the initial state: {example}" if example else
             "a column empty in the state left out; every one is empty in the initial state")
    if "\0" in "".join(str(start[c]) for c in names):  # bash's $'\x00' ends the word there
        shown += "; its NUL character cannot be given on a command line, only from Python"
    return f"{lead}name a state of {game.name} by its columns {', '.join(names)} (COLUMN=VALUE, {shown})"


SHOWN_STATES = 4
"""The most states an ambiguous ``mdp advise`` lists one by one."""


def _several(game: Game, matches: pl.DataFrame, names: list[str], given: str) -> str:
    """Several states have the columns given: name them, and the columns that tell them apart."""
    apart = [c for c in names if len({seen(v) for v in matches[c].to_list()}) > 1]
    shown = [written({c: row[c] for c in names})
             for row in matches.sort(names, nulls_last=True).head(SHOWN_STATES).iter_rows(named=True)]
    more = f", and {matches.height - SHOWN_STATES:,} more" if matches.height > SHOWN_STATES else ""
    which = (f"give {' or '.join(apart)} too, to say which" if apart else
             "no column of the game tells them apart")
    listed = f" ({'; '.join(shown)}{more})" if any(shown) else ""  # none has a column set
    return f"{matches.height:,} states of {game.name} have {given}{listed}; {which}"
