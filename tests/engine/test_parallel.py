"""Work side by side on threads (mdp.parallel): the solve's pieces, the compile's lookups and
the checks of a stage run beside the discovery of the next, with the same results as one
thread gives."""

import importlib
import os
import subprocess
import sys
import threading
from fractions import Fraction

import attrs
import numpy as np
import pytest
from models import Ladder

import mdp
from mdp.engine.parallel import beside, side_by_side, threads

parallel = importlib.import_module("mdp.engine.parallel")
SHUTBOX = "shutbox"


@pytest.fixture
def checked_beside(monkeypatch):
    """Every block of a compile checked on another thread, however small."""
    monkeypatch.setenv("MDP_THREADS", "2")
    monkeypatch.setattr(parallel, "SMALL", 0)


def test_pieces_run_at_the_same_time(monkeypatch):
    # Three pieces meet at a barrier: one thread at a time would never get past it. The
    # calling thread is one of the three.
    monkeypatch.setenv("MDP_THREADS", "3")
    barrier = threading.Barrier(3, timeout=10)
    names = []

    def piece(item):
        barrier.wait()
        names.append((item, threading.current_thread().name))

    side_by_side(piece, range(3))
    assert sorted(item for item, _ in names) == [0, 1, 2]
    assert len({name for _, name in names}) == 3
    assert threading.current_thread().name in {name for _, name in names}


def test_pieces_go_on_while_the_pool_is_busy(monkeypatch):
    # Work started beside holds a thread of the pool until the pieces are done: the calling
    # thread and the other thread of the pool do them meanwhile.
    monkeypatch.setenv("MDP_THREADS", "2")
    release = threading.Event()
    busy = beside(parallel.SMALL, release.wait, 10)
    barrier = threading.Barrier(2, timeout=10)
    side_by_side(lambda item: barrier.wait(), range(4))
    release.set()
    assert busy.result() is True


def test_one_thread_does_the_pieces_in_order_here(monkeypatch):
    monkeypatch.setenv("MDP_THREADS", "1")
    seen = []
    side_by_side(lambda item: seen.append((item, threading.current_thread())), range(5))
    assert seen == [(i, threading.current_thread()) for i in range(5)]


def test_work_that_holds_the_lock_is_done_here_in_order(monkeypatch):
    monkeypatch.setenv("MDP_THREADS", "3")
    seen = []
    side_by_side(lambda item: seen.append((item, threading.current_thread())), range(5), locked=True)
    assert seen == [(i, threading.current_thread()) for i in range(5)]


def test_the_first_error_in_order_is_raised_and_no_piece_is_begun_after_it(monkeypatch):
    monkeypatch.setenv("MDP_THREADS", "2")
    done = []

    def piece(item):
        if item in (3, 5):
            raise ValueError(f"piece {item}")
        done.append(item)

    with pytest.raises(ValueError, match="piece 3"):
        side_by_side(piece, range(40))
    assert {0, 1, 2} <= set(done) and len(done) < 38


def test_pieces_within_a_piece_on_the_pool_run_on_its_thread(monkeypatch):
    # The pool's threads may all be busy with the outer pieces: inner ones asking the pool
    # for more could wait for ever.
    monkeypatch.setenv("MDP_THREADS", "2")
    barrier = threading.Barrier(2, timeout=10)
    outer_thread, inner = {}, []

    def outer(item):
        barrier.wait()  # one outer piece on each thread
        outer_thread[item] = threading.current_thread().name
        side_by_side(lambda sub: inner.append((item, sub, threading.current_thread().name)), range(3))

    side_by_side(outer, range(2))
    assert sorted(i[:2] for i in inner) == [(i, s) for i in range(2) for s in range(3)]
    pooled = [item for item, name in outer_thread.items() if name != threading.current_thread().name]
    assert len(pooled) == 1
    assert {name for i, _, name in inner if i == pooled[0]} == {outer_thread[pooled[0]]}


def test_a_forked_child_gets_threads_of_its_own(monkeypatch):
    # A child forked after the pool was made has none of its threads: work handed to the
    # parent's pool would never start.
    import multiprocessing

    monkeypatch.setenv("MDP_THREADS", "2")
    side_by_side(lambda item: None, range(4))  # the parent's pool exists
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_pieces_and_a_check_in_a_child)
    child.start()
    child.join(30)
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child waited for threads it does not have")
    assert child.exitcode == 0


def _pieces_and_a_check_in_a_child():
    barrier = threading.Barrier(2, timeout=10)
    side_by_side(lambda item: barrier.wait(), range(2))
    assert beside(parallel.SMALL, lambda: 7).result() == 7


def test_small_work_is_done_at_once_and_large_beside(monkeypatch):
    monkeypatch.setenv("MDP_THREADS", "2")
    here = threading.current_thread().name
    small = beside(parallel.SMALL - 1, lambda: threading.current_thread().name)
    assert small.done() and small.result() == here
    large = beside(parallel.SMALL, lambda: threading.current_thread().name)
    assert large.result() != here
    failed = beside(parallel.SMALL, lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        failed.result()
    monkeypatch.setenv("MDP_THREADS", "1")
    assert beside(parallel.SMALL, lambda: threading.current_thread().name).result() == here


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5", "²", "1025"])
def test_a_wrong_thread_count_is_refused(monkeypatch, value):
    monkeypatch.setenv("MDP_THREADS", value)
    with pytest.raises(mdp.ParamError, match=rf"^MDP_THREADS='{value}': expected a whole number of threads, from 1 to 1024 in plain digits \(or leave it unset\)$"):
        threads()


def test_the_program_refuses_a_wrong_thread_count_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "solve", SHUTBOX],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "MDP_THREADS": "0"})
    assert done.returncode == 2
    assert done.stderr == "mdp: error: MDP_THREADS='0': expected a whole number of threads, from 1 to 1024 in plain digits (or leave it unset)\n"
    assert done.stdout == ""


def test_a_small_game_starts_no_thread_nor_imports_their_module(tmp_path):
    # The standard box's whole solve takes a tenth of a second; concurrent.futures alone
    # takes 3 ms to import.
    script = ("import sys, threading\nfrom mdp.program.cli import main\nmain(['solve', 'shutbox', '--json'])\n"
              "print(threading.active_count(), 'concurrent.futures' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "MDP_THREADS": "4"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "1 False"


def test_threads_default_to_the_cores_at_most_four(monkeypatch):
    monkeypatch.delenv("MDP_THREADS", raising=False)
    cores = len(os.sched_getaffinity(0))
    assert threads() == max(1, min(cores, parallel.DEFAULT_MOST)) and parallel.DEFAULT_MOST == 4


@pytest.mark.slow
@pytest.mark.parametrize("count", ["1", "3"])
def test_a_model_compiled_in_pieces_on_threads_is_the_same(monkeypatch, count):
    # Discovery marks distinct keys, and the compile looks up successors, a million keys at a
    # time, side by side; in slices of 3 keys (every stage of the standard box is cut), on
    # one thread or three, with each stage checked beside the discovery of the next, the
    # model is the one compiled in one go.
    whole = mdp.compile(mdp.load_game(SHUTBOX))
    monkeypatch.setenv("MDP_THREADS", count)
    monkeypatch.setattr(parallel, "SMALL", 0)
    monkeypatch.setattr(parallel, "SLICE", 3)
    cut = mdp.compile(mdp.load_game(SHUTBOX))
    for name in ("states", "action_counts", "action_next", "chance_start", "outcome_next",
                 "outcome_prob", "layer_start", "terminal_values"):
        assert np.array_equal(getattr(cut, name), getattr(whole, name)), name
    assert (cut.initial, cut.probabilities) == (whole.initial, whole.probabilities)
    # The shutting chance of the standard box (brute force: test_shutbox).
    assert mdp.solve(cut, exact=True).value == Fraction(956177159, 9795520512)


class Twice(Ladder):
    """The Ladder with a wrong sum at position 2 (key 4), and a game that fails on the stage
    after it (position 1, key 2): checked beside, the fault found first is still the sum."""

    def __init__(self):
        super().__init__(3)

    @mdp.hookimpl
    def mdp_expand(self, states):
        if 2 in states.tolist():
            raise RuntimeError("no rung here")
        expansion = super().mdp_expand(states)
        if 4 in states.tolist():
            table = (Fraction(5, 6), Fraction(1, 6), Fraction(3, 4), Fraction(1, 5))
            return attrs.evolve(expansion, probability_table=table)
        return expansion


def test_a_fault_in_a_stage_comes_before_what_discovery_meets_after_it(checked_beside):
    with pytest.raises(mdp.ModelError, match=r"^game ladder: mdp_expand: probabilities sum to 19/20, not 1 \(state 4, action 1\)$"):
        mdp.compile(mdp.load_game(Twice()))


class Floats(Ladder):
    """The Ladder with float probabilities and a float home value: the model says where the
    first of each was found, named on the main thread."""

    @mdp.hookimpl
    def mdp_expand(self, states):
        expansion = super().mdp_expand(states)
        return attrs.evolve(expansion, probability_table=tuple(float(p) for p in expansion.probability_table),
                            terminal_values=[float(v) for v in expansion.terminal_values])


def test_inexact_numbers_are_named_where_found_when_checked_beside(checked_beside, monkeypatch):
    named = []
    columns = importlib.import_module("mdp.engine.compile").describe

    def describe(game, state, action=None):
        named.append(threading.current_thread() is threading.main_thread())
        return columns(game, state, action)

    monkeypatch.setattr(importlib.import_module("mdp.engine.compile"), "describe", describe)
    model = mdp.compile(mdp.load_game(Floats(3)))
    assert model.inexact == "the game gave a float: probability 0.8333333333333334 (state 6, action 0)"
    assert model.inexact_values == "the game gave a float: value 1.0 (state 0)"
    assert named == [True, True]
