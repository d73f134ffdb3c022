"""States that Python takes as equal but that are not the same value (1 and True, 1 and 1.0,
0.0 and -0.0, 1 and Fraction(1), inside tuples, frozensets, named tuples, attrs classes) are
never merged in silence: the game is refused, naming both states and the action that led to
the second, or, where they are the same value after all, solved as the one state it is.

The expected value is derived in the test: one coin toss to two states, each terminal and
worth a number told by its repr alone, so two distinct states are worth different numbers
and a merge would show."""

from __future__ import annotations

import collections
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import keyed_states

import mdp
from mdp.engine.same import same
from mdp.program.cli import main

Pair = collections.namedtuple("Pair", "left right")


@attrs.frozen
class Box:
    inside: object


# Values of one equality class each, of different types or reprs.
ONES = (1, True, 1.0, Fraction(1), 1 + 0j)
ZEROS = (0, False, 0.0, -0.0, Fraction(0), 0j)
WRAPS = (
    lambda v: v,
    lambda v: (v,),
    lambda v: ("x", v),
    lambda v: frozenset({v, "y"}),
    lambda v: Pair(v, 2),
    lambda v: Box(v),
    lambda v: ((v, 3), frozenset({(v,)})),
)


class Toss:
    """From "start", one action: heads or tails, 1/2 each, to ``heads`` or ``tails``, both
    terminal, each worth the length of its repr (heads) or ten times it (tails)."""

    GAME_NAME = "toss"

    def __init__(self, heads, tails):
        self.heads, self.tails = heads, tails

    @mdp.hookimpl
    def mdp_initial_state(self):
        return "start"

    @mdp.hookimpl
    def mdp_actions(self, state):
        return ["toss"] if state == "start" else []

    @mdp.hookimpl
    def mdp_outcomes(self, state, action):
        half = Fraction(1, 2)
        return [(half, self.heads), (half, self.tails)]

    @mdp.hookimpl
    def mdp_terminal_value(self, state):
        return len(repr(state)) * (1 if repr(state) == repr(self.heads) else 10)


def expected(heads, tails):
    """Two distinct states: half of each's worth; one state (the same value): its worth."""
    worth = len(repr(heads))
    return Fraction(worth) if repr(heads) == repr(tails) else Fraction(worth + 10 * len(repr(tails)), 2)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.sampled_from((ONES, ZEROS)).flatmap(
           lambda group: st.tuples(st.sampled_from(group), st.sampled_from(group))),
       st.sampled_from(WRAPS))
def test_equal_states_are_refused_or_told_apart(values, wrap):
    heads, tails = wrap(values[0]), wrap(values[1])
    assert heads == tails  # the case: Python takes them as equal
    game = mdp.load_game(Toss(heads, tails))
    if same(heads, tails):
        assert mdp.solve(mdp.compile(game), exact=True).value == expected(heads, tails)
        return
    with pytest.raises(mdp.ModelError) as refused:
        mdp.compile(game)
    message = str(refused.value)
    assert "game toss:" in message and "not the same value" in message
    assert repr(tails) in message and repr(heads) in message and "'toss'" in message


@given(st.sampled_from((ONES, ZEROS)).flatmap(
           lambda group: st.tuples(st.sampled_from(group), st.sampled_from(group))),
       st.sampled_from(WRAPS))
def test_same_is_told_by_type_and_repr(values, wrap):
    """Every value here has a repr that names its type and value exactly, so the same value
    is the same repr (a frozenset's order aside, which is why it is left out here)."""
    a, b = wrap(values[0]), wrap(values[1])
    if not isinstance(a, frozenset) and not any(isinstance(p, frozenset) for p in
                                                (a if isinstance(a, tuple) else ())):
        assert same(a, b) == (repr(a) == repr(b))


def test_a_frozenset_built_in_another_order_is_the_same_state():
    """Equal frozensets of the same values are one state, whatever order they were built in
    (their repr's order may differ): solved as one, worth its own value."""
    many = [f"s{i}" for i in range(40)]
    heads, tails = frozenset(many), frozenset(reversed(many))
    assert same(heads, tails)
    game = mdp.load_game(Toss(heads, tails))
    assert mdp.solve(mdp.compile(game), exact=True).value == len(repr(heads))


def test_the_command_line_refuses_in_one_line(tmp_path, capsys):
    path = tmp_path / "merged.py"
    path.write_text(
        "import mdp\nGAME_NAME = 'merged'\n"
        "@mdp.hookimpl\ndef mdp_initial_state():\n    return 'start'\n"
        "@mdp.hookimpl\ndef mdp_actions(state):\n    return ['go'] if state == 'start' else []\n"
        "@mdp.hookimpl\ndef mdp_outcomes(state, action):\n    return [(0.5, (1,)), (0.5, (True,))]\n"
        "@mdp.hookimpl\ndef mdp_terminal_value(state):\n    return 10 if state[0] is True else 0\n")
    assert main(["solve", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "(True,)" in err and "(1,)" in err and "'go'" in err


class Loose:
    """A class whose ``==`` takes every two of its values as one (one hash for all), while its
    repr tells them apart: a hostile or sloppy ``__eq__`` (one that compares some fields only)."""

    def __init__(self, label):
        self.label = label

    def __eq__(self, other):
        return isinstance(other, Loose)

    def __hash__(self):
        return 1

    def __repr__(self):
        return f"Loose({self.label!r})"


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.sampled_from("AB"), st.sampled_from("AB")), st.sampled_from(WRAPS))
def test_an_eq_that_takes_values_shown_apart_as_one_is_refused(labels, wrap):
    """Two values that ``==`` takes as one but whose own reprs differ are refused, naming both;
    of the same repr, they are one state (its worth, as :func:`expected` says)."""
    heads, tails = wrap(Loose(labels[0])), wrap(Loose(labels[1]))
    assert heads == tails
    game = mdp.load_game(Toss(heads, tails))
    if labels[0] == labels[1]:
        assert mdp.solve(mdp.compile(game), exact=True).value == expected(heads, tails)
        return
    with pytest.raises(mdp.ModelError) as refused:
        mdp.compile(game)
    assert repr(heads) in str(refused.value) and repr(tails) in str(refused.value)


Mutable = keyed_states(name="Mutable")  # hashed and compared by its field k, which a game can change


@pytest.mark.parametrize("changed", [5, 7])
def test_a_state_changed_after_it_was_given_is_refused_in_one_line(changed):
    """A game that changes a state object it gave (or was handed), its hash with it: the state
    is no longer found where it was kept; refused in one line, where it was a KeyError
    traceback (round 18, P26)."""

    class Mutating:
        GAME_NAME = "mutating"

        @mdp.hookimpl
        def mdp_initial_state(self):
            return Mutable(0)

        @mdp.hookimpl
        def mdp_actions(self, state):
            return ["go"] if state.k in (0, 1) else []

        @mdp.hookimpl
        def mdp_outcomes(self, state, action):
            if state.k == 1:
                state.k = changed  # the object handed, already kept, changed
                return [(1, Mutable(2))]
            return [(1, Mutable(1))]

        @mdp.hookimpl
        def mdp_terminal_value(self, state):
            return 1

    # (Round 26: said as it happens, naming the hook that changed it, and its action.)
    with pytest.raises(mdp.ModelError, match=rf"^game mutating: mdp_outcomes changed the state it "
                       rf"was handed, now Mutable\({changed}\), action 'go'"):
        mdp.compile(mdp.load_game(Mutating()))
