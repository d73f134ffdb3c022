"""The kernel of many value columns under optimal play (mdp.engine.columns.best_columns)
against the general backward pass of the engine with best play, column by column: generated
rounds of small cards (chance layers, and layers mixing a chance action with certain ones),
terminal values with ends that no play may take (-inf maximizing, +inf minimizing), in
blocks of any width."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.engine import columns, distinct
from mdp.engine.arithmetic import Floats
from mdp.engine.rounds.choose import choosing
from mdp.engine.sweep import backward, best

rounds = st.tuples(st.integers(1, 3), st.integers(2, 4), st.integers(1, 3)).map(
    lambda c: mdp.compile(card_game([[0] * c[1]] * c[0], c[1], c[2])).round)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=rounds, width=st.integers(1, 9), sense=st.sampled_from(["max", "min"]),
       seed=st.integers(0, 2**32 - 1), block=st.sampled_from([1, 3, 256]))
def test_the_kernel_gives_what_the_general_pass_gives(model, width, sense, seed, block):
    rng = np.random.default_rng(seed)
    terminal = rng.integers(-3, 4, (model.n_terminal, width)).astype(np.float64)
    worst = -np.inf if sense == "max" else np.inf
    terminal[rng.random(terminal.shape) < 0.4] = worst
    terminal[rng.random(model.n_terminal) < 0.3] = worst  # an end no column may take
    saved, columns.BLOCK = columns.BLOCK, block
    try:
        got = columns.best_columns(model, terminal, sense)
    finally:
        columns.BLOCK = saved
    for c in range(width):
        floats = Floats(model, terminal[:, c].copy())
        expected = backward(model, floats, best(sense), floats.start())[model.initial]
        assert got[c] == expected or got[c] == pytest.approx(expected, rel=1e-12, abs=1e-12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=rounds, width=st.integers(1, 9), sense=st.sampled_from(["max", "min"]),
       seed=st.integers(0, 2**32 - 1), block=st.sampled_from([1, 3, 256]))
def test_the_kernel_chooses_as_the_general_pass_chooses(model, width, sense, seed, block):
    chooses_as_the_general_pass(model, width, sense, seed, block)


@pytest.mark.parametrize("seed", range(4))
def test_a_narrower_last_block_chooses_for_itself(seed):
    # Blocks of 3 over 7 columns: the last, of one column, is laid out in the same buffer as
    # the two before it; the choices of states of one action are 0 there too, none left over.
    chooses_as_the_general_pass(mdp.compile(card_game([[0] * 3] * 2, 3, 2)).round, 7, "max",
                                seed, 3)


def chooses_as_the_general_pass(model, width, sense, seed, block):
    # Small whole values: many actions tie, and the first of those that tie is the choice;
    # a state whose every action is an end not allowed takes its first.
    rng = np.random.default_rng(seed)
    terminal = rng.integers(-2, 3, (model.n_terminal, width)).astype(np.float64)
    worst = -np.inf if sense == "max" else np.inf
    terminal[rng.random(terminal.shape) < 0.4] = worst
    terminal[rng.random(model.n_terminal) < 0.3] = worst
    got = np.zeros((model.n_states, width), dtype=np.int16)
    saved, columns.BLOCK = columns.BLOCK, block
    try:
        values = columns.best_columns(model, terminal, sense, choice=got)
    finally:
        columns.BLOCK = saved
    expected = np.zeros_like(got)
    floats = Floats(model, terminal.copy())
    raw = backward(model, floats, choosing(sense, expected, floats=True), floats.start())
    assert (got == expected).all()
    assert np.array_equal(values, raw[model.initial], equal_nan=True) or \
        values == pytest.approx(raw[model.initial], rel=1e-12, abs=1e-12)


alike_rows = st.tuples(st.integers(1, 40), st.integers(1, 6), st.integers(1, 5),
                       st.integers(0, 2**32 - 1))


@settings(max_examples=40, deadline=None)
@given(alike_rows, st.booleans())
def test_the_distinct_rows_are_found_bit_for_bit(shape, collide):
    # Rows drawn from a few, with -inf, 0.0 and -0.0 (equal, but not the same bits); with
    # ``collide``, every key is the same, and the rows are sorted by their bits instead.
    n, width, kinds, seed = shape
    rng = np.random.default_rng(seed)
    pool = rng.choice(np.array([0.0, -0.0, 0.5, 1.0, -np.inf, 1e-300]), (kinds, width))
    rows = pool[rng.integers(0, kinds, n)]
    saved = distinct._MIXING
    if collide:
        distinct._MIXING = np.zeros_like(saved)
    try:
        first, inverse = distinct.distinct_rows(rows)
    finally:
        distinct._MIXING = saved
    bits = rows.view(np.uint64)
    assert np.array_equal(bits[first[inverse]], bits)  # each row like its first
    assert len({row.tobytes() for row in bits}) == len(first)  # and no two firsts alike
    assert (first[inverse] <= np.arange(n)).all()  # the first of each


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=rounds, width=st.integers(1, 30), seed=st.integers(0, 2**32 - 1),
       block=st.sampled_from([1, 3, 256]))
def test_columns_alike_are_worked_once_to_the_same_bits(model, width, seed, block):
    # Blocks of 1 and 3: the distinct columns are picked a block at a time, over many.
    rng = np.random.default_rng(seed)
    few = rng.random((3, model.n_terminal))
    few[rng.random(few.shape) < 0.3] = -np.inf
    rows = few[rng.integers(0, 3, width)]
    saved, columns.BLOCK = columns.BLOCK, block
    try:
        got = columns.best_distinct(model, rows)
    finally:
        columns.BLOCK = saved
    assert np.array_equal(got, columns.best_columns(model, np.ascontiguousarray(rows.T)))
