"""The batches of a game of rounds on a Dask cluster (mdp.on_cluster, --scheduler): a local
cluster of two worker processes gives what this process's threads give, to the last bit and
exactly; what cannot connect is refused in one line, before any work."""

import socket
import sys
from pathlib import Path

import numpy as np
import pytest

import mdp
from mdp.program.cli import main

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
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


def test_no_scheduler_there_is_one_line_at_once(capsys):
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert main(["solve", TWO_BOXES, "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: no Dask scheduler answers at tcp://127.0.0.1:{port} (")
    assert err.count("\n") == 1


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


def test_without_dask_the_extra_is_named(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    assert main(["solve", TWO_BOXES, "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err == ("mdp: error: a Dask scheduler needs Dask's distributed, an "
                                       "optional extra: pip install 'mdp[dask]'\n")
