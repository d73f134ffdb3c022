"""Columns of terminal values followed under the best play of others (mdp.engine.followed,
the evaluation under a sweep's play of a match's chance of winning): each companion's value
is its value under the play best for the main column, as the general backward pass follows
that play (the choices of best_columns), and the compiled kernel (mdp.engine.fused_chosen)
gives the numpy road's bits: generated rounds of small cards (chance layers, layers mixing a
chance action with certain ones, shared pairs), ends no play may take, ties, blocks of any
width."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import Table
from test_rounds_properties import card_game

import mdp
from mdp.engine import columns, followed, fused
from mdp.engine.arithmetic import Floats
from mdp.engine.rounds.choose import following
from mdp.engine.sweep import backward


@st.composite
def trees(draw):
    """A game of up to three moves, each state choosing among up to four actions, each
    certain or of chance (two to three outcomes): states that choose among chance actions,
    beside the rounds of cards, whose throws come alone."""
    transitions, values, count = {}, {}, [0]

    def grown(depth):
        state = count[0] = count[0] + 1
        if depth == 0 or (depth < 3 and draw(st.booleans())):
            values[state] = 0
            return state
        actions = {}
        for a in range(draw(st.integers(1, 4))):
            if draw(st.booleans()):
                actions[a] = [(1, grown(depth - 1))]
            else:
                weights = draw(st.lists(st.integers(1, 5), min_size=2, max_size=3))
                actions[a] = [(Fraction(w, sum(weights)), grown(depth - 1)) for w in weights]
        transitions[state] = actions
        return state

    start = grown(3)
    return mdp.compile(mdp.load_game(Table(transitions, values, initial=start)))


rounds = st.one_of(trees(), st.tuples(st.integers(1, 5), st.integers(2, 8), st.integers(1, 3)).map(
    lambda c: mdp.compile(card_game([[0] * c[1]] * c[0], c[1], c[2])).round))


def columns_of(model, width, seed, companions):
    """A main column of whole worths (ties), some ends no play may take (-inf) in some or
    every column, and companions of fractions, 0 at those ends."""
    rng = np.random.default_rng(seed)
    main = rng.integers(-3, 4, (model.n_terminal, width)).astype(np.float64)
    main[rng.random(main.shape) < 0.3] = -np.inf
    main[rng.random(model.n_terminal) < 0.3] = -np.inf
    others = [np.where(np.isinf(main), 0.0, rng.random(main.shape) * rng.choice([1.0, -1.0, 1e6]))
              for _ in range(companions)]
    return main, others


@pytest.mark.slow
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=rounds, width=st.integers(1, 30), seed=st.integers(0, 2**32 - 1),
       companions=st.integers(1, 2), block=st.sampled_from([1, 3, 256]))
def test_a_companion_is_its_value_under_the_main_s_best_play(monkeypatch, model, width, seed,
                                                              companions, block):
    monkeypatch.setattr(followed, "BLOCK", block)
    monkeypatch.setattr(fused, "COMPILED", False)
    main, others = columns_of(model, width, seed, companions)
    found = followed.best_followed(model, main, others)
    # The general pass: the choices of the best play, then each companion followed under
    # them a column at a time (its sums as numpy's product makes them: equal to rounding).
    choice = np.zeros((model.n_states, width), dtype=np.int16)
    columns.best_columns(model, main, "max", choice=choice)
    for i, other in enumerate(others):
        for c in range(width):
            floats = Floats(model, np.ascontiguousarray(other[:, c:c + 1]))
            raw = floats.start()
            backward(model, floats, following(choice[:, c:c + 1]), raw)
            assert found[i, c] == pytest.approx(raw[model.initial, 0], rel=1e-12, abs=1e-9)


@pytest.mark.slow
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=rounds, width=st.integers(1, 30), seed=st.integers(0, 2**32 - 1),
       companions=st.integers(1, 2), block=st.sampled_from([1, 3, 7, 256]))
def test_the_compiled_kernel_gives_the_numpy_road_s_bits(monkeypatch, model, width, seed,
                                                         companions, block):
    pytest.importorskip("numba")
    monkeypatch.setattr(followed, "BLOCK", block)
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    main, others = columns_of(model, width, seed, companions)
    monkeypatch.setattr(fused, "COMPILED", False)
    plain = followed.best_followed(model, main, others)
    monkeypatch.setattr(fused, "COMPILED", True)
    assert fused.kernel(0, "chosen") is not None
    compiled = followed.best_followed(model, main, others)
    assert np.array_equal(plain.view(np.uint64), compiled.view(np.uint64))
