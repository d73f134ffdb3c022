"""Limits of the process that would break mdp's work in Polars' threads, where no error can
be caught: the address space (``ulimit -v``) that glibc's allocator reserved 64 MB of per
thread, and the open files (``ulimit -n``) Polars' writers need, checked before any work."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from mdp import limits

SHUTBOX = str(Path(__file__).resolve().parents[2] / "games" / "shutbox")


def run(tmp_path: Path, limit: int, value: int, *argv: str) -> subprocess.CompletedProcess:
    """``mdp argv`` run in ``tmp_path`` with the soft resource limit ``limit`` at ``value``,
    the allocator left to mdp (no ``MALLOC_ARENA_MAX``)."""
    def lower():
        resource.setrlimit(limit, (value, resource.getrlimit(limit)[1]))

    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    return subprocess.run([sys.executable, "-m", "mdp", *argv], capture_output=True, text=True,
                          preexec_fn=lower, timeout=120, env=env, cwd=tmp_path)


@pytest.mark.slow
def test_a_table_is_written_under_an_address_space_limit_the_work_fits(tmp_path):
    # Before: glibc gave each of Polars' threads an arena of 64 MB of address space, 1.1 GB
    # mapped for 0.1 GB in use (measured on two cores, /proc/self/status VmPeak and VmHWM),
    # and Polars' allocator aborted the process (rc -6, "memory allocation of ... failed"),
    # leaving its temporary.
    done = run(tmp_path, resource.RLIMIT_AS, 800 * 2**20, "policy", SHUTBOX,
               "--set", "tiles=1-9", "--out", "p.csv")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]
    # 7,675 rows: the count a run without a limit writes
    assert done.stdout == "" and done.stderr == "7,675 rows written to p.csv\n"


@pytest.mark.slow
@pytest.mark.parametrize("command", [["solve", SHUTBOX], ["policy", SHUTBOX, "--out", "p.parquet"],
                                     ["--help"]])
@pytest.mark.parametrize("files", [5, 8, limits.OPEN_FILES - 1])
def test_too_few_open_files_is_one_line_before_any_work(tmp_path, command, files):
    # Before: under 5, a traceback of an import (OSError: Too many open files); under 8, a
    # panic of Polars' threads with a Rust backtrace, exit 1.
    done = run(tmp_path, resource.RLIMIT_NOFILE, files, *command)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"mdp: error: the open-files limit (ulimit -n) is {files}, and mdp "
                           f"needs at least {limits.OPEN_FILES} (Polars' threads take a dozen as "
                           f"it writes a table); raise it: ulimit -n {limits.OPEN_FILES}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_open_files_mdp_needs_are_enough(tmp_path):
    done = run(tmp_path, resource.RLIMIT_NOFILE, limits.OPEN_FILES, "policy", SHUTBOX,
               "--set", "tiles=1-6", "--out", "p.parquet")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["p.parquet"]
