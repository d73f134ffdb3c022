"""Advice lists the actions best first and tied ones in the game's order, in floats as in
exact numbers: floats within FLOAT_TIE of each other are tied (six sixths that add up to
0.9999999999999999 tie with 1), where before rounding noise ordered them and floats and
--exact listed the same actions in two orders."""

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from models import Table

import mdp

# An action: n equally likely outcomes, each worth a small whole number, often all alike
# (so that actions tie); a float of 1/6, 1/7 or 1/13 added up n times is not 1.
ACTION = st.sampled_from([1, 2, 3, 6, 7, 10, 13]).flatmap(lambda n: st.one_of(
    st.integers(0, 3).map(lambda worth: [worth] * n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(actions=st.lists(ACTION, min_size=1, max_size=5))
@example(actions=[[1] * 6, [1]])  # the float of six sixths is 0.9999999999999999
def test_floats_and_exact_list_the_actions_in_one_order(actions):
    _listed_alike(actions)


@pytest.mark.parametrize("actions", [[[1] * 6, [1]], [[2] * 7, [0], [2], [1] * 13]])
def test_six_sixths_tie_with_one_in_the_game_s_order(actions):
    # Before: in floats a0 (0.9999999999999999) came after a1 (1.0); exactly, before it.
    _listed_alike(actions)


def _listed_alike(actions):
    names = [f"a{i}" for i in range(len(actions))]
    transitions = {"start": {name: [(Fraction(1, len(worths)), f"{name}-{k}") for k in range(len(worths))]
                             for name, worths in zip(names, actions)}}
    values = {f"{name}-{k}": worth for name, worths in zip(names, actions) for k, worth in enumerate(worths)}
    game = mdp.load_game(Table(transitions, values))
    model = mdp.compile(game)
    exact = {name: Fraction(sum(worths), len(worths)) for name, worths in zip(names, actions)}
    expected = sorted(names, key=lambda name: (-exact[name], names.index(name)))  # by hand
    for solved in (mdp.solve(model), mdp.solve(model, exact=True)):
        advice = mdp.advise(solved, game, state="start")
        assert advice.actions["action"].to_list() == expected
