"""The batches of a game of rounds on a Dask cluster (mdp.on_cluster, --scheduler): a local
cluster of two worker processes gives what this process's threads give, to the last bit and
exactly; what cannot connect, a cluster that cannot work and what cannot be sent to its
workers are refused in one line, before any work, and within the time promised."""

import gc
import re
import socket
import sys
import threading
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

distributed = pytest.importorskip("distributed")
cluster_module = pytest.importorskip("mdp.engine.cluster")

pytestmark = pytest.mark.xdist_group("dask-cluster")  # one worker of pytest-xdist: one cluster

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
TWO_BOXES = str(ROOT / "docs" / "examples" / "two_boxes.py")  # loaded by path: sent by value
CARD = {"card": "yahtzee", "boxes": "ones,twos,yahtzee"}  # an installed game

# A game of rounds whose rule fails on the workers: its one-line message must come back.
FAULTY = '''
import numpy as np
import mdp
from two_boxes import *  # noqa: F403, the round and its columns
import two_boxes

GAME_NAME = "faulty-boxes"


@mdp.hookimpl
def mdp_round_rule(ends):
    given = two_boxes.mdp_round_rule(ends)

    def rule(states):
        if (states == 3).any():
            raise ValueError("no rule for both boxes filled")
        return given(states)

    return rule
'''


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield cluster.scheduler_address, client


def _tasks(client, work):
    """What ``work()`` gives, and how many tasks the cluster ran meanwhile."""
    with distributed.get_task_stream(client) as stream:
        result = work()
    return result, len(stream.data)


@pytest.mark.slow
@pytest.mark.parametrize("path, params", [(TWO_BOXES, {}), ("yahtzee", CARD)])
def test_a_cluster_of_two_processes_solves_as_the_threads_do(cluster, path, params):
    address, client = cluster
    model = mdp.compile(mdp.load_game(path, **params))
    here = [mdp.solve(model), mdp.solve(model, exact=True), mdp.at_least(model)]
    with mdp.on_cluster(address):
        there, tasks = _tasks(client, lambda: [
            mdp.solve(model), mdp.solve(model, exact=True), mdp.at_least(model)])
    assert tasks >= 3 * model.n_rounds  # a task a batch at least, each round of each solve
    assert all(np.array_equal(a, b) for a, b in zip(there[0].values, here[0].values, strict=True))
    assert there[1].value == here[1].value  # exactly
    assert [there[2].chance(t) for t in range(30)] == [here[2].chance(t) for t in range(30)]


@pytest.mark.slow
def test_the_command_line_names_the_scheduler(cluster, capsys):
    address, client = cluster
    assert main(["solve", TWO_BOXES, "--exact", "--json"]) == 0
    here = capsys.readouterr().out
    assert main(["solve", TWO_BOXES, "--exact", "--json", "--scheduler", address]) == 0
    there = capsys.readouterr().out
    assert '"exact": "571/48"' in there  # the mean worked by hand on docs/examples
    assert there.replace(_seconds(there), "") == here.replace(_seconds(here), "")


@pytest.mark.slow  # a process of mdp
@pytest.mark.parametrize("argv", [["solve", TWO_BOXES, "--exact", "--json"],
                                  ["solve", "shutbox", "--set", "tiles=1-4", "--json"]])
def test_the_program_reaches_the_scheduler_from_a_process_of_its_own(cluster, argv):
    """In a process where Dask was not loaded before the command (as from a shell, not as
    here, where the cluster's fixture loaded it), loading it changed the import machinery
    while the guard watched: "game two-boxes changed the import machinery (sys.meta_path)",
    exit 2, for every game."""
    import subprocess

    address, client = cluster
    runs = [subprocess.run([sys.executable, "-m", "mdp", *argv, *more], capture_output=True,
                           text=True, timeout=120) for more in ([], ["--scheduler", address])]
    assert [run.returncode for run in runs] == [0, 0], runs[1].stderr
    assert runs[1].stderr == ""
    here, there = (run.stdout for run in runs)
    assert there.replace(_seconds(there), "") == here.replace(_seconds(here), "")


def _seconds(json_text: str) -> str:
    import json

    return str(json.loads(json_text)["seconds"])


@pytest.mark.slow
def test_a_games_mistake_on_a_worker_is_its_one_line(cluster, tmp_path, capsys):
    address, _ = cluster
    (tmp_path / "two_boxes.py").write_text(Path(TWO_BOXES).read_text())
    (tmp_path / "faulty.py").write_text(FAULTY)
    path = str(tmp_path / "faulty.py")
    assert main(["solve", path]) == 2
    here = capsys.readouterr().err
    assert main(["solve", path, "--scheduler", address]) == 2
    there = capsys.readouterr().err
    assert there == here
    assert there.count("\n") == 1 and "no rule for both boxes filled" in there
    # The round state asked is named, there as here (round state 3 is asked alone), by its
    # round columns too (both boxes filled).
    assert there.endswith("mdp_round_rule's function raised ValueError: no rule for both boxes "
                          'filled (asked about round state 3 (filled="FACE EVEN"))\n'), there


def test_no_scheduler_there_is_one_line_at_once(capsys):
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert main(["solve", TWO_BOXES, "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: no Dask scheduler answers at tcp://127.0.0.1:{port} (")
    assert err.count("\n") == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(host=st.text(alphabet="0123456789abcdefxyz:.%[", max_size=6), closed=st.booleans())
def test_an_address_in_brackets_that_is_no_ip_address_is_one_line(host, closed, capsys):
    # urlsplit raised its ValueError (a bracket left open, a host in brackets that is no IPv6
    # address: "tcp://[::1", "tcp://[zz]:8786"), a traceback; port 1, where nothing listens.
    address = f"tcp://[{host}]:1" if closed else f"tcp://[{host}"
    assert main(["solve", TWO_BOXES, "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: no Dask scheduler answers at {address} (") and err.count("\n") == 1, err


@pytest.mark.slow
@pytest.mark.parametrize("address", ["", " tcp://127.0.0.1:8786", 8786])
def test_an_address_that_is_none_is_refused_at_once(address, capsys):
    with pytest.raises(mdp.ParamError, match="expected the address of a Dask scheduler"):
        mdp.on_cluster(address)
    if isinstance(address, str):
        with pytest.raises(SystemExit) as exited:  # the command line's usage error
            main(["solve", TWO_BOXES, "--scheduler", address])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert "--scheduler: " in err and "expected the address of a Dask scheduler" in err
        assert err.count("\n") == 1


@pytest.mark.slow
def test_without_dask_the_extra_is_named(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    assert main(["solve", TWO_BOXES, "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err == ("mdp: error: a Dask scheduler needs Dask's distributed, an "
                                       f"optional extra: pip install '{DISTRIBUTION}[dask]'\n")


def test_every_install_hint_names_this_distribution():
    """``pip install 'mdp[dask]'`` installs another project (PyPI's ``mdp``): every hint, in
    code and docs, names the distribution pyproject.toml builds."""
    hints = [(path, line) for folder in ("mdp", "docs") for path in (ROOT / folder).rglob("*.*")
             if path.suffix in (".py", ".rst") for line in path.read_text().splitlines()
             if "[dask]" in line]
    hints += [("CHANGELOG.md", line) for line in (ROOT / "CHANGELOG.md").read_text().splitlines()
              if "[dask]" in line]
    assert len(hints) >= 4  # the module, the option's help, cli.rst and api.rst at least
    assert [hint for hint in hints if f"{DISTRIBUTION}[dask]" not in hint[1]] == []
    assert cluster_module.INSTALL == f"pip install '{DISTRIBUTION}[dask]'"


# Something other than a Dask scheduler at the address: one line, within CONNECT_SECONDS.

def _serve(greeting: bytes | None):
    """A TCP service on a free port that is not Dask's: it says ``greeting`` first (a banner,
    as SSH does) or, with ``None``, waits for a request it can read (as a web server does)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if greeting is not None:
                conn.sendall(greeting)

    threading.Thread(target=accept, daemon=True).start()
    return server, held


@pytest.mark.slow
@pytest.mark.parametrize("greeting", [pytest.param(None, marks=pytest.mark.slow), b"SSH-2.0-OpenSSH_9.6\r\n", b"HTTP/1.1 400 Bad\r\n\r\n",
                                      b"\xff" * 64])
def test_what_is_not_a_scheduler_is_one_line_in_time(greeting, monkeypatch, capsys):
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    server, held = _serve(greeting)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        began = time.monotonic()
        with pytest.raises(mdp.ParamError) as refused:
            with mdp.on_cluster(address):
                pytest.fail("connected to what is no scheduler")
        assert time.monotonic() - began < 1 + 2  # its second, and a little to close
        assert main(["solve", TWO_BOXES, "--scheduler", address]) == 2
    finally:
        server.shutdown(socket.SHUT_RDWR)  # wakes its accept(): the thread ends
        server.close()
        for conn in held:
            conn.close()
    said = str(refused.value)
    assert said.startswith(f"no Dask scheduler answers at {address} (")
    assert "memory" not in said and "\n" not in said
    if greeting is None:  # it waits, as a web server does: the time is out
        assert "nothing answered as a Dask scheduler within 1 s" in said
    gc.collect()  # nothing of Dask's is left to complain when it goes
    err = capsys.readouterr().err
    assert err == f"mdp: error: {said}\n"


@pytest.mark.slow  # the cluster: processes of its own
def test_a_workers_address_is_not_a_schedulers(cluster):
    address, client = cluster
    worker = sorted(client.scheduler_info(n_workers=-1)["workers"])[0]
    with pytest.raises(mdp.ParamError, match=r"\(a Dask Worker, not a scheduler, answers there\)"):
        with mdp.on_cluster(worker):
            pass


# A cluster that cannot work: one line, never a hang.

@pytest.mark.slow
def test_a_scheduler_without_workers_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(cluster_module, "READY_SECONDS", 0.5)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as alone:
        address = alone.scheduler_address
        began = time.monotonic()
        assert main(["solve", TWO_BOXES, "--scheduler", address]) == 2
        assert time.monotonic() - began < 5
    assert capsys.readouterr().err == (f"mdp: error: the Dask scheduler at {address} has no "
                                       "workers (none came within 0.5 s); start some (dask "
                                       f"worker {address})\n")


@pytest.mark.slow
def test_a_worker_without_mdp_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "no_mdp.py").write_text("import sys\nsys.modules['mdp'] = None  # no mdp here\n")
    monkeypatch.setattr(cluster_module, "READY_SECONDS", 3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  preload=[str(tmp_path / "no_mdp.py")]) as bare:
        with pytest.raises(mdp.ParamError) as refused:
            with mdp.on_cluster(bare.scheduler_address):
                pytest.fail("connected to a worker that cannot import mdp")
    said = str(refused.value)
    assert said.startswith("the Dask worker") and "cannot run mdp's work" in said  # or it died
    assert said.endswith(f"mdp must be installed on every worker, the same version as here "
                         f"({DISTRIBUTION} {mdp.__version__}, Python "
                         f"{sys.version_info[0]}.{sys.version_info[1]})")


@pytest.mark.slow  # the cluster: processes of its own
def test_a_worker_of_another_version_is_one_line(cluster, monkeypatch):
    address, _ = cluster
    theirs = re.escape(mdp.__version__)
    monkeypatch.setattr(mdp, "__version__", "0.0.0", raising=False)  # here; the workers' is theirs
    with pytest.raises(mdp.ParamError, match=r"cannot run mdp's work \(it runs exact-mdp "
                       rf"{theirs}, Python \d+\.\d+\): mdp must be installed on every "
                       r"worker, the same version as here \(exact-mdp 0\.0\.0, Python \d+\.\d+\)"):
        with mdp.on_cluster(address):
            pass


# What cannot be sent to the workers: one line naming the game and the hook, before any task.

HOLDING = {  # what a hook's function may hold that cannot be pickled, and the word for it
    "a lock": ("threading.Lock()", "_thread.lock"),
    "a socket": ("__import__('socket').socket()", "socket"),
    "a generator": ("(n for n in range(3))", "generator"),
}

RULE_HOLDING = '''
import threading
import numpy as np
import mdp


@mdp.hookimpl
def mdp_round_rule(ends):
    bit = np.array([1 << ("FACE", "EVEN").index(box) for _, box, _ in ends])
    scored = np.array([(f if b == "FACE" else 2 * f * (f % 2 == 0)) for _, b, f in ends])
    held = {held}

    def rule(states):
        assert held is not None
        filled = states[:, None]
        following = np.where(filled & bit, -1, filled | bit)
        return mdp.RoundEnds(following, np.broadcast_to(scored, following.shape))

    return rule
'''

STRATEGY_HOLDING = '''
import threading
import mdp


@mdp.hookimpl
def mdp_strategies():
    held = {held}
    return [mdp.RoundsStrategy("holding", "points, by a function that holds something",
                               lambda game, model, keys, ends: (held, ends.points)[1])]
'''


@pytest.mark.slow  # the cluster: processes of its own
@pytest.mark.parametrize("holds", sorted(HOLDING))
def test_a_hook_that_cannot_be_sent_is_one_line_before_any_task(holds, cluster, tmp_path, capsys):
    address, client = cluster
    code, word = HOLDING[holds]
    rule, strategy = tmp_path / "rule_holding.py", tmp_path / "strategy_holding.py"
    rule.write_text(RULE_HOLDING.format(held=code))
    strategy.write_text(STRATEGY_HOLDING.format(held=code))
    assert main(["solve", TWO_BOXES, "-p", str(rule), "--exact"]) == 0  # on threads: fine
    assert "exact: 571/48" in capsys.readouterr().out
    with distributed.get_task_stream(client) as stream:
        assert main(["solve", TWO_BOXES, "-p", str(rule), "--scheduler", address]) == 2
        assert capsys.readouterr().err == (
            "mdp: error: game two-boxes: mdp_round_rule's function cannot be sent to the "
            f"cluster's workers (it holds a {word})\n")
        game = mdp.load_game(TWO_BOXES, plugins=[str(strategy)])
        model = mdp.compile(game)  # on threads; its strategy on the cluster
        with mdp.on_cluster(address):
            with pytest.raises(mdp.ModelError, match=r"^strategy holding's aims cannot be sent to "
                               rf"the cluster's workers \(it holds a {word}\)$"):
                mdp.evaluate(model, "holding", game=game)
    assert [task for task in stream.data if "_run" in str(task.get("key"))] == []  # no batch ran


GLOBAL_LOCK = '''
import threading
import mdp

LOCK = threading.Lock()


def _aims(game, model, keys, ends):
    with LOCK:
        return ends.points


@mdp.hookimpl
def mdp_strategies():
    return [mdp.RoundsStrategy("locked", "points, under a lock", _aims)]
'''


@pytest.mark.slow
def test_a_plugins_global_that_cannot_be_sent_is_named_by_its_module(cluster, tmp_path):
    """A strategy's aims are sent with the game, which carries its plugins' hooks: a plugin
    whose hooks hold a lock keeps every strategy off the cluster, its module named."""
    address, _ = cluster
    (tmp_path / "global_lock.py").write_text(GLOBAL_LOCK)
    game = mdp.load_game(TWO_BOXES, plugins=[str(tmp_path / "global_lock.py")])
    model = mdp.compile(game)
    with mdp.on_cluster(address):
        for name in ("greedy", "locked"):
            with pytest.raises(mdp.ModelError) as refused:
                mdp.evaluate(model, name, game=game)
            assert str(refused.value) == (f"strategy {name}'s aims cannot be sent to the cluster's "
                                          "workers (it holds a _thread.lock, in the module "
                                          "global_lock.py)")


# A game loaded by its path as a package: every module of it reaches the workers.

PACKAGE_INIT = '''
from two_boxes import *  # noqa: F403, the round and its columns
import two_boxes
import mdp

GAME_NAME = "package-boxes"


@mdp.hookimpl
def mdp_round_rule(ends):
    given = two_boxes.mdp_round_rule(ends)

    def rule(states):
        from . import helpers  # imported as it runs, on the workers too
        from .deeper.late import checked  # never imported here before the cluster asks
        return checked(helpers.same(given(states)))

    return rule
'''


@pytest.mark.slow
def test_a_package_game_imports_its_own_modules_on_the_workers(cluster, tmp_path, capsys):
    address, _ = cluster
    package = tmp_path / "package_boxes"
    (package / "deeper").mkdir(parents=True)
    (tmp_path / "two_boxes.py").write_text(Path(TWO_BOXES).read_text())
    (package / "__init__.py").write_text(PACKAGE_INIT)
    (package / "helpers.py").write_text("def same(ends):\n    return ends\n")
    (package / "deeper" / "__init__.py").write_text("")
    (package / "deeper" / "late.py").write_text("def checked(ends):\n    return ends\n")
    assert main(["solve", str(package), "--exact", "--scheduler", address]) == 0
    out = capsys.readouterr().out
    assert "exact: 571/48" in out  # the mean of two boxes, worked by hand (docs/examples)


# A game of rounds whose rule answers otherwise in another process than the one that loaded
# it (an environment variable, a file, the machine): 5 more points at every end there.
ELSEWHERE = '''
import os
import mdp
from two_boxes import *  # noqa: F403, the round and its columns
import two_boxes

GAME_NAME = "elsewhere-boxes"
HOME = os.getpid()  # sent by value: the loading process's number on the workers too


@mdp.hookimpl
def mdp_round_rule(ends):
    given = two_boxes.mdp_round_rule(ends)

    def rule(states):
        answer = given(states)
        bonus = 0 if os.getpid() == HOME else 5
        return mdp.RoundEnds(answer.next, answer.points + bonus)

    return rule
'''


@pytest.mark.slow
@pytest.mark.parametrize("exact", [[], ["--exact"]])
def test_a_rule_that_answers_otherwise_on_the_workers_is_refused(cluster, tmp_path, capsys, exact):
    """Round 19, F31: a round rule whose answers depend on where it runs had the cluster solve
    another game (42.16 for 47.16), exit 0. The workers' answers are now asked again here, a
    few round states of each batch, and a difference is one line naming the game, the hook
    and the round state."""
    address, _ = cluster
    (tmp_path / "two_boxes.py").write_text(Path(TWO_BOXES).read_text())
    (tmp_path / "elsewhere.py").write_text(ELSEWHERE)
    path = str(tmp_path / "elsewhere.py")
    assert main(["solve", path, *exact]) == 0  # in one process: one game, no fault
    capsys.readouterr()
    assert main(["solve", path, *exact, "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.fullmatch(
        r"mdp: error: game elsewhere-boxes: mdp_round_rule's function gave round state \d+ "
        r"\(filled=[^)]*\) other "
        r"ends on the cluster's workers than in this process; it must be a pure function of the "
        r"round states, the same wherever it runs \(not of an environment variable, a file or "
        r"the machine\)\n", err), err
