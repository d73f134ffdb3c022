"""The kernel of many columns compiled (mdp.engine.fused, the extra ``fast``) against the
numpy kernel (mdp.engine.columns), bit for bit: generated rounds of small cards (chance layers,
layers mixing a chance action with certain ones, shared pairs, runs of four rows and of four
outcomes and what is left after them), both senses, ends that no play
may take, NaN, blocks of any width; a Yatzy card's round; and loaded only where the work is
worth it, numpy's kernel where numba is not installed."""

import os
import pickle
import subprocess
import sys
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.engine import columns, fused
from mdp.limits import address_space

pytest.importorskip("numba")

# Up to six boxes and eight faces: a state's actions after its first run to four rows and
# more (the kernel takes four at a time), a throw's outcomes to eight (four at a time, and
# the rest one by one).
rounds = st.tuples(st.integers(1, 6), st.integers(2, 8), st.integers(1, 3)).map(
    lambda c: mdp.compile(card_game([[0] * c[1]] * c[0], c[1], c[2])).round)


def both(monkeypatch, model, terminal, sense="max", block=256):
    """The values of the numpy kernel and of the compiled one, as their bits."""
    monkeypatch.setattr(columns, "BLOCK", block)
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    monkeypatch.setattr(fused, "COMPILED", False)
    plain = columns.best_columns(model, terminal, sense)
    monkeypatch.setattr(fused, "COMPILED", True)
    compiled = columns.best_columns(model, terminal, sense)
    return plain.view(np.uint64), compiled.view(np.uint64)


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=rounds, width=st.integers(1, 40), sense=st.sampled_from(["max", "min"]),
       seed=st.integers(0, 2**32 - 1), block=st.sampled_from([1, 3, 7, 256]),
       values=st.sampled_from(["whole", "fractions", "nan", "zeros"]))
def test_the_compiled_kernel_gives_the_numpy_kernels_bits(monkeypatch, model, width, sense,
                                                           seed, block, values):
    # Fractions: sums of products whose order shows in the last bits; whole values: ties;
    # zeros of both signs: ties of a best and sums from 0 along every path of the kernel (a
    # card's start is a sum from 0, so the sign of an inner zero never reaches the value).
    rng = np.random.default_rng(seed)
    if values == "whole":
        terminal = rng.integers(-3, 4, (model.n_terminal, width)).astype(np.float64)
    elif values == "zeros":
        terminal = rng.choice([0.0, -0.0], (model.n_terminal, width))
    else:
        terminal = rng.random((model.n_terminal, width)) * rng.choice([1.0, -1.0, 1e6])
    worst = -np.inf if sense == "max" else np.inf
    terminal[rng.random(terminal.shape) < 0.3] = worst
    terminal[rng.random(model.n_terminal) < 0.3] = worst  # an end no column may take
    if values == "nan":
        terminal[rng.random(terminal.shape) < 0.05] = np.nan
    plain, compiled = both(monkeypatch, model, terminal, sense, block)
    assert np.array_equal(plain, compiled)


@pytest.mark.slow
def test_a_yatzy_round_gives_the_numpy_kernels_bits(monkeypatch):
    # A round of Yatzy's upper boxes, chance and yatzy: its keeping layers share pairs (the
    # plan of mdp.engine.merges), its throws are sparse products of up to 252 outcomes.
    game = mdp.load_game("yahtzee", variant="yatzy", boxes="ones,twos,threes,chance,yatzy")
    model = mdp.compile(game).round
    assert any(layer.merges for layer in columns.plan(model))
    rng = np.random.default_rng(44)
    terminal = rng.random((model.n_terminal, 300))
    terminal[rng.random(model.n_terminal) < 0.4] = -np.inf
    plain, compiled = both(monkeypatch, model, terminal)
    assert np.array_equal(plain, compiled)


def both_chosen(monkeypatch, model, terminal, sense="max", block=256):
    """The values and the choices of the numpy kernel and of the compiled one: the values
    as floats (the compiled kernel takes the best of a state's actions through its shared
    pairs, which may give a zero of the other sign; no tie tells them apart), NaN as NaN."""
    monkeypatch.setattr(columns, "BLOCK", block)
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    found = []
    for compiled in (False, True):
        monkeypatch.setattr(fused, "COMPILED", compiled)
        choice = np.zeros((model.n_states, terminal.shape[1]), dtype=np.int16)
        values = columns.best_columns(model, terminal, sense, choice=choice)
        found.append((values, choice))
    return found


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=rounds, width=st.integers(1, 40), sense=st.sampled_from(["max", "min"]),
       seed=st.integers(0, 2**32 - 1), block=st.sampled_from([1, 3, 7, 256]),
       values=st.sampled_from(["whole", "fractions", "near", "nan"]))
def test_the_compiled_kernels_choices_are_the_numpy_kernels(monkeypatch, model, width, sense,
                                                             seed, block, values):
    # Whole values tie exactly; "near" ones differ by less than the tie margin, or just more
    # (the first action within it is chosen); ends no play may take leave no tie at all.
    rng = np.random.default_rng(seed)
    if values == "whole":
        terminal = rng.integers(-3, 4, (model.n_terminal, width)).astype(np.float64)
    elif values == "near":
        terminal = 1e3 * (1 + rng.choice([0.0, 1e-13, 9e-13, 2e-12], (model.n_terminal, width)))
    else:
        terminal = rng.random((model.n_terminal, width)) * rng.choice([1.0, -1.0, 1e6])
    worst = -np.inf if sense == "max" else np.inf
    terminal[rng.random(terminal.shape) < 0.3] = worst
    terminal[rng.random(model.n_terminal) < 0.3] = worst
    if values == "nan":
        terminal[rng.random(terminal.shape) < 0.05] = np.nan
    (plain, plain_choice), (compiled, compiled_choice) = both_chosen(monkeypatch, model, terminal,
                                                                     sense, block)
    assert np.array_equal(plain, compiled, equal_nan=True)
    assert np.array_equal(plain_choice, compiled_choice)


@pytest.mark.slow
def test_a_yatzy_rounds_choices_are_the_numpy_kernels(monkeypatch):
    # The layers that share pairs in the solve are worked action by action for the choices.
    game = mdp.load_game("yahtzee", variant="yatzy", boxes="ones,twos,threes,chance,yatzy")
    model = mdp.compile(game).round
    rng = np.random.default_rng(45)
    terminal = rng.integers(0, 4, (model.n_terminal, 300)).astype(np.float64)
    terminal[rng.random(model.n_terminal) < 0.4] = -np.inf
    (plain, plain_choice), (compiled, compiled_choice) = both_chosen(monkeypatch, model, terminal)
    assert np.array_equal(plain, compiled, equal_nan=True)
    assert np.array_equal(plain_choice, compiled_choice)
    assert (plain_choice > 0).any()  # ties and choices past the first action were met


@pytest.mark.slow
def test_without_a_folder_for_its_cache_the_kernel_is_compiled_all_the_same():
    # Where neither this package's folder nor the user's may be written, numba finds no place
    # for its cache and refuses to cache: the kernel is then compiled in the process.
    code = ("import numpy as np\n"
            "from numba.core.caching import CacheImpl\n"
            "CacheImpl._locator_classes = []\n"
            "from mdp.engine import fused\n"
            "found = fused.kernel(fused.WORTH_LOADING)\n"
            "values = np.array([[0.25], [0.5], [0.0]])\n"
            "z = np.zeros(0, np.int64)\n"
            "code = fused.Program(np.array([[2, 3, 0, 0, 0, 0, 0]]), np.array([0, 1]),\n"
            "                     np.array([-1]), z, np.array([0, 2]), np.array([0, 1]),\n"
            "                     np.array([0.5, 0.5]))\n"
            "fused.run(found, code, values, True)\n"
            "print(values[2, 0])\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["0.375"]  # state 2: half of 0.25 and half of 0.5


@pytest.mark.slow
def test_a_small_solve_does_not_load_the_compiled_kernel():
    # Loading numba and the kernel costs about a third of a second: a solve of less work than
    # that stays with numpy's kernel.
    code = ("import sys, mdp\n"
            "game = mdp.load_game('yahtzee', variant='yatzy', boxes='ones,twos,yatzy')\n"
            "mdp.solve(mdp.compile(game))\n"
            "print('numba' in sys.modules)\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert ran.stdout.split() == ["False"]


def test_without_numba_the_numpy_kernel_runs(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba: ImportError
    monkeypatch.setattr(fused, "_KERNEL", [])
    monkeypatch.setattr(fused, "WORTH_LOADING", 0)
    assert fused.kernel(1) is None
    model = mdp.compile(card_game([[0] * 3] * 2, 3, 2)).round
    terminal = np.random.default_rng(1).random((model.n_terminal, 5))
    monkeypatch.setattr(fused, "COMPILED", False)
    expected = columns.best_columns(model, terminal)
    monkeypatch.setattr(fused, "COMPILED", True)
    assert np.array_equal(columns.best_columns(model, terminal), expected)


class _Numba(types.ModuleType):
    """A stand-in for numba whose parts fail as asked: ``njit`` itself, or the kernel's first
    call where it is cached (a damaged cache) or where it is not (a compiler that breaks). The
    kernel it makes runs ``fused._run`` as plain Python."""

    def __init__(self, failing):
        super().__init__("numba")
        self.failing = failing

    def njit(self, cache=False, nogil=False):
        if "njit" in self.failing:
            raise TypeError("njit broke")

        def made(function):
            if "off" in self.failing:  # the JIT off: the function given back as it is
                return function

            def found(*args):
                if ("cache" if cache else "compile") in self.failing:
                    raise pickle.UnpicklingError("invalid load key, '\\xd9'")
                return function(*args)
            found.signatures = [("compiled once called",)]
            return found
        return made


class _Failing:
    """A finder that fails the import of numba with ``error`` (numba reading a setting of
    its own it cannot parse, under warnings taken as errors: a RuntimeWarning)."""

    def __init__(self, error):
        self.error = error

    def find_spec(self, name, path=None, target=None):
        if name == "numba":
            raise self.error("NUMBA_NUM_THREADS could not be parsed")
        return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(failing=st.sets(st.sampled_from(["import", "njit", "cache", "compile", "off"])),
       error=st.sampled_from([ImportError, RuntimeWarning, ValueError, OSError]))
def test_a_kernel_numba_cannot_make_leaves_the_numpy_kernel(monkeypatch, failing, error):
    # The compiled kernel only makes the work faster: whatever part of numba fails (its
    # import, njit, a damaged cache, the compiler, the JIT turned off), the values are
    # numpy's, and nothing raises.
    with monkeypatch.context() as patched:
        patched.setattr(fused, "_KERNEL", [])
        patched.setattr(fused, "WORTH_LOADING", 0)
        patched.setattr(fused, "address_space", lambda: None)  # whatever this machine's limit
        if "import" in failing:
            patched.delitem(sys.modules, "numba", raising=False)
            patched.setattr(sys, "meta_path", [_Failing(error), *sys.meta_path])
        else:
            patched.setitem(sys.modules, "numba", _Numba(failing))
        found = fused.kernel(1)
        made = not ({"import", "njit", "off"} & failing or {"cache", "compile"} <= failing)
        assert (found is not None) == made
        model = mdp.compile(card_game([[0] * 3] * 2, 3, 2)).round
        terminal = np.random.default_rng(1).random((model.n_terminal, 5))
        patched.setattr(fused, "COMPILED", False)
        expected = columns.best_columns(model, terminal)
        patched.setattr(fused, "COMPILED", True)
        assert np.array_equal(columns.best_columns(model, terminal).view(np.uint64),
                              expected.view(np.uint64))


@pytest.mark.slow
def test_a_damaged_cache_or_an_unreadable_setting_of_numba_is_no_error(tmp_path):
    # The real numba: its cache written, then damaged as a disk that filled would leave it
    # (the kernel is compiled again in the process); and a NUMBA_ setting numba cannot read,
    # under warnings taken as errors as the command line takes them (numpy's kernel).
    code = ("import warnings\n"
            "warnings.simplefilter('error', RuntimeWarning)\n"
            "from mdp.engine import fused\n"
            "print(fused.kernel(fused.WORTH_LOADING) is not None)\n")
    if address_space() is not None:
        pytest.skip("a limit of address space here: numba is never loaded under one")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def made(**more):
        ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**env, **more})
        assert ran.returncode == 0 and not ran.stderr, ran.stderr
        return ran.stdout.split()

    assert made() == ["True"]
    assert made(NUMBA_DISABLE_JIT="1") == ["False"]  # the kernel in Python: numpy's is faster
    cached = [path for path in tmp_path.rglob("*") if path.suffix in (".nbi", ".nbc")]
    assert cached
    for path in cached:
        path.write_bytes(b"\xd9" * 100)
    assert made() == ["True"]
    assert made(NUMBA_NUM_THREADS="abc") == ["False"]


@pytest.mark.slow
def test_under_a_limit_of_address_space_numba_is_not_loaded():
    # Round 22: under `ulimit -v`, numba's first compile loaded scipy's OpenBLAS, whose start
    # looped for ever on failed allocations (SIGTERM and Ctrl-C unheard): numpy's kernel runs.
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (8 << 30, resource.RLIM_INFINITY))\n"
            "from mdp.engine import fused\n"
            "print(fused.kernel(fused.WORTH_LOADING), 'numba' in sys.modules)\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and not ran.stderr, ran.stderr
    assert ran.stdout.split() == ["None", "False"]
