"""What a game's hooks return, checked once, where the engine takes it: the one place for both
ways of discovering (:mod:`mdp.engine.walk`, :mod:`mdp.engine.stages`).

Each hook's answer is checked as it is called for (:func:`actions_of`, :func:`outcomes_of`,
:func:`expand`, ...): its type and shape, cheaply, so that nothing past this module meets a
value of the wrong kind. What takes a pass over every outcome (probabilities summing to 1,
finite terminal values) is checked a block at a time by :class:`BlockChecks`, beside
discovery. Every fault is a :class:`mdp.ModelError` naming the game, the hook, the state
(and action) and what was expected."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine.expansion import Expansion
from mdp.engine.numeric import (
    fault,
    first_float,
    first_past_float,
    numbers_array,
    plain,
    plain_array,
    plain_numbers,
    quoted,
)
from mdp.engine.same import lost
from mdp.engine.sums import PROBABILITY_TOLERANCE
from mdp.errors import PLUGIN_FAULTS, ModelError, said
from mdp.errors import fault as raised
from mdp.game.cells import allowed
from mdp.game.load import Game, describe
from mdp.handed import copied
from mdp.shown import utf8

INT64_MAX = int(np.iinfo(np.int64).max)

NOT_LISTS = (str, bytes, Mapping, set, frozenset)
"""What a hook's list is not, though Python iterates it: text, a dict, and a set, which has
no order (ties go to the first action, and a set's order changes from run to run)."""

UNEQUAL = "not equal to itself, or holds a part that is not (a NaN)"
"""What a state or action is that could never be found again (:func:`mdp.engine.same.lost`)."""


# The per-state hooks, and what both ways ask.


def required(game: Game, hook: str, **kwargs: Any) -> Any:
    """Call a hook every game needs; one that no plugin implements (an empty file, a hook
    misspelt or not marked) is said so, rather than that it returned nothing."""
    answer = game.call(hook, **kwargs)
    if answer is None and not game.implements(hook):
        raise _no_hook(game, hook)
    return answer


def a_game(game: Game) -> None:
    """Refuse what implements no game (an empty file, a folder of other code): every game
    has an initial state. For the commands that read a game without solving it."""
    if not game.implements("mdp_initial_state"):
        raise _no_hook(game, "mdp_initial_state")


def _no_hook(game: Game, hook: str) -> ModelError:
    return ModelError(f"game {game.name}: no {hook} hook; a game implements mdp_initial_state, "
                      "mdp_actions, mdp_outcomes and mdp_terminal_value, each marked @mdp.hookimpl")


def initial_state(game: Game, batch: bool = False) -> Any:
    """The game's initial state: hashable, and for a game of batch hooks an integer key."""
    initial = required(game, "mdp_initial_state")
    if initial is None:
        raise ModelError(f"game {game.name}: mdp_initial_state returned nothing")
    if batch:
        if isinstance(initial, (bool, np.bool_)) or not isinstance(initial, (int, np.integer)) \
                or not -INT64_MAX - 1 <= initial <= INT64_MAX:
            raise ModelError(f"game {game.name}: mdp_initial_state returned {shown(initial)}; a "
                             "game with mdp_expand needs an int initial state (64-bit)")
        return int(initial)
    itself = itself_equal(game, initial, "mdp_initial_state returned the state", "")
    if itself is None:
        raise ModelError(f"game {game.name}: mdp_initial_state returned {shown(initial)}, which "
                         "is not hashable; states must be (use a tuple or a frozenset, not a list "
                         "or a set)")
    if not itself:
        raise ModelError(f"game {game.name}: mdp_initial_state returned {shown(initial)}, which is "
                         f"{UNEQUAL}; a state must be, to be met again")
    return initial


def itself_equal(game: Game, state: Any, gave: str, where: str) -> bool | None:
    """Whether a state a hook ``gave`` is equal to itself, and each part of it
    (:func:`~mdp.engine.same.lost`); ``None`` where it is not hashable.
    Its ``__hash__`` or ``__eq__`` raising anything but an unhashable type's TypeError is
    refused in one line naming the game, the hook and the state."""
    step = "hash"
    try:
        hash(state)
        step = "=="
        return not lost(state)  # (a NaN inside too, which a tuple's own == passes over)
    except PLUGIN_FAULTS as error:
        if step == "hash" and isinstance(error, TypeError) and "unhashable" in str(error):
            return None  # a list, a set: said by the caller
        raise ModelError(f"game {game.name}: {gave} {shown(state)}, whose {step} raised "
                         f"{raised(error)}{where}; a state's hash and == must answer") from None


def estimate_states(game: Game) -> int | None:
    """The game's :func:`~mdp.hookspecs.game.mdp_estimate_states`: a whole number, or None."""
    at_least = game.call("mdp_estimate_states")
    if at_least is not None and (not isinstance(at_least, (int, np.integer))
                                 or isinstance(at_least, (bool, np.bool_)) or at_least < 0):
        raise ModelError(f"game {game.name}: mdp_estimate_states returned {shown(at_least)} ("
                         f"{type(at_least).__name__}), not a count of states: an int of 0 or more, or None")
    return None if at_least is None else int(at_least)


def actions_of(game: Game, state: Any) -> list[Any]:
    """The game's actions in ``state`` (:func:`~mdp.hookspecs.game.mdp_actions`): distinct hashable labels."""
    actions = _listed(game, "mdp_actions", required(game, "mdp_actions", state=state),
                      lambda: f"state {said(state)}", "a list of actions", state=state)
    seen: set[Any] = set()
    for action in actions:
        try:
            twice, itself = action in seen, not lost(action)  # (NaN: never found again)
        except PLUGIN_FAULTS as error:  # the game's hash or ==, whatever it raises
            gave = f"{whose(game, 'mdp_actions', state=state)} gave the action {said(action)}"
            if isinstance(error, TypeError) and "unhashable" in str(error):
                raise ModelError(f"game {game.name}: {gave}, which is not hashable (state "
                                 f"{said(state)}); actions must be (use a tuple or a frozenset, "
                                 "not a list or a set)") from None
            raise ModelError(f"game {game.name}: {gave}, whose hash or == raised {raised(error)} "
                             f"(state {said(state)}); an action's hash and == must answer") from None
        if twice or not itself:
            raise ModelError(f"game {game.name}: {whose(game, 'mdp_actions', state=state)} gave the action "
                             f"{said(action)}{' twice' if twice else f', {UNEQUAL},'} (state "
                             f"{said(state)}); each action once, a label found again by ==")
        if isinstance(action, str) and not utf8(action):  # a table's text of it
            raise ModelError(f"game {game.name}: {whose(game, 'mdp_actions', state=state)} gave the action "
                             f"{said(action)} (state {said(state)}); {allowed(action)}")
        seen.add(action)
    return actions


def outcomes_of(game: Game, state: Any, action: Any) -> list[tuple[Any, Any]]:
    """The outcomes of ``action`` in ``state`` (:func:`~mdp.hookspecs.game.mdp_outcomes`): a
    list of ``(probability, next state)`` pairs, each next state hashable, each probability a
    number before its next state meets another hook; that they sum to 1 is BlockChecks's."""
    def where() -> str:
        return f"state {said(state)}, action {said(action)}"

    outcomes = _listed(game, "mdp_outcomes",
                       required(game, "mdp_outcomes", state=state, action=action), where,
                       "a list of (probability, next state) pairs", state=state, action=action)
    for item in outcomes:
        try:
            if isinstance(item, (str, bytes, Mapping, Set)):  # unpacked, but not a pair in order
                raise TypeError
            p, nxt = item
            if fault(p) == "is not a number":  # as BlockChecks says it, before nxt is explored
                raise ModelError(f"game {game.name}: mdp_outcomes: probability {quoted(p)} is not a "
                                 f"number ({where()})")
            itself = itself_equal(game, nxt, "mdp_outcomes gave the next state", f" ({where()})")
            if itself is None:
                raise TypeError
        except (TypeError, ValueError):
            raise ModelError(f"game {game.name}: mdp_outcomes gave {shown(item)}, not a "
                             f"(probability, hashable next state) pair ({where()})") from None
        if not itself:
            raise ModelError(f"game {game.name}: mdp_outcomes gave the next state {shown(nxt)}, which is "
                             f"{UNEQUAL} ({where()}); a state must be, to be met again")
    return [(plain(p), nxt) for p, nxt in outcomes]


def terminal_value_of(game: Game, state: Any) -> Any:
    """The game's value of a terminal state (checked to be a number with the block's), as a
    Python number (:func:`plain`)."""
    return plain(required(game, "mdp_terminal_value", state=state))


def _listed(game: Game, hook: str, result: Any, where: Callable[[], str], expected: str,
            **kwargs: Any) -> list[Any]:
    if _bad_list(result) or (isinstance(result, np.ndarray) and result.ndim != 1):
        got = "nothing" if result is None else f"{shown(result)}, not a list" + (
            " (a set has no order)" if isinstance(result, (set, frozenset)) else "")
        raise ModelError(f"game {game.name}: {whose(game, hook, **kwargs)} returned {got} "
                         f"({where()}); expected {expected}")
    return list(result)


def whose(game: Game, hook: str, faulty: Callable[[Any], bool] | None = None, **kwargs: Any) -> str:
    """``hook`` as a fault in its answer (for ``kwargs``) names it: ``plugin NAME's hook``
    where a rule plugin's implementation made the answer one that ``faulty`` finds (by
    default, one the checks refuse), not the game's own."""
    if len(getattr(game.plugins.hook, hook).get_hookimpls()) < 2:
        return hook
    plugin = game.blame(hook, faulty or _FAULTY[hook], **kwargs)
    return hook if plugin is None else f"plugin {plugin}'s {hook}"


def _bad_list(answer: Any) -> bool:
    return answer is None or isinstance(answer, NOT_LISTS) or not hasattr(answer, "__iter__")


def _not_distinct(answer: Any) -> bool:
    try:
        return len(set(answer)) != len(list(answer))
    except TypeError:  # not hashable
        return True


def _bad_outcomes(answer: Any) -> bool:
    try:
        chances = [plain(p) for p, _ in answer]
    except (TypeError, ValueError):
        return True
    if any(fault(p) or p < 0 for p in chances):
        return True
    if all(isinstance(p, (int, Fraction)) for p in chances):
        return sum(chances, Fraction(0)) != 1
    return abs(sum(float(p) for p in chances) - 1) > PROBABILITY_TOLERANCE


def gives_float(answer: Any) -> bool:
    """Whether an answer of mdp_outcomes or mdp_terminal_value holds a float, which exact
    solving cannot take (the game that gives one may be solved in floats)."""
    try:
        numbers = [plain(p) for p, _ in answer] if hasattr(answer, "__iter__") else [plain(answer)]
    except (TypeError, ValueError):
        return False
    return first_float(numbers) is not None


_FAULTY: dict[str, Callable[[Any], bool]] = {  # what a check refuses in a hook's one answer
    "mdp_actions": lambda answer: _bad_list(answer) or _not_distinct(answer),
    "mdp_outcomes": lambda answer: _bad_list(answer) or _bad_outcomes(answer),
    "mdp_terminal_value": lambda answer: fault(plain(answer)) is not None or
    first_past_float([plain(answer)]) is not None,
}


def not_a_chance(answer: Any) -> bool:
    """Whether a terminal value (one answer of mdp_terminal_value) is a number outside 0 to
    1, where the objective says the values are probabilities."""
    value = plain(answer)
    return fault(value) is None and not 0 <= value <= 1


# The batch hooks.


def expand(game: Game, keys: np.ndarray, labels: bool) -> Expansion:
    """The game's :func:`~mdp.hookspecs.game.mdp_expand` of ``keys``: an :class:`Expansion`
    whose counts, next states and probability ids are one-dimensional integer arrays (next
    states as 64-bit keys), its table and terminal values sequences. Whether the sizes
    agree and the numbers are numbers is :class:`BlockChecks`'s to say."""
    return _whose(game, "mdp_expand", lambda e: _expansion(game, keys, labels, e), states=keys, labels=labels)


def _whose(game: Game, hook: str, check: Callable[[Any], Any], **kwargs: Any) -> Any:
    """``check`` of the answer of the batch ``hook``: where it refuses it, the rule plugin
    whose implementation (a wrapper) made the answer wrong is named, found as the hook is
    asked again with the plugins added one at a time; never the game, whose own was right."""
    answer = game.call(hook, **kwargs)
    try:
        return check(answer)
    except ModelError as error:
        said = f"game {game.name}: "
        if not str(error).startswith(said):
            raise

        def wrong(other: Any) -> bool:
            try:
                check(other)
            except ModelError:
                return True
            return False

        plugin = game.blame(hook, wrong, **kwargs)
        if plugin is None:
            raise
        raise ModelError(str(error).replace(said, f"{said}plugin {plugin}'s ", 1)) from error.__cause__


def _expansion(game: Game, keys: np.ndarray, labels: bool, e: Any) -> Expansion:
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


def shown(value: Any) -> str:
    """A value as a message quotes it: short, whatever its size."""
    try:
        text = quoted(value)
    except Exception:  # noqa: BLE001  (a broken __repr__ must not hide the fault)
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else f"{text[:60]}... (a {type(value).__name__})"
