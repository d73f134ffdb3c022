"""A hook may raise anything: an exception, SystemExit, GeneratorExit, a class of its own
made from BaseException. Each is the game's fault, one ModelError naming the game and the
hook, at every hook of a game of per-state hooks, of batch hooks and of rounds (a
KeyboardInterrupt that no one pressed is covered by tests/game/test_properties.py, through
the command line, which tells it from Ctrl-C). States whose hash or == raise are refused
the same way, naming the hook that gave them."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Ladder, coin, two_boxes

import mdp


class Own(BaseException):
    """A class of the game's own, made from BaseException."""


class OwnExit(SystemExit):
    pass


RAISED = st.sampled_from([GeneratorExit, Own, OwnExit, SystemExit, StopIteration, RuntimeError,
                          ValueError, TypeError, RecursionError, ArithmeticError, LookupError])


def raising(kind):
    @mdp.hookimpl
    def hook(*_):
        raise kind("from the hook")
    return hook


def per_state(hook, kind):
    game = coin()
    setattr(game, hook, raising(kind))
    return mdp.load_game(game)


def batch(hook, kind):
    game = Ladder(4)
    setattr(game, hook, raising(kind))
    return mdp.load_game(game)


def rounds(hook, kind):
    if hook == "mdp_round_rule's function":
        @mdp.hookimpl
        def mdp_round_rule():
            return raising(kind)
        return two_boxes(mdp_round_rule=mdp_round_rule)
    return two_boxes(**{hook: raising(kind)})


GAMES = [(per_state, "table", hook) for hook in
         ("mdp_initial_state", "mdp_actions", "mdp_outcomes", "mdp_terminal_value")] + \
    [(batch, "ladder", hook) for hook in ("mdp_initial_state", "mdp_stage", "mdp_expand")] + \
    [(rounds, "two-boxes", hook) for hook in
     ("mdp_actions", "mdp_outcomes", "mdp_round_start", "mdp_round_rule",
      "mdp_round_rule's function")]


@settings(max_examples=40, deadline=None)
@given(where=st.sampled_from(GAMES), kind=RAISED)
def test_a_hook_raising_anything_is_one_error_naming_game_and_hook(where, kind):
    make, name, hook = where
    with pytest.raises(mdp.ModelError) as raised:
        mdp.solve(mdp.compile(make(hook, kind)))
    message = str(raised.value)
    assert message.startswith(f"game {name}: "), message
    assert f"{hook} raised {kind.__name__}: from the hook" in message, message
    assert "\n" not in message


class State:
    """A state whose hash or == raises ``kind`` (``where``: "hash", "==", or "== of others",
    an == that answers itself but raises against another state of the same hash)."""

    def __init__(self, name, where, kind):
        self.name, self.where, self.kind = name, where, kind

    def __hash__(self):
        if self.where == "hash" and self.name == "won":
            raise self.kind("no hash")
        return 0  # every state collides: dicts compare them with ==

    def __eq__(self, other):
        if self is other and self.where != "==":
            return True
        if self.where != "hash":
            raise self.kind("no ==")
        return isinstance(other, State) and other.name == self.name

    def __repr__(self):
        return f"State({self.name!r})"


@settings(max_examples=30, deadline=None)
@given(where=st.sampled_from(["hash", "==", "== of others"]), kind=RAISED)
def test_a_state_whose_hash_or_eq_raises_is_named(where, kind):
    def of(name):
        return State(name, where, kind)

    class Coin:
        GAME_NAME = "coin"

        @mdp.hookimpl
        def mdp_initial_state(self):
            return "start"

        @mdp.hookimpl
        def mdp_actions(self, state):
            return ["flip"] if isinstance(state, str) else []

        @mdp.hookimpl
        def mdp_outcomes(self, state, action):
            return [(Fraction(1, 2), of("won")), (Fraction(1, 2), of("lost"))]

        @mdp.hookimpl
        def mdp_terminal_value(self, state):
            return 1

    with pytest.raises(mdp.ModelError) as raised:
        mdp.compile(mdp.load_game(Coin()))
    message = str(raised.value)
    step = "hash" if where == "hash" else "==" if where == "==" else "hash or =="
    assert message.startswith("game coin: mdp_outcomes gave the next state State("), message
    assert f"whose {step} raised {kind.__name__}: no " in message, message
    assert "(state 'start'" in message and "\n" not in message
