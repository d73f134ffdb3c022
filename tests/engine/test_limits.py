"""The memory mdp may use, as the process's limits say (mdp.limits), and what happens when it
runs out: one line and exit 3, never a traceback."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from mdp import limits

ROOT = Path(__file__).resolve().parents[2]
SHUTBOX = str(ROOT / "games" / "shutbox")
GB = 10**9


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cgroup_v2_takes_the_least_limit_of_the_group_and_those_above_it(tmp_path):
    write(tmp_path / "cgroup", "0::/user.slice/mdp.scope\n")
    write(tmp_path / "fs" / "memory.max", "max\n")
    write(tmp_path / "fs" / "user.slice" / "memory.max", "3000000000\n")
    write(tmp_path / "fs" / "user.slice" / "mdp.scope" / "memory.max", "max\n")
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "cgroup")) == 3_000_000_000
    write(tmp_path / "fs" / "user.slice" / "mdp.scope" / "memory.max", "2000000000\n")
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "cgroup")) == 2_000_000_000


def test_cgroup_v1_reads_the_memory_controller(tmp_path):
    write(tmp_path / "cgroup", "5:cpu,cpuacct:/a\n4:memory:/docker/abc\n0::/\n")
    write(tmp_path / "fs" / "memory" / "memory.limit_in_bytes", "9223372036854771712\n")  # none
    write(tmp_path / "fs" / "memory" / "docker" / "abc" / "memory.limit_in_bytes", "1500000000\n")
    write(tmp_path / "fs" / "cpu" / "memory.limit_in_bytes", "1\n")  # not the memory controller's
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "cgroup")) == 1_500_000_000


def test_a_container_that_sees_its_group_as_the_root_reads_the_root(tmp_path):
    # /proc/self/cgroup names the group as the host sees it; inside, it is mounted as the root.
    write(tmp_path / "cgroup", "0::/kubepods/pod1/container\n")
    write(tmp_path / "fs" / "memory.max", "4000000000\n")
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "cgroup")) == 4_000_000_000


def test_no_control_group_no_limit(tmp_path):
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "none")) is None
    write(tmp_path / "cgroup", "0::/\n")
    write(tmp_path / "fs" / "memory.max", "max\n")
    assert limits.cgroup_memory(str(tmp_path / "fs"), str(tmp_path / "cgroup")) is None


@pytest.mark.parametrize("physical, cgroup, space, left, least", [
    (16 * GB, None, None, None, 16 * GB),
    (16 * GB, 4 * GB, None, None, 4 * GB),
    (16 * GB, 4 * GB, 2 * GB, GB, GB),  # the address space left, not its limit
    (16 * GB, 9 * 10**18, None, None, 16 * GB),  # cgroup v1's "no limit"
    (None, None, None, None, None),
])
def test_the_default_budget_is_three_quarters_of_the_least_limit(monkeypatch, physical, cgroup,
                                                                 space, left, least):
    monkeypatch.setattr(limits, "physical_memory", lambda: physical)
    monkeypatch.setattr(limits, "cgroup_memory", lambda: cgroup)
    monkeypatch.setattr(limits, "address_space", lambda left_=False: left if left_ else space)
    assert limits.memory_limit(left=True) == least
    assert limits.default_max_memory() == (None if least is None else int(0.75 * least))
    assert limits.memory_limit() == min((f for f in (physical, cgroup, space) if f), default=None)


def limited(address_space: int, *argv: str) -> subprocess.CompletedProcess:
    """``mdp argv`` run with at most ``address_space`` bytes of address space (``ulimit -v``)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, resource.getrlimit(resource.RLIMIT_AS)[1]))

    # Few threads, each of which maps address space of its own (a stack, a heap arena),
    # however many cores the machine has.
    threads = {"MDP_THREADS": "2", "POLARS_MAX_THREADS": "2", "MALLOC_ARENA_MAX": "2"}
    return subprocess.run([sys.executable, "-m", "mdp", *argv], capture_output=True, text=True,
                          preexec_fn=limit, timeout=120, env={**os.environ, **threads})


def test_address_space_is_read_from_the_process_limit():
    done = subprocess.run(
        [sys.executable, "-c", "import resource; from mdp import limits; "
         "resource.setrlimit(resource.RLIMIT_AS, (3 * 10**9, resource.RLIM_INFINITY)); "
         "print(limits.address_space(), limits.address_space(left=True) < 3 * 10**9)"],
        capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["3000000000", "True"]


@pytest.mark.slow
def test_a_game_past_the_address_space_is_refused_by_the_default_budget():
    # Before: the budget was three quarters of the machine's memory, and the game ran out of
    # its 1 GB of address space with a traceback (numpy's _ArrayMemoryError).
    done = limited(GB, "solve", SHUTBOX, "--set", "tiles=1-20", "--set", "dice=4")
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert done.stderr.startswith("mdp: error: game shutbox: the model would need more than ")
    assert "raise it with --max-memory" in done.stderr


@pytest.mark.slow
def test_memory_running_out_is_one_line_and_exit_3():
    # --max-memory past what the process may have: memory runs out in the work (before: a
    # traceback of numpy's _ArrayMemoryError, exit 1).
    # The model takes about 1 GB at its peak: 1.5 GB of address space was sometimes enough.
    done = limited(6 * GB // 5, "solve", SHUTBOX, "--set", "tiles=1-20", "--set", "dice=4",
                   "--max-memory", "100G")
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    assert done.stderr == ("mdp: error: out of memory (mdp may use 1.2 GB here); solve a smaller "
                           "game, or set --max-memory lower so that a game too large is refused "
                           "before the work (it bounds the model, not the digits of --exact's "
                           "numbers, which a deep game makes long)\n")
