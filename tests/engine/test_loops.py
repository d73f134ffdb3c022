"""A state that comes back to itself with a chance close to 1 is solved in floats from the
chances of leaving it (mdp/engine/loops.py). Before, 1 - W/(W+1) formed in floats left the
value of a game worth exactly 1 at 0.99974 for W = 10**12, while the residual reported said
2e-16 (round 19, F30). Against the exact values, by hand: a state that stays with chance
W/(W+1) and else ends worth x is worth x; played by weights, sum(w * c) / sum(w * leave)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp


class Weighted(Table):
    """A Table whose strategy ``mixed`` plays each action by the given weights."""

    def __init__(self, transitions, values, weights):
        super().__init__(transitions, values, initial="A")
        self.weights = weights

    @mdp.hookimpl
    def mdp_strategies(self):
        return [mdp.Strategy.per_state("mixed", "by weights",
                                       lambda state, actions: [self.weights[a] for a in actions])]


def game(w, x, y):
    return {"A": {"go": [(Fraction(w, w + 1), "A"), (Fraction(1, w + 1), "E1")],
                  "walk": [(1, "E2")]}}, {"E1": x, "E2": y}


numbers = st.fractions(min_value=-5, max_value=5, max_denominator=7)


@settings(max_examples=30, deadline=None)
@given(power=st.integers(0, 15), x=numbers, y=numbers, sense=st.sampled_from(["max", "min"]))
def test_a_state_slow_to_leave_is_worth_what_it_leaves_to(power, x, y, sense):
    transitions, values = game(10**power, x, y)
    model = mdp.compile(mdp.load_game(Table(transitions, values, initial="A")))
    truth = max(x, y) if sense == "max" else min(x, y)  # go until it leaves to E1, or walk
    solution = mdp.solve(model, sense=sense)
    assert solution.value == pytest.approx(float(truth), rel=1e-14, abs=1e-14)
    assert mdp.solve(model, exact=True, sense=sense).value == truth


@settings(max_examples=30, deadline=None)
@given(power=st.integers(0, 15), x=numbers, y=numbers, weight=st.integers(1, 10**6))
def test_a_strategy_slow_to_leave_is_weighed_by_the_chances_of_leaving(power, x, y, weight):
    w = 10**power
    transitions, values = game(w, x, y)
    loaded = mdp.load_game(Weighted(transitions, values, {"go": weight, "walk": 1}))
    model = mdp.compile(loaded)
    # V = (g (1/(w+1)) x + y) / (g / (w+1) + 1), g the weight of go against walk's 1
    leave = Fraction(1, w + 1)
    truth = (weight * leave * x + y) / (weight * leave + 1)
    found = mdp.evaluate(model, "mixed", game=loaded).value
    assert found == pytest.approx(float(truth), rel=1e-12, abs=1e-13)
