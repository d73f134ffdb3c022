"""Polars' switches in the environment (``POLARS_PANIC_ON_ERR=1``, ``POLARS_ENGINE_AFFINITY=gpu``,
...) do not reach mdp's own work: they turned errors Polars recovers from inside into panics
and tracebacks, and had mdp's Parquet writer fail for want of a GPU engine, blamed on the
parquet format. ``POLARS_MAX_THREADS`` is checked (tests/program/test_cli_environment.py)."""

import os
import subprocess
import sys

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mdp.program.environment import POLARS_KEPT, clear_polars_environment

MDP = [sys.executable, "-m", "mdp.program.cli"]

# Polars' own (its documentation and sources), and names it may read one day.
SWITCHES = ["POLARS_PANIC_ON_ERR", "POLARS_ENGINE_AFFINITY", "POLARS_VERBOSE",
            "POLARS_BACKTRACE_IN_ERR", "POLARS_FMT_MAX_ROWS", "POLARS_FORCE_NEW_STREAMING",
            "POLARS_IDEAL_MORSEL_SIZE", "POLARS_MAX_EXPR_DEPTH", "POLARS_WARN_UNSTABLE"]
NAMES = st.one_of(st.sampled_from(SWITCHES + sorted(POLARS_KEPT)),
                  st.from_regex(r"POLARS_[A-Z_]{1,12}", fullmatch=True))
VALUES = st.one_of(st.sampled_from(["1", "0", "gpu", "cpu", "true", "x", ""]),
                   st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=8))


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(NAMES, VALUES, max_size=5))
def test_every_polars_variable_but_the_kept_is_cleared_and_given_back(monkeypatch, setting):
    for name in [n for n in os.environ if n.startswith("POLARS_")]:
        monkeypatch.delenv(name)
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    cleared = clear_polars_environment()
    left = {n: v for n, v in os.environ.items() if n.startswith("POLARS_")}
    assert left == {n: v for n, v in setting.items() if n in POLARS_KEPT}
    assert cleared == {n: v for n, v in setting.items() if n not in POLARS_KEPT}
    os.environ.update(cleared)


def _policy(env, target):
    done = subprocess.run([*MDP, "policy", "shutbox", "--set", "tiles=1-3", "--out", str(target)],
                          env=env, cwd=target.parent, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stderr.replace(str(target), "FILE")


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The policy's file and lines with no Polars variable set: what each run must match."""
    env = {n: v for n, v in os.environ.items() if not n.startswith("POLARS_")}
    target = tmp_path_factory.mktemp("plain") / "p.parquet"
    return _policy(env, target), pl.read_parquet(target)


@pytest.mark.slow  # two processes of mdp a case: the faults found are examples, three more drawn
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SWITCHES), VALUES)
@example("POLARS_PANIC_ON_ERR", "1")  # the two the attack found
@example("POLARS_ENGINE_AFFINITY", "gpu")
def test_a_polars_switch_changes_nothing_of_mdps_work(tmp_path, plain, name, value):
    env = {**os.environ, name: value}
    target = tmp_path / "p.parquet"
    said, table = plain
    assert said[0] == 0 and _policy(env, target) == said
    assert pl.read_parquet(target).equals(table)
    simulated = subprocess.run([*MDP, "simulate", "shutbox", "--games", "100", "--seed", "1", "--json"],
                               env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (simulated.returncode, simulated.stderr) == (0, "")


@pytest.mark.parametrize("name", ["NUMBA_DEBUG", "NUMBA_DEBUG_CACHE", "NUMBA_DUMP_IR",
                                  "NUMBA_WARNINGS", "NUMBA_FULL_TRACEBACKS"])
def test_numba_s_switches_of_notes_are_cleared_and_its_others_kept(monkeypatch, name):
    # Round 23: NUMBA_DEBUG=1 poured 12 KB of numba's compiler code onto mdp's standard error.
    monkeypatch.setenv(name, "1")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")  # changes nothing mdp says: kept
    try:
        cleared = clear_polars_environment()
        assert name not in os.environ and cleared[name] == "1"
        assert os.environ["NUMBA_NUM_THREADS"] == "2" and "NUMBA_NUM_THREADS" not in cleared
    finally:
        os.environ.update(cleared)
