"""A state or action that is not equal to a copy of itself could never be found again: a NaN
inside a tuple, which the tuple takes as equal to itself (the same object), though the NaN a
hook makes again the next time is equal to nothing. Each way to such a state was a new state,
and the walk ended in "the game may have no end" (exit 3), sending the author the wrong way.
Wherever a NaN hides (in tuples, frozensets, named tuples, attrs classes and dataclasses, at
any depth), the state is refused as it is given, in one line naming the hook."""

import dataclasses
from collections import namedtuple

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from models import Table

import mdp

Pair = namedtuple("Pair", "left right")


@attrs.frozen
class Kept:
    inside: object


@dataclasses.dataclass(frozen=True)
class Held:
    inside: object


WRAPS = [lambda x: (x,), lambda x: ("s", x, 3), lambda x: frozenset({x, "k"}),
         lambda x: Pair(x, 1), lambda x: Kept(x), lambda x: Held(x)]


def hidden(wraps):
    """A NaN inside the containers ``wraps`` names, innermost first."""
    value = float("nan")
    for wrap in wraps:
        value = WRAPS[wrap](value)
    return value


DEPTHS = st.lists(st.integers(0, len(WRAPS) - 1), min_size=1, max_size=4)


class Remade(Table):
    """A table whose entries are made again by a function each time a hook answers."""

    def __init__(self, initial, actions, next_state):
        super().__init__({}, {}, initial)
        self.make_initial, self.make_actions, self.make_next = initial, actions, next_state

    @mdp.hookimpl
    def mdp_initial_state(self, params):
        return self.make_initial()

    @mdp.hookimpl
    def mdp_actions(self, params, state):
        return self.make_actions() if state == "start" else []

    @mdp.hookimpl
    def mdp_outcomes(self, params, state, action):
        return [(1, self.make_next())]

    @mdp.hookimpl
    def mdp_terminal_value(self, params, state):
        return 1


def refused(model):
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(mdp.load_game(model))
    return str(error.value)


@given(DEPTHS)
@example([1])  # the attack's ("s", nan)
def test_a_next_state_holding_a_nan_is_refused_where_it_is_given(wraps):
    message = refused(Remade(lambda: "start", lambda: ["go"], lambda: hidden(wraps)))
    assert message.startswith("game table: mdp_outcomes gave the next state "), message
    assert "not equal to itself, or holds a part that is not (a NaN) (state 'start', action 'go')" in message


@given(DEPTHS)
def test_an_initial_state_holding_a_nan_is_refused(wraps):
    message = refused(Remade(lambda: hidden(wraps), lambda: ["go"], lambda: "end"))
    assert message.startswith("game table: mdp_initial_state returned "), message
    assert "not equal to itself, or holds a part that is not (a NaN); a state must be" in message


@given(DEPTHS)
def test_an_action_holding_a_nan_is_refused(wraps):
    message = refused(Remade(lambda: "start", lambda: [hidden(wraps)], lambda: "end"))
    assert message.startswith("game table: mdp_actions gave the action "), message
    assert "not equal to itself, or holds a part that is not (a NaN), (state 'start')" in message


@pytest.mark.slow
@given(st.lists(st.integers(0, len(WRAPS) - 1), max_size=4))
def test_the_same_containers_without_a_nan_are_states(wraps):
    """The check refuses what holds a NaN alone: the same shapes around a number solve."""
    value = 0.5
    for wrap in wraps:
        value = WRAPS[wrap](value)
    assert mdp.solve(mdp.compile(mdp.load_game(Remade(lambda: "start", lambda: ["go"],
                                                          lambda: value)))).value == 1
