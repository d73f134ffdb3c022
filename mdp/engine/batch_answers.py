"""What a game's batch hooks return (:func:`~mdp.hookspecs.game.mdp_expand`,
:func:`~mdp.hookspecs.game.mdp_stage`), checked once, where the engine takes it: each
answer's types and sizes (what takes a pass over every outcome is :class:`BlockChecks`'s,
:mod:`mdp.engine.blockchecks`), a wrong one said naming the game, the rule plugin whose
implementation made it so, the hook and the states asked about. The per-state hooks'
answers are :mod:`mdp.engine.checks`'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from mdp.engine.checks import INT64_MAX, NOT_LISTS, shown
from mdp.engine.expansion import Expansion
from mdp.engine.numeric import numbers_array, plain, plain_array, plain_numbers
from mdp.errors import ModelError
from mdp.game.load import Game, describe
from mdp.handed import copied


def expand(game: Game, keys: np.ndarray, labels: bool) -> Expansion:
    """The game's :func:`~mdp.hookspecs.game.mdp_expand` of ``keys``: an :class:`Expansion`
    whose counts, next states and probability ids are one-dimensional integer arrays (next
    states as 64-bit keys), its table and terminal values sequences. Whether the sizes
    agree and the numbers are numbers is :class:`BlockChecks`'s to say."""
    return _whose(game, "mdp_expand", lambda e: checked(game, keys, labels, e), states=keys, labels=labels)


def _whose(game: Game, hook: str, check: Callable[[Any], Any], **kwargs: Any) -> Any:
    """``check`` of the answer of the batch ``hook``: where it refuses it, the rule plugin
    whose implementation (a wrapper) made the answer wrong is named, found as the hook is
    asked again with the plugins added one at a time; never the game, whose own was right."""
    return game.checked(hook, game.call(hook, **kwargs), check, f"game {game.name}: {hook}", **kwargs)


def checked(game: Game, keys: np.ndarray, labels: bool, e: Any) -> Expansion:
    """``e``, an answer of mdp_expand for ``keys``, checked as :func:`expand` checks it (its
    numbers are :class:`~mdp.engine.blockchecks.BlockChecks`'s)."""
    if not isinstance(e, Expansion):
        raise ModelError(f"game {game.name}: mdp_expand returned {shown(e)}, not an "
                         f"mdp.Expansion ({_states(game, keys)})")
    field = _Field(game, keys)
    if (e.outcome_counts is None) != (e.probabilities is None):
        given, missing = ("outcome_counts", "probabilities") if e.probabilities is None \
            else ("probabilities", "outcome_counts")
        raise field.refuse(given, f"but no {missing}", "both, or neither (Expansion.choices)")
    checked = attrs.evolve(
        e, action_counts=field.integers(e.action_counts, "action_counts", "a count of actions per state"),
        actions=None if e.actions is None else  # a copy: the game's own may be filled again
        copied(field.sequence(e.actions, "actions", "a label per action")),
        outcome_counts=None if e.outcome_counts is None else
        field.integers(e.outcome_counts, "outcome_counts", "a count of outcomes per action"),
        next_states=field.integers(e.next_states, "next_states", "a state key per outcome"),
        probabilities=None if e.probabilities is None else
        field.integers(e.probabilities, "probabilities", "an id into probability_table per outcome"),
        probability_table=tuple(plain_numbers(field.sequence(
            e.probability_table, "probability_table", "a sequence of probabilities"))),
        terminal_values=plain_numbers(field.sequence(e.terminal_values, "terminal_values",
                                                     "a value per terminal state")))
    _sizes(game, keys, checked)
    if labels and checked.actions is not None:
        _labels(game, keys, checked)
    return checked


def _sizes(game: Game, keys: np.ndarray, e: Expansion) -> None:
    """Refuse an expansion whose arrays' sizes do not agree, or a count of actions below 0:
    whatever reads it next (its prints, a block's checks) reads them together."""
    counts = e.action_counts
    if len(counts) != len(keys):
        raise ModelError(f"game {game.name}: mdp_expand gave {len(counts):,} action_counts for "
                         f"{len(keys):,} states; expected one each")
    if len(counts) and counts.min() < 0:
        state = int(np.argmax(counts < 0))
        raise ModelError(f"game {game.name}: mdp_expand: {int(counts[state])} actions; expected a "
                         f"count of 0 or more ({describe(game, int(keys[state]))})")
    n_actions = int(np.sum(counts))
    n_outcomes = n_actions if e.outcome_counts is None else int(np.sum(e.outcome_counts))
    sizes = [(n_actions if e.actions is None else len(e.actions), n_actions, "actions",
              "actions counted"),
             (len(e.next_states), n_outcomes, "next_states", "outcomes counted"),
             (len(e.terminal_values), int(np.count_nonzero(counts == 0)), "terminal_values",
              "terminal states")]
    if e.outcome_counts is not None:
        assert e.probabilities is not None  # both or neither: refused above
        sizes[1:1] = [(len(e.outcome_counts), n_actions, "outcome_counts", "actions counted"),
                     (len(e.probabilities), n_outcomes, "probabilities", "outcomes counted")]
    for got, expected, what, of in sizes:
        if got != expected:
            raise ModelError(f"game {game.name}: mdp_expand gave {got:,} {what} for "
                             f"{expected:,} {of}; expected one each")
    if e.outcome_counts is not None and len(e.outcome_counts) and e.outcome_counts.min() < 0:
        raise ModelError(f"game {game.name}: mdp_expand: {int(e.outcome_counts.min())} outcomes "
                         f"of an action; expected a count of 0 or more ({_states(game, keys)})")


def _labels(game: Game, keys: np.ndarray, e: Expansion) -> None:
    """Check the labels of an expansion asked for them: one per action counted, hashable,
    each state's distinct (as :func:`actions_of` checks a state's actions)."""
    counts = e.action_counts
    if len(e.actions) != int(np.sum(counts)):
        raise ModelError(f"game {game.name}: mdp_expand gave {len(e.actions):,} labels for "
                         f"{int(np.sum(counts)):,} actions counted; expected one each "
                         f"({_states(game, keys)})")
    if isinstance(e.actions, np.ndarray) and e.actions.dtype.kind in "biufUS":  # hashable: sorted
        state_of = np.repeat(np.arange(len(counts)), counts)
        order = np.lexsort((e.actions, state_of))
        repeated = np.flatnonzero((state_of[order][1:] == state_of[order][:-1])
                                  & (e.actions[order][1:] == e.actions[order][:-1]))
        if len(repeated):
            at = int(order[repeated[0] + 1])
            raise ModelError(f"game {game.name}: mdp_expand gave the label {shown(e.actions[at].item())} "
                             f"twice ({describe(game, int(keys[state_of[at]]))}); each action once")
        return
    ends = np.cumsum(counts).tolist()
    labels = list(e.actions)
    for state, (end, count) in enumerate(zip(ends, counts.tolist())):
        seen: set[Any] = set()
        for label in labels[end - count:end]:
            try:
                twice = label in seen
            except TypeError:
                raise ModelError(f"game {game.name}: mdp_expand gave the label {shown(label)}, which "
                                 f"is not hashable ({describe(game, int(keys[state]))}); labels "
                                 "must be (use a tuple or a frozenset, not a list or a set)") from None
            if twice:
                raise ModelError(f"game {game.name}: mdp_expand gave the label {shown(label)} twice "
                                 f"({describe(game, int(keys[state]))}); each action once")
            seen.add(label)


def stages_of(game: Game, keys: np.ndarray) -> np.ndarray:
    """The game's :func:`~mdp.hookspecs.game.mdp_stage` of ``keys``: an integer per key."""
    if not game.implements("mdp_stage"):
        raise ModelError(f"game {game.name}: a game with mdp_expand must implement mdp_stage")
    keys = keys.astype(np.int64, copy=False)  # a game's arithmetic on keys stays in 64 bits
    return _whose(game, "mdp_stage", lambda answer: _stages(game, keys, answer), states=keys)


def _stages(game: Game, keys: np.ndarray, answer: Any) -> np.ndarray:
    stages = _Field(game, keys, "mdp_stage").integers(answer, "stages", "one integer per state")
    if len(stages) != len(keys):
        raise ModelError(f"game {game.name}: mdp_stage gave {len(stages):,} stages for "
                         f"{len(keys):,} states; expected one integer per state")
    return stages


class _Field:
    """Checks the arrays of a batch hook's answer for ``keys``, one field at a time."""

    def __init__(self, game: Game, keys: np.ndarray, hook: str = "mdp_expand") -> None:
        self.game, self.keys, self.hook = game, keys, hook

    def refuse(self, what: str, got: str, expected: str) -> ModelError:
        return ModelError(f"game {self.game.name}: {self.hook} gave {what} {got}; expected "
                          f"{expected} ({_states(self.game, self.keys)})")

    def integers(self, values: Any, what: str, expected: str) -> np.ndarray:
        """``values`` as a one-dimensional array of integers (of 64 bits at most)."""
        expected = f"{expected}, in a one-dimensional integer array"
        if values is None or isinstance(values, NOT_LISTS):
            raise self.refuse(what, f"as {_kind(values)}", expected)
        values = self.plain(values, what, expected)
        if not isinstance(values, np.ndarray):
            try:
                values = numbers_array(values)
            except (TypeError, ValueError, OverflowError):  # ragged, or a strange object
                raise self.refuse(what, f"as {_kind(values)}", expected) from None
        if values.ndim != 1:
            raise self.refuse(what, f"of shape {values.shape}", expected)
        if not len(values):  # an empty list is an array of floats: no matter
            return values.astype(np.int64)
        if values.dtype.kind == "O":  # Python ints (or anything): ints within 64 bits pass
            items = [plain(v) for v in values.tolist()]  # an int subclass by its value
            for v in items:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) \
                        or not -INT64_MAX - 1 <= v <= INT64_MAX:
                    raise self.refuse(what, f"holding {shown(v)}", expected)
            values = np.array(items, dtype=np.int64)
        if values.dtype.kind not in "iu":
            raise self.refuse(what, f"of type {values.dtype}", expected)
        if values.dtype.kind == "u" and values.max() > INT64_MAX:  # would wrap into another number
            raise self.refuse(what, f"holding {int(values.max())}, past 2**63 - 1",
                              f"{expected}, of 64 bits, signed")
        return values

    def plain(self, values: Any, what: str, expected: str) -> Any:
        """``values`` an array of NumPy's own class (:func:`~mdp.engine.numeric.plain_array`)."""
        try:
            return plain_array(values)
        except ValueError:
            raise self.refuse(what, "as a masked array", expected) from None

    def sequence(self, values: Any, what: str, expected: str) -> Any:
        """``values`` as a sequence in order: a one-dimensional array, a list or a tuple."""
        values = self.plain(values, what, expected)
        if isinstance(values, np.ndarray):
            if values.ndim != 1:
                raise self.refuse(what, f"of shape {values.shape}", expected)
            return values
        if isinstance(values, (list, tuple)):
            return values
        if values is None or isinstance(values, NOT_LISTS) or \
                not hasattr(values, "__iter__"):
            raise self.refuse(what, f"as {_kind(values)}", f"{expected}, in a list or an array")
        return list(values)


def _states(game: Game, keys: np.ndarray) -> str:
    """The states a batch hook was asked about, for its messages."""
    if not len(keys):
        return "asked about no states"
    return f"asked about {len(keys):,} state{'s' if len(keys) > 1 else ''} from " \
           f"{describe(game, int(keys[0]))}"


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


