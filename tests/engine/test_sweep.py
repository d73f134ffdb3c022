"""The engine's two passes over the layers (mdp/engine/sweep.py): pieces of rows and columns,
side by side on threads, within a stated memory bound; and no other loop over the layers."""

import importlib
import re
import threading
import tracemalloc
from fractions import Fraction
from pathlib import Path

import brute_shutbox
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

sweep = importlib.import_module("mdp.engine.sweep")
parallel = importlib.import_module("mdp.engine.parallel")
operations = importlib.import_module("mdp.engine.operations")
sums = importlib.import_module("mdp.engine.sums")
MDP = Path(mdp.__file__).parent

PER_THREAD = 48 << 20
"""What solve_many may take besides its values (8 bytes a state and column), per thread:
the temporaries of the piece a thread works on (a few arrays of at most two million numbers:
OUTCOMES_AT_A_TIME outcome values, PIECE_OF_COLUMNS action values of many columns)."""


@pytest.fixture(scope="module")
def small():
    """Shut the Box on tiles 1-7 with two dice: 1,576 states, 537 of them terminal."""
    return mdp.compile(mdp.load_game("shutbox", tiles="1-7", dice=2, one_die="never"))


@pytest.mark.slow  # half a second with the model
def test_solve_many_over_ten_thousand_columns_uses_every_thread_within_its_bound(small, monkeypatch):
    # The pieces a tenth of their size, and a tenth of the columns (of 100,000: 1.2 GB of values
    # and 4 s of CPU): as many pieces a layer, the temporaries to the values as they were.
    monkeypatch.setattr(sweep, "PIECE_OF_COLUMNS", sweep.PIECE_OF_COLUMNS // 10)
    for module in (operations, sums):
        monkeypatch.setattr(module, "OUTCOMES_AT_A_TIME", operations.OUTCOMES_AT_A_TIME // 10)
    monkeypatch.setenv("MDP_THREADS", "3")
    columns = 10_000
    rng = np.random.default_rng(1)
    terminals = rng.random((small.n_terminal, columns))
    terminals[:, 0] = small.terminals["open_sum"].to_numpy() == 0  # column 0: shutting the box
    seen = set()
    all_seen = threading.Event()
    backup = mdp.CompiledModel.backup

    def watched(model, *args, **kwargs):
        seen.add(threading.get_ident())
        if len(seen) >= 3:
            all_seen.set()
        elif getattr(parallel._local, "worker", False):
            # A thread of the pool waits (a second at most) for the others to take a piece:
            # on a busy machine the first might otherwise take every piece of a layer alone.
            all_seen.wait(1)
        return backup(model, *args, **kwargs)

    monkeypatch.setattr(mdp.CompiledModel, "backup", watched)
    tracemalloc.start()
    try:
        solutions = mdp.solve_many(small, terminals, sense="max")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parallel.threads() == 3 and len(seen) >= 3  # the pool's threads and this one
    monkeypatch.undo()
    bound = small.n_states * columns * 8 + 3 * PER_THREAD // 10
    assert peak <= bound, f"peak {peak:,} bytes past {bound:,}"
    # Every column is the solve of that column alone (a few, checked one by one), but for the
    # order of its sums (many columns of a throw are one matrix product).
    for j in (0, 1, columns // 2, columns - 1):
        alone = mdp.solve(small, terminal=terminals[:, j], sense="max").value
        assert solutions.value[j] == pytest.approx(alone, rel=1e-14)
    # Column 0 is the chance of shutting tiles 1-7 with two dice (the brute force).
    assert solutions.value[0] == pytest.approx(
        float(brute_shutbox.solve(range(1, 8), one_die="never")), rel=1e-12)


def test_column_pieces_hold_about_a_piece_of_numbers():
    assert sweep._column_pieces(1, 10**7) == [(0, 1)]
    assert sweep._column_pieces(8, 1000) == [(0, 8)]  # whole when a piece holds them
    pieces = sweep._column_pieces(100_000, 500)
    assert pieces[0] == (0, sweep.PIECE // 500) and pieces[-1][1] == 100_000
    assert all(a1 == b0 for (_, a1), (b0, _) in zip(pieces, pieces[1:]))
    # Never fewer than FEWEST_COLUMNS in a piece, however many actions a layer has.
    assert sweep._column_pieces(1000, 10**8)[0] == (0, sweep.FEWEST_COLUMNS)


def test_pieces_of_columns_give_the_values_of_one_piece(small, monkeypatch):
    terminals = np.stack([small.terminals["open_sum"].to_numpy() == 0,
                          -small.terminals["open_sum"].to_numpy()], axis=1).astype(np.int64)
    whole = mdp.solve_many(small, terminals, exact=True)
    monkeypatch.setattr(sweep, "PIECE", 8)
    monkeypatch.setattr(sweep, "FEWEST_COLUMNS", 1)
    cut = mdp.solve_many(small, terminals, exact=True)
    assert cut.value == whole.value
    assert cut.value[0] == brute_shutbox.solve(range(1, 8), one_die="never")
    floats = mdp.solve_many(small, terminals.astype(np.float64))
    assert np.array_equal(floats.values, mdp.solve_many(small, terminals.astype(np.float64)).values)


def test_a_mix_of_policies_is_valued_as_the_mixed_chances(small):
    game = mdp.load_game("shutbox", tiles="1-7", dice=2, one_die="never")
    optimal = mdp.solve(small, exact=True).as_policy()
    random = mdp.strategy_policy(small, "random", game=game, exact=True)
    mix = mdp.Policy.mix([(optimal, 3), (random, 1)])
    assert mix.exact and mix.name == "mix"
    # The same chances by hand: three quarters of the optimal action, a quarter at random.
    by_hand = mdp.Policy.of_weights(small, optimal.probabilities * Fraction(3, 4)
                                    + random.probabilities * Fraction(1, 4), exact=True)
    value = mdp.solve(small, exact=True, policy=mix).value
    assert value == mdp.solve(small, exact=True, policy=by_hand).value
    assert mdp.solve(small, exact=True, policy=random).value < value < \
        mdp.solve(small, exact=True).value
    assert mdp.solve(small, policy=mix.__class__(small, mix.as_floats(), "mix")).value == \
        pytest.approx(float(value), rel=1e-12)


@pytest.mark.parametrize("weights, message", [
    ([np.nan], r"strategy custom: weight nan for action 0 \(state .*\) is not finite"),
    ([np.inf], r"strategy custom: weight inf for action 0 \(state .*\) is not finite"),
])
def test_weights_that_are_not_finite_are_refused(small, weights, message):
    w = np.ones(small.n_actions)
    w[0] = weights[0]
    with pytest.raises(mdp.ModelError, match=message):
        mdp.Policy.of_weights(small, w)


def test_huge_equal_weights_are_the_uniform_policy(small):
    uniform = mdp.Policy.of_weights(small, np.ones(small.n_actions))
    huge = mdp.Policy.of_weights(small, np.full(small.n_actions, 1e308))
    assert np.array_equal(uniform.probabilities, huge.probabilities)


def test_a_policy_of_another_model_or_of_floats_in_exact_mode_is_refused(small):
    other = mdp.compile(mdp.load_game("shutbox", tiles="1-4"))
    policy = mdp.Policy.of_weights(other, np.ones(other.n_actions))
    with pytest.raises(mdp.ParamError, match="the policy custom is of another compiled model"):
        mdp.solve(small, policy=policy)
    floats = mdp.Policy.of_weights(small, np.ones(small.n_actions))
    with pytest.raises(mdp.ParamError, match="has float chances; exact evaluation needs"):
        mdp.solve(small, policy=floats, exact=True)


LAYER_LOOP = re.compile(r"for .* in .*range\([^)]*n_layers")
RAW = re.compile(r"\.(layer_start|layer_action_start|action_start|action_counts|action_next|"
                 r"chance_start|outcome_next|outcome_prob)\b")


def test_the_sweeps_are_the_only_loops_over_the_layers():
    loops = [f"{path.relative_to(MDP)}:{n}" for path in MDP.rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if LAYER_LOOP.search(line) and path.name != "sweep.py"]
    assert loops == []
    assert LAYER_LOOP.search((MDP / "engine" / "sweep.py").read_text())  # the check can fail


def test_nothing_outside_the_engine_reads_the_models_arrays():
    readers = [f"{path.relative_to(MDP)}:{n}" for path in MDP.rglob("*.py")
               if "engine" not in path.parts
               for n, line in enumerate(path.read_text().splitlines(), 1)
               if RAW.search(line) and "expansion." not in line]
    assert readers == []


@pytest.mark.parametrize("model", [
    "small",  # choices of one certain successor; throws of many columns, matrix products
    "two_boxes_round",  # a choice between a throw again (chance) and a box (certain)
], indirect=True)
@pytest.mark.slow
def test_every_column_played_its_own_way_is_that_column_pushed_alone(model):
    rng = np.random.default_rng(3)
    columns = 70
    counts = model.action_count()
    choice = (rng.random((model.n_states, columns)) * np.maximum(counts, 1)[:, None]).astype(np.int16)
    table = np.array([float(p) for p in model.probabilities])
    reach = np.zeros((model.n_states, columns))
    reach[model.initial] = 1
    sweep.forward_chosen(model, choice, reach, table)
    # Each column alone, by forward with the policy that takes the chosen action: 1 for the
    # action of that rank in its state.
    taken = model.action_rank()[:, None] == choice[model.action_state()]
    for j in range(columns):
        alone = np.zeros(model.n_states)
        alone[model.initial] = 1
        sweep.forward(model, lambda layer, a0, a1: taken[a0:a1, j].astype(float), alone, table)
        assert reach[:, j] == pytest.approx(alone, rel=1e-13, abs=1e-17), j
    assert reach[: model.n_terminal].sum(axis=0) == pytest.approx(np.ones(columns), rel=1e-13)


@pytest.fixture
def model(request, small):
    if request.param == "small":
        return small
    return mdp.compile(mdp.load_game(Path(__file__).resolve().parents[2] / "docs" / "examples"
                                     / "two_boxes.py")).round


@settings(max_examples=30, deadline=None)
@given(st.one_of(st.integers(-91, 600), st.integers(-800, -330)), st.integers(0, 10**6))
def test_weights_a_float_cannot_hold_beside_the_others_are_refused(power, at):
    # Before: a weight made 0 in floats where it was not 0 changed play silently. Only the
    # ratios within a state count: all of one size, however small or large, are the uniform
    # policy; where some weight is no float (past 1e308, or below 1e-324), one 10**400 times
    # another of its state cannot be told from 0 beside it, and is refused in one line
    # (alone in its state, it is the state's one action, taken for certain).
    small = mdp.compile(mdp.load_game("docs/examples/reroll.py"))
    scale = Fraction(10) ** power
    uniform = mdp.Policy.of_weights(small, [scale] * small.n_actions)
    assert np.allclose(uniform.probabilities,
                       mdp.Policy.of_weights(small, np.ones(small.n_actions)).probabilities, rtol=1e-15)
    weights = [scale] * small.n_actions
    weights[at % small.n_actions] = scale * 10**400
    state = small.action_state()[at % small.n_actions]
    if small.action_counts[state] == 1:
        assert mdp.Policy.of_weights(small, weights).probabilities[at % small.n_actions] == 1
        return
    with pytest.raises(mdp.ModelError, match=r"^strategy custom: weight .* for action \d+ \(state .*\) "
                       r"is too small beside the others for a float \(it would be 0\); evaluate "
                       r"exactly \(--exact\)$"):
        mdp.Policy.of_weights(small, weights)
    exact = mdp.Policy.of_weights(small, weights, exact=True)  # exactly, it is taken
    assert sum(exact.probabilities) == small.n_states - small.n_terminal
