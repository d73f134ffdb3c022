"""The compiled kernels of the chance of every total of a game of rounds
(mdp.engine.fused_rounds) against the numpy code they stand for, bit for bit: the moves of
the totals (mdp.engine.rounds.vectors.Totals.moved) on vectors of any width, block and shift,
the order of the moves against a stable sort, the push along chosen certain actions
(mdp.engine.sweep.forward_chosen), the spread of chance actions over their outcomes
(mdp.engine.operations.Operations.push), and whole distributions of generated cards, which also
agree with each round state followed on its own in exact numbers."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.engine import fused, fused_rounds, operations
from mdp.engine.rounds.vectors import Totals
from mdp.engine.sweep import forward_chosen

pytest.importorskip("numba")

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def compiled(monkeypatch, on):
    """The compiled kernels loaded at once (``on``), or numpy's code."""
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    monkeypatch.setattr(fused, "COMPILED", on)


@st.composite
def moves(draw):
    """Round states with vectors of random widths (blocks of several widths) and chances,
    and random moves from them, several into one round state, some alike."""
    n = draw(st.integers(1, 12))
    width = np.array(draw(st.lists(st.integers(1, 40), min_size=n, max_size=n)), dtype=np.int64)
    low = np.array(draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)), dtype=np.int64)
    count = draw(st.integers(1, 200))  # follow moves none only where no round state plays on
    following = draw(st.integers(1, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    return width, low, count, following, seed


@pytest.mark.slow
@SETTINGS
@given(case=moves())
def test_the_compiled_moves_of_the_totals_are_numpys_bit_for_bit(monkeypatch, case):
    width, low, count, following, seed = case
    rng = np.random.default_rng(seed)
    s = rng.integers(0, len(width), count)
    d = rng.integers(0, following, count)
    points = rng.integers(0, 30, count)
    chance = rng.random(count) * rng.choice([1.0, 1e-30, 1e30], count)
    found = []
    for on in (False, True):
        compiled(monkeypatch, on)
        now = Totals(np.arange(len(width)), low, width)
        for row, (b, r) in enumerate(zip(now.block, now.row)):
            now.blocks[b][r, :width[row]] = np.random.default_rng(row).random(width[row])
        after = now.moved(s, d, points, chance, following)
        found.append((after.index, after.low, after.width,
                      [(after.blocks[b][r, :w]).view(np.uint64).tolist()
                       for b, r, w in zip(after.block, after.row, after.width)]))
    assert all(np.array_equal(a, b) for a, b in zip(found[0][:3], found[1][:3]))
    assert found[0][3] == found[1][3]


@SETTINGS
@given(d=st.lists(st.integers(0, 3), max_size=300), keys=st.integers(1, 4), seed=st.integers(0, 99))
def test_the_order_of_the_moves_is_a_stable_sort_by_round_state_then_key(monkeypatch, d, keys, seed):
    # Few round states reached and many moves: runs of more than 64 moves are merged.
    compiled(monkeypatch, True)
    found = fused.kernel(0, "order")
    d = np.array(d, dtype=np.int64)
    key = np.random.default_rng(seed).integers(0, keys, len(d))
    order, start = fused_rounds.order_of_moves(found, d, key, 4)
    assert order.tolist() == np.lexsort((key, d)).tolist()  # lexsort is stable
    assert start.tolist() == [0, *np.cumsum(np.bincount(d, minlength=4)).tolist()]


@SETTINGS
@given(n=st.integers(1, 3), faces=st.integers(2, 3), throws=st.integers(1, 3),
       width=st.integers(1, 9), seed=st.integers(0, 2**32 - 1))
def test_the_compiled_push_along_chosen_actions_is_numpys_bit_for_bit(monkeypatch, n, faces, throws,
                                                                      width, seed):
    # Throwing again is a chance action among the boxes' certain ones: a piece of states
    # where a column chooses it is pushed by numpy, the others compiled.
    rng = np.random.default_rng(seed)
    game = card_game([[int(p) for p in rng.integers(0, 9, faces)] for _ in range(n)], faces, throws)
    inner = mdp.compile(game).round
    counts = np.maximum(np.diff(inner.action_start), 1)  # terminal states: none, never chosen
    choice = (rng.integers(0, 1 << 15, (inner.n_states, width)) % counts[:, None]).astype(np.int16)
    table = np.array([float(p) for p in inner.probabilities])
    start = rng.random(width)
    found = []
    for on in (False, True):
        compiled(monkeypatch, on)
        reach = np.zeros((inner.n_states, width))
        reach[inner.initial] = start
        found.append(forward_chosen(inner, choice, reach, table).view(np.uint64))
    assert np.array_equal(found[0], found[1])


@SETTINGS
@given(n=st.integers(1, 3), faces=st.integers(2, 4), throws=st.integers(1, 3),
       width=st.integers(1, 9), seed=st.integers(0, 2**32 - 1), odd=st.booleans())
def test_the_compiled_spread_over_outcomes_is_numpys_add_at_bit_for_bit(monkeypatch, n, faces,
                                                                       throws, width, seed, odd):
    # Every layer of a card's round with chance actions, masses of any sign and size (odd:
    # NaN and infinities too), pushed onto rows that hold chances already; no layer made a
    # dense matrix (a product, for small layers of finite masses).
    monkeypatch.setattr(operations, "DENSE_MOST", -1)
    rng = np.random.default_rng(seed)
    game = card_game([[int(p) for p in rng.integers(0, 9, faces)] for _ in range(n)], faces, throws)
    inner = mdp.compile(game).round
    table = np.array([float(p) for p in inner.probabilities])
    layers = [layer for layer in range(inner.n_layers)
              if (inner.action_next[slice(*inner.layer_actions(layer))] < 0).any()]
    assert layers
    for layer in layers:
        a0, a1 = inner.layer_actions(layer)
        mass = rng.random((a1 - a0, width)) * rng.choice([1e-300, 1.0, -3.0, 1e300], (a1 - a0, 1))
        if odd:
            mass[rng.random(mass.shape) < 0.2] = rng.choice([np.nan, np.inf, -np.inf])
        found = []
        for on in (False, True):
            compiled(monkeypatch, on)
            reach = np.random.default_rng(seed).random((inner.n_states, width))
            inner.push(layer, mass, reach, table)
            found.append(reach.view(np.uint64))
        assert np.array_equal(found[0], found[1])


@pytest.mark.slow
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 3), faces=st.integers(2, 3), throws=st.integers(1, 2), seed=st.integers(0, 99))
def test_a_cards_distribution_compiled_is_numpys_and_each_round_state_followed_exactly(
        monkeypatch, n, faces, throws, seed):
    rng = np.random.default_rng(seed)
    game = card_game([[int(p) for p in rng.integers(0, 7, faces)] for _ in range(n)], faces, throws)
    model = mdp.compile(game)
    floats = mdp.solve(model)
    frames = []
    for on in (False, True):
        compiled(monkeypatch, on)
        frames.append(mdp.distribution(floats))
    assert frames[0]["points"].to_list() == frames[1]["points"].to_list()
    assert frames[0]["probability"].to_numpy().view(np.uint64).tolist() == \
        frames[1]["probability"].to_numpy().view(np.uint64).tolist()
    exact = mdp.distribution(mdp.solve(model, exact=True))  # each round state on its own
    assert exact["points"].to_list() == frames[1]["points"].to_list()
    for chance, fraction in zip(frames[1]["probability"], exact["exact"]):
        assert abs(chance - float(Fraction(fraction))) <= 1e-12
