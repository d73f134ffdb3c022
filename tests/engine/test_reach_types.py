"""The chance of at least a total is one type wherever it is asked: a Fraction in exact
mode, a float in floats, past its bounds too (round ten: 0 and 1 came back as ints outside
them, and from a round state that ends the game, beside Fractions inside)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reaches():
    model = mdp.compile(mdp.load_game(str(ROOT / "docs" / "examples" / "two_boxes.py")))
    return model, {True: mdp.at_least(model, exact=True), False: mdp.at_least(model)}


@settings(max_examples=60, deadline=None)
@given(exact=st.booleans(), total=st.integers(-10**20, 10**20) | st.integers(-30, 60), data=st.data())
def test_a_chance_is_a_fraction_in_exact_mode_and_a_float_in_floats(reaches, exact, total, data):
    model, reach = reaches
    key = data.draw(st.sampled_from([None, *np.concatenate(model.keys).tolist()]), label="round state")
    kind = Fraction if exact else float
    chance = reach[exact].chance(total, key)
    assert type(chance) is kind and 0 <= chance <= 1
    low, high = reach[exact].bounds(key)
    if total <= low:  # every play earns it
        assert chance == 1
    if total > high:  # none can
        assert chance == 0
    played = reach[exact].at(key, total)
    assert type(played.value) is kind
    assert played.value == chance if exact else played.value == pytest.approx(chance, abs=1e-12)
