"""The labels of a model's actions, and the words for its states, asked of the game again:
the model keeps none."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from mdp.checks import GAME, MODEL, arguments, first, state_ids
from mdp.engine.batch_answers import expand
from mdp.engine.checks import actions_of, shown
from mdp.engine.groups import starts
from mdp.engine.model import CompiledModel
from mdp.engine.walk import label_print, label_prints
from mdp.errors import ModelError, said
from mdp.game.load import Game, describe


def action_labels(model: CompiledModel, game: Game,
                  states: np.ndarray | Sequence[int] | None = None) -> Any:
    """The game's label of every action of ``states`` (ids of non-terminal states, ascending;
    by default all of them), in action order, as the game wrote them.

    The model keeps no labels (in a large model they would be a third of its memory): they
    are asked of the game again, a layer at a time through
    :func:`~mdp.hookspecs.game.mdp_expand` for a model discovered that way (its states are an
    integer array), else a state at a time through :func:`~mdp.hookspecs.game.mdp_actions`.
    A game must give the same actions in the same order each time it is asked.
    """
    arguments("action_labels", model=(model, first(MODEL, "action_labels(model, game)")),
              game=(game, GAME))
    states = np.arange(model.n_terminal, model.n_states) if states is None else \
        state_ids("action_labels", states, model.n_states)
    counts = model.action_count(states).astype(np.int64)
    if isinstance(model.states, np.ndarray):
        parts: list[Any] = []
        layers = model.layers_of(states)
        bounds = np.flatnonzero(np.diff(layers)) + 1
        for part in np.split(np.arange(len(states)), bounds) if len(states) else []:
            expansion = expand(game, model.states[states[part]].astype(np.int64), labels=True)
            _same_count(game, model, states[part], counts[part], expansion.action_counts)
            _same_outcomes(game, model, states[part], expansion)
            if expansion.actions is None:
                raise ModelError(f"game {game.name}: mdp_expand gave no actions when asked for "
                                 "their labels")
            _same_prints(game, model, states[part], expansion)
            if not parts:  # labels in another order would name other actions' values: asked twice
                _same_labels(game, model, states[part], expansion.actions)
            parts.append(expansion.actions)
        if all(isinstance(p, np.ndarray) for p in parts):
            return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return [a for p in parts for a in p]
    labels = []
    for state_id, count in zip(states.tolist(), counts.tolist()):
        actions = actions_of(game, model.states[state_id])
        _same_count(game, model, [state_id], [count], [len(actions)])
        if model.label_prints is not None and label_print(actions) != model.label_prints[state_id]:
            raise ModelError(f"game {game.name}: asked again, mdp_actions gave {actions!r}: other "
                             f"actions than before, or the same in another order "
                             f"({describe(game, model.states[state_id])}); {_SAME}")
        labels += actions
    return labels


_SAME = "a game must give the same actions in the same order each time"


def _same_labels(game: Game, model: CompiledModel, states: np.ndarray, labels: Any) -> None:
    """Check that the labels of ``states`` asked again are the same, in the same order, for
    each state: asked again with each state one place later in the batch (the last first),
    and the first, middle and last state alone. A game that gives them in another order each
    time, or by where a state stands in its batch (labels that hang on a place are caught
    unless every place has them, and then the first alone says so) or what is asked with it
    (outcomes the same), cannot be told from its expansion alone."""
    keys = np.asarray(model.states)[states].astype(np.int64)
    counts = model.action_count(states).astype(np.int64)
    ends = np.cumsum(counts)
    first = list(labels)
    given = [first[int(e - c):int(e)] for e, c in zip(ends, counts)]
    again = expand(game, np.roll(keys, 1), labels=True).actions
    if again is None or len(again) != len(first):
        got = "none" if again is None else f"{len(again):,} labels"
        raise ModelError(f"game {game.name}: asked twice for labels, mdp_expand gave {got} where "
                         f"it gave {len(first):,} ({describe(game, model.states[states[0]])}); {_SAME}")
    moved, moved_ends = list(again), np.cumsum(np.roll(counts, 1))
    if moved == given[-1] + first[:len(first) - len(given[-1])]:  # (a million states: at once)
        moved_ends = moved_ends[:0]
    for row, (e, c) in enumerate(zip(moved_ends, np.roll(counts, 1))):
        state = (row - 1) % len(states)
        if moved[int(e - c):int(e)] != given[state]:
            said = shown(list(moved[int(e - c):int(e)]))
            where = describe(game, model.states[states[state]])
            raise ModelError(f"game {game.name}: asked twice for labels, mdp_expand gave {said} where "
                             f"it gave {shown(given[state])} ({where}); {_SAME}, whatever other "
                             "states are asked with it")
    for row in sorted({0, len(states) // 2, len(states) - 1}):  # alone: labels hung on the batch
        alone = expand(game, keys[row:row + 1], labels=True)
        if alone.actions is None or list(alone.actions) != given[row]:
            said = shown(list(alone.actions)) if alone.actions is not None else "none"
            raise ModelError(f"game {game.name}: asked alone for labels, mdp_expand gave {said} where "
                             f"it gave {shown(given[row])} in a batch of {len(states):,} states "
                             f"({describe(game, model.states[states[row]])}); {_SAME}, whatever "
                             "other states are asked with it")


def _same_prints(game: Game, model: CompiledModel, states: np.ndarray, expansion: Any) -> None:
    """Check that the labels of ``states`` asked again are those the game gave as the model
    was built, in the same order, where it gave them then: labels in another order over the
    same outcomes would name other actions' values."""
    if model.label_prints is None:
        return
    differ = np.flatnonzero(label_prints(expansion.actions, expansion.action_counts)
                            != model.label_prints[states])
    if len(differ):
        state = int(states[differ[0]])
        raise ModelError(f"game {game.name}: asked again for labels, mdp_expand gave "
                         f"{shown(list(_labels_of(expansion, int(differ[0]))))}: other labels "
                         f"than as the model was built, or the same in another order "
                         f"({describe(game, model.states[state])}); {_SAME}")


def _labels_of(expansion: Any, row: int) -> Any:
    """The labels an expansion gave to the actions of its ``row``-th state."""
    end = int(np.sum(expansion.action_counts[:row + 1]))
    return expansion.actions[end - int(expansion.action_counts[row]):end]


def _same_outcomes(game: Game, model: CompiledModel, states: np.ndarray, expansion: Any) -> None:
    """Check that each action of an expansion asked again leads where it led as the model
    was compiled (as many outcomes, to states whose keys sum the same): a game that gives
    its actions in another order with their labels would have them land on other actions'
    values."""
    actions = model.actions_of_states(states)
    counts, successors = model.successors(actions)
    sums = _sums(np.asarray(model.states)[successors], counts)
    got_counts = np.ones(len(actions), dtype=np.int64) if expansion.all_choices \
        else np.asarray(expansion.outcome_counts, dtype=np.int64)
    got = _sums(np.asarray(expansion.next_states), got_counts)
    if len(got_counts) != len(counts) or len(got) != len(sums):
        wrong = 0
    else:
        differ = np.flatnonzero((got_counts != counts) | (got != sums))
        if not len(differ):
            return
        wrong = int(differ[0])
    state = int(np.searchsorted(np.cumsum(model.action_count(states)), wrong, side="right"))
    label = None if expansion.actions is None else expansion.actions[wrong]
    raise ModelError(f"game {game.name}: asked again for labels, mdp_expand gave an action other "
                     f"outcomes than before ({describe(game, model.states[states[state]], label)}); "
                     f"{_SAME}")


def _sums(keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The sum of each action's successors' keys (``counts`` of them each): the keys
    themselves where every action has one."""
    if not len(keys) or len(keys) == len(counts):
        return keys.astype(np.int64, copy=False)
    return np.add.reduceat(keys, starts(counts)[:-1], dtype=np.int64)


def _same_count(game: Game, model: CompiledModel, states: Sequence[int] | np.ndarray,
                expected: Sequence[int] | np.ndarray, got: Sequence[int] | np.ndarray) -> None:
    wrong = np.flatnonzero(np.asarray(expected) != np.asarray(got))
    if len(wrong):
        state = model.states[states[wrong[0]]]
        raise ModelError(f"game {game.name}: asked again, it gave {got[wrong[0]]} actions where it "
                         f"gave {expected[wrong[0]]} before ({describe(game, state)}); a game must "
                         "give the same actions each time")


def action_label(model: CompiledModel, game: Game, action: int) -> str:
    """The label of the action of id ``action`` as a message quotes it, asked of the game
    for its state alone."""
    state = int(model.action_state()[action])
    label = action_labels(model, game, [state])[action - model.actions_of(state)[0]]
    return shown(label.item() if isinstance(label, np.generic) else label)


def worded(error: BaseException, game: Game | None, *, varied: bool = False) -> BaseException:
    """``error`` with the state it names by its key (the engine's ``state 939302``: it has
    no game; :meth:`mdp.ModelError.at`) in the words of ``game``, its columns, where the state
    is that game's (its rules alike: a varied game's state is another's); and each round state
    it names by its key (``round state 2``) with its round columns beside it (``round state 2
    (played=1 banked=0)``), as mdp advise takes them, unless the rules were ``varied`` (the
    round state may be another rule set's, which the error does not say)."""
    if not isinstance(error, ModelError) or game is None or error.info is not None and \
            (error.info.game, dict(error.info.params)) != (game.name, game.shown_params()):
        return error
    import copy

    text = str(error) if varied else _round_states_worded(str(error), game)
    if error.info is not None:
        words = describe(game, error.state)  # the game's columns (else "state KEY" again)
        text = text.replace(f"state {said(error.state)}", words if words.startswith("state ")
                            else f"state ({words})", 1)
    if text == str(error):
        return error
    told = copy.copy(error)
    told.args = (text,)
    return told


_ROUND_STATE = re.compile(r"\bround state (-?\d+)(?! \()")
"""A round state named by its key alone, as the engine names one (it has no game)."""


def _round_states_worded(text: str, game: Game) -> str:
    """``text`` with each round state it names by its key alone followed by its round
    columns, where the game gives them (the key is its private encoding: Yahtzee's a mask of
    boxes and a total); as it is where they cannot be had."""
    if not _ROUND_STATE.search(text) or not game.implements("mdp_round_columns"):
        return text

    def named(found: re.Match[str]) -> str:
        try:  # (Polars loaded only here: an error of a game that broke a module needs it not)
            from mdp.game.cells import to_frame
            from mdp.game.columns import round_columns
            from mdp.game.naming import written

            columns = round_columns(game, np.array([int(found.group(1))], dtype=np.int64), ())
            words = written(to_frame(columns, f"game {game.name}").row(0, named=True))  # (as tables)
        except Exception:  # noqa: BLE001  (the game's columns not to be had: its key alone)
            return found.group(0)
        return f"{found.group(0)} ({words or 'every round column empty'})"

    return _ROUND_STATE.sub(named, text)
