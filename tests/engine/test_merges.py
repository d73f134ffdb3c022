"""The plan that takes the best of many overlapping sets of rows, the pairs several sets share
once (mdp.engine.merges.shared_pairs), against the best of each set taken on its own: over
generated sets and values, exactly (the best of two values is one of them); and the kernel of
many columns (mdp.engine.columns.best_columns), which takes it where a layer's successors
overlap, against the general backward pass on a round of dice whose keeps overlap so, with
ends that no column may take or without."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.engine import columns, merges
from mdp.engine.arithmetic import Floats
from mdp.engine.merges import shared_pairs
from mdp.engine.sweep import backward, best

set_systems = st.tuples(st.integers(1, 30), st.integers(1, 12), st.integers(1, 8),
                        st.integers(0, 2**32 - 1))


def best_by_plan(plan, values, ufunc):
    """Each set's best by ``plan``, its new rows appended to ``values`` level by level."""
    rows = np.concatenate([values, np.empty((plan.made, values.shape[1]))])
    at = plan.first
    for a, b in plan.levels:
        assert (a < at).all() and (b < at).all()  # made of rows made before
        rows[at:at + len(a)] = ufunc(rows[a], rows[b])
        at += len(a)
    top = rows[plan.rank_rows[0]]
    for more in plan.rank_rows[1:]:
        top[:len(more)] = ufunc(top[:len(more)], rows[more])
    return top[plan.inverse]


@settings(max_examples=60, deadline=None)
@given(set_systems, st.sampled_from(["max", "min"]))
def test_the_plan_gives_each_sets_best(system, sense):
    n_sets, n_rows, most, seed = system
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, most + 1, n_sets)
    starts = np.concatenate([[0], np.cumsum(counts)])
    rows = rng.integers(0, n_rows, int(counts.sum()))  # a row twice in a set, at times
    values = rng.choice(np.array([0.0, 0.25, 1.0, 3.0, -np.inf, np.inf]), (n_rows, 3))
    plan = shared_pairs(starts, rows, n_rows)
    ufunc = np.maximum if sense == "max" else np.minimum
    expected = np.array([ufunc.reduce(values[rows[a:b]]) for a, b in zip(starts[:-1], starts[1:])])
    if plan is None:  # no pair in two sets
        pairs = [{(x, y) for x in rows[a:b] for y in rows[a:b] if x < y}
                 for a, b in zip(starts[:-1], starts[1:])]
        assert all(not (p & q) for i, p in enumerate(pairs) for q in pairs[i + 1:])
        return
    assert np.array_equal(best_by_plan(plan, values, ufunc), expected)
    # Fewer steps than the sets' own: each new row spares a step in two sets at least.
    assert plan.steps <= int(counts.sum()) - n_sets - plan.made


def test_overlapping_sets_share_their_pairs():
    # Three sets {0, 1, 2}, {0, 1, 3}, {0, 1, 2, 3}: the pair (0, 1) first, then (2, new).
    plan = shared_pairs(np.array([0, 3, 6, 10]), np.array([0, 1, 2, 0, 1, 3, 0, 1, 2, 3]), 4)
    assert [(a.tolist(), b.tolist()) for a, b in plan.levels] == [([0], [1]), ([2], [4])]
    assert plan.made == 2 and plan.steps == 4  # then {5}, {3, 4}, {3, 5}: a step each
    values = np.array([[1.0], [5.0], [2.0], [7.0]])
    assert best_by_plan(plan, values, np.maximum).ravel().tolist() == [5.0, 7.0, 7.0]


def test_sets_of_too_many_pairs_have_no_plan(monkeypatch):
    # Two sets of four rows alike: 12 pairs, all shared; past the most counted, no plan.
    starts, rows = np.array([0, 4, 8]), np.array([0, 1, 2, 3] * 2)
    assert shared_pairs(starts, rows, 4).made == 3
    monkeypatch.setattr(merges, "MOST_PAIRS", 11)
    assert shared_pairs(starts, rows, 4) is None


@pytest.fixture(scope="module")
def dice_round():
    return mdp.compile(mdp.load_game("yahtzee", variant="yatzy", boxes="chance,yatzy,ones")).round


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["max", "min"]), st.sampled_from([0.0, 0.3, 0.85]))
def test_the_kernel_with_shared_pairs_gives_what_the_general_pass_gives(dice_round, seed, sense,
                                                                       dead):
    # Ends no column may take: none (every layer by its plan), some (the final throw's
    # plan over all its ends, those too) or most (the final throw by the ends left alone).
    model = dice_round
    plans = [layer.merges for layer in columns.plan(model) if layer.merges is not None]
    assert len(plans) == 3 and plans[0].steps < 600  # the final throw, both keeping layers
    rng = np.random.default_rng(seed)
    terminal = rng.integers(0, 40, (model.n_terminal, 3)).astype(np.float64) / 8
    gone = rng.random(model.n_terminal) < dead
    final = columns.plan(model)[0]
    gone[final.certain[final.starts[:-1]]] = False  # each final throw keeps an end: finite
    terminal[gone] = -np.inf if sense == "max" else np.inf
    got = columns.best_columns(model, terminal, sense)
    for c in range(terminal.shape[1]):
        floats = Floats(model, terminal[:, c].copy())
        expected = backward(model, floats, best(sense), floats.start())[model.initial]
        assert got[c] == pytest.approx(expected, rel=1e-12, abs=1e-12)
