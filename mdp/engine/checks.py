"""What a game's hooks return, checked once, where the engine takes it: the one place for both
ways of discovering (:mod:`mdp.engine.walk`, :mod:`mdp.engine.stages`; the batch hooks'
answers, :mod:`mdp.engine.batch_answers`).

Each hook's answer is checked as it is called for (:func:`actions_of`, :func:`outcomes_of`,
...): its type and shape, cheaply, so that nothing past this module meets a
value of the wrong kind. What takes a pass over every outcome (probabilities summing to 1,
finite terminal values) is checked a block at a time by :class:`BlockChecks`, beside
discovery. Every fault is a :class:`mdp.ModelError` naming the game, the hook, the state
(and action) and what was expected."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from fractions import Fraction
from typing import Any

import numpy as np

from mdp.engine.numeric import fault, first_float, first_past_float, plain, quoted
from mdp.engine.same import lost
from mdp.engine.sums import PROBABILITY_TOLERANCE
from mdp.errors import PLUGIN_FAULTS, ModelError, said
from mdp.errors import fault as raised
from mdp.game.cells import allowed
from mdp.game.load import Game
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


def shown(value: Any) -> str:
    """A value as a message quotes it: short, whatever its size."""
    try:
        text = quoted(value)
    except Exception:  # noqa: BLE001  (a broken __repr__ must not hide the fault)
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else f"{text[:60]}... (a {type(value).__name__})"
