"""Numbers a game gives as numpy scalars (np.int64 terminal values, Fractions of numpy
integers as probabilities) are solved exactly as the same Python numbers would be: exact
arithmetic in numpy's 64 bits would overflow without a word (a value of the wrong sign)."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

VALUES = st.integers(-(2**62), 2**62)


def _game(probabilities, values, number):
    """One chance action from the start to terminal states 0, 1, ..., each worth its value,
    every number given through ``number`` (a numpy type, or Python's own)."""

    @mdp.hookimpl
    def mdp_initial_state():
        return "start"

    @mdp.hookimpl
    def mdp_actions(state):
        return ["throw"] if state == "start" else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(Fraction(number(p.numerator), number(p.denominator)), k)
                for k, p in enumerate(probabilities)]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return number(values[state])

    return mdp.load_game(SimpleNamespace(GAME_NAME="numbers", **{
        f.__name__: f for f in (mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value)}))


@settings(max_examples=40, deadline=None)
@given(weights=st.lists(st.integers(1, 2**31), min_size=1, max_size=4), data=st.data())
def test_numpy_numbers_solve_exactly_as_python_numbers(weights, data):
    values = data.draw(st.lists(VALUES, min_size=len(weights), max_size=len(weights)))
    total = sum(weights)
    probabilities = [Fraction(w, total) for w in weights]
    # The value by hand: the expectation of the terminal values, in Python's fractions.
    expected = sum(p * v for p, v in zip(probabilities, values))
    for number in (int, np.int64):
        game = _game(probabilities, values, number)
        assert mdp.solve(mdp.compile(game), exact=True).value == expected, number.__name__


NEAR = st.one_of(  # numbers that one float may hold: big ints and fractions a hair apart
    st.integers(-3, 3).map(lambda k: 2**53 + k),
    st.integers(-3, 3).map(lambda k: -(2**63) + k),
    st.integers(0, 3).map(lambda k: Fraction(1, 3) + Fraction(k, 10**20)),
    st.integers(-2, 2),
)


@settings(max_examples=40, deadline=None)
@given(weights=st.lists(st.integers(1, 9), min_size=1, max_size=5), data=st.data())
def test_an_exact_distribution_keeps_apart_values_that_one_float_holds(weights, data):
    values = data.draw(st.lists(NEAR, min_size=len(weights), max_size=len(weights)))
    total = sum(weights)
    probabilities = [Fraction(w, total) for w in weights]
    # By hand: the chance of each distinct exact value, in Python's fractions.
    expected: dict[Fraction, Fraction] = {}
    for p, v in zip(probabilities, values):
        expected[Fraction(v)] = expected.get(Fraction(v), Fraction(0)) + p
    game = _game(probabilities, values, lambda number: number)
    frame = mdp.distribution(mdp.solve(mdp.compile(game), exact=True), game)
    got = {Fraction(row["value_exact"]) if "value_exact" in row else Fraction(int(row["value"])):
           Fraction(row["exact"]) for row in frame.iter_rows(named=True)}
    assert got == expected
    assert list(got) == sorted(got)  # the outcomes in the order of their exact values
