"""The ends' worths of the sweep of every total read by the compiled reads
(mdp.engine.fused.reads: each column's key, the check of those alike and each block's
columns straight from the next round's table) against numpy's path (the worths laid out,
then mdp.engine.columns.best_distinct), bit for bit: generated tables, ends and columns,
with -0.0, NaN and ends not allowed, keys that all collide; and whole sweeps of generated
cards and a Yatzy card, the compiled reads loaded from the first column."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.engine import columns, distinct, fused
from mdp.engine.rounds.payoff import AT_LEAST
from mdp.engine.rounds.worth import Ends, Laid

pytest.importorskip("numba")

rounds = st.tuples(st.integers(1, 3), st.integers(2, 4), st.integers(1, 3)).map(
    lambda c: mdp.compile(card_game([[0] * c[1]] * c[0], c[1], c[2])).round)


@pytest.fixture
def loaded(monkeypatch):
    """The compiled kernel and reads loaded whatever the work; the reads as asked."""
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    fused.kernel(0)
    found = fused.reads()
    assert found is not None
    return found


def _ends(rng, model, later, rows):
    """Random ends of ``rows`` round states toward ``later`` round states' vectors, drawn
    from a few values (columns alike), with 0.0 and -0.0 (equal, not the same bits) and NaN."""
    pool = np.array([0.0, -0.0, 0.25, 0.5, 1.0, np.nan, 1e-300])
    widths = rng.integers(0, 5, later)
    offsets = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
    chances = pool[rng.integers(0, len(pool), int(offsets[-1]))]
    below = rng.integers(-3, 3, later).astype(np.int64)
    laid = Laid(below, offsets, chances, AT_LEAST)
    allowed = rng.random((rows, model.n_terminal)) < 0.7
    after = np.where(allowed, rng.integers(0, later, allowed.shape), 0)
    points = np.where(allowed, rng.integers(0, 4, allowed.shape), 0).astype(np.int64)
    return Ends(laid, allowed, after, points), allowed


@pytest.mark.slow
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=rounds, seed=st.integers(0, 2**32 - 1), later=st.integers(1, 6),
       rows=st.integers(1, 5), width=st.integers(1, 60), block=st.sampled_from([1, 3, 256]),
       collide=st.booleans())
def test_the_compiled_reads_give_numpys_bits(monkeypatch, loaded, model, seed, later, rows,
                                             width, block, collide):
    # collide: every key the same, so the check of those alike refuses and the columns are
    # sorted by their bits, as numpy's path sorts them.
    rng = np.random.default_rng(seed)
    ends, allowed = _ends(rng, model, later, rows)
    s = np.sort(rng.integers(0, rows, width))  # each state's columns side by side
    need = rng.integers(-4, 10, width)
    monkeypatch.setattr(columns, "BLOCK", block)
    if collide:
        monkeypatch.setattr(distinct, "_MIXING", np.zeros_like(distinct._MIXING))
    with monkeypatch.context() as plain:
        plain.setattr(fused, "reads", lambda: None)
        expected = ends.best(model, s, need)
    got = ends.best(model, s, need)
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))
    # And numpy's path itself against the round solved column by column.
    worth = ends.worth(s, need)
    assert np.array_equal(worth[~allowed[s]], np.full(int((~allowed[s]).sum()), -np.inf))
    alone = columns.best_columns(model, np.ascontiguousarray(worth.T))
    assert np.array_equal(expected.view(np.uint64), alone.view(np.uint64))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=rounds, seed=st.integers(0, 2**32 - 1), later=st.integers(1, 6),
       rows=st.integers(1, 5), width=st.integers(1, 40), change=st.integers(0, 2**31))
@pytest.mark.slow
def test_each_compiled_read_is_numpys_gather(loaded, model, seed, later, rows, width, change):
    # Against the worths laid out by numpy: each key is the bits times the weights, each
    # column picked is its row, and the check of those alike says whether every bit is the
    # same as the row named, named truly (each column's first alike) or with one changed.
    rng = np.random.default_rng(seed)
    ends, _ = _ends(rng, model, later, rows)
    s = np.sort(rng.integers(0, rows, width))
    need = rng.integers(-4, 10, width)
    bits = ends.worth(s, need).view(np.uint64)
    places = (need, s, ends.shift, ends.at, ends.end, ends.live, ends.count)
    key = np.empty(width, dtype=np.uint64)
    loaded.keys(ends.table.view(np.uint64), *places, ends.weights, ends.dead, key)
    assert np.array_equal(key, bits @ distinct.mixing(bits.shape[1]))
    picked = rng.permutation(width)[:rng.integers(0, width + 1)]
    out = np.full((bits.shape[1], len(picked)), 7.0)  # a row per end, a column per column picked
    loaded.fill(ends.table, *places, picked, out)
    assert np.array_equal(out.T.view(np.uint64), bits[picked])
    first, inverse = distinct.distinct_rows(bits.view(np.float64))
    like = first[inverse]
    like[change % width] = change // width % width
    alike = bool(loaded.alike(ends.table.view(np.uint64), *places, ends.group, like))
    assert alike == np.array_equal(bits, bits[like])


def _sweeps(monkeypatch, model):
    """Every round state's chances of every total, with the compiled reads and without."""
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    got = mdp.at_least(model)
    with monkeypatch.context() as plain:
        plain.setattr(fused, "reads", lambda: None)
        expected = mdp.at_least(model)
    return got, expected


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(points=st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=1,
                       max_size=3), throws=st.integers(1, 2))
@pytest.mark.slow
def test_a_sweep_with_the_compiled_reads_gives_numpys_bits(monkeypatch, loaded, points, throws):
    got, expected = _sweeps(monkeypatch, mdp.compile(card_game(points, 3, throws)))
    for mine, theirs in zip(got.chances, expected.chances, strict=True):
        assert np.array_equal(mine.view(np.uint64), theirs.view(np.uint64))


@pytest.mark.slow
def test_a_yatzy_card_with_the_compiled_reads_gives_numpys_bits(monkeypatch, loaded):
    game = mdp.load_game("yahtzee", variant="yatzy", boxes="ones,twos,threes,chance,yatzy")
    got, expected = _sweeps(monkeypatch, mdp.compile(game))
    for mine, theirs in zip(got.chances, expected.chances, strict=True):
        assert np.array_equal(mine.view(np.uint64), theirs.view(np.uint64))


@pytest.mark.slow
def test_no_compiled_reads_without_the_compiled_kernel(monkeypatch, loaded):
    # Where the kernel is not loaded (too little work yet, or numba cannot make it), numpy's
    # path reads the ends; the reads are made again for a kernel loaded anew.
    monkeypatch.setattr(fused, "_KERNEL", [])
    monkeypatch.setattr(fused, "WORTH_LOADING", 10**12)
    assert fused.kernel(1) is None and fused.reads() is None
    monkeypatch.setattr(fused, "_KERNEL", [{"run": None}])  # numba could not make it
    assert fused.reads() is None
    monkeypatch.setattr(fused, "_KERNEL", [{"run": fused._made(fused._run, fused._tried_run)}])
    again = fused.reads()
    assert again is not None and again.keys is not loaded.keys
