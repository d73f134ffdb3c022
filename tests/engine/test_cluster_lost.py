"""A cluster that loses its workers while mdp's work waits on it is one line (the workers
went away) within seconds, never a wait without end; nothing of Dask's or asyncio's is
printed, interrupted or not. Its one worker (a process of a local cluster) is killed while
a batch runs, or while mdp's first task is asked of it."""

import contextlib
import functools
import os
import signal
import threading
import time

import pytest

import mdp

distributed = pytest.importorskip("distributed")
cluster_module = pytest.importorskip("mdp.engine.cluster")

pytestmark = [pytest.mark.xdist_group("dask-cluster"), pytest.mark.slow]


def _kill_the_worker(cluster, after):
    """In ``after`` seconds, kill the cluster's one worker process; its nanny brings none back."""
    nanny = next(iter(cluster.workers.values()))
    nanny.auto_restart = False

    def kill():
        time.sleep(after)
        os.kill(nanny.process.process.pid, signal.SIGKILL)
        cluster.scale(0)  # and none comes back, however busy the machine

    threading.Thread(target=kill, daemon=True).start()


@pytest.fixture
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster
        # Its worker killed, not waited on: one still in a task (mdp's sleep of a minute,
        # interrupted here) held the cluster's closing for seconds.
        for nanny in list(cluster.workers.values()):
            nanny.auto_restart = False
            if nanny.process is not None and nanny.process.process is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(nanny.process.process.pid, signal.SIGKILL)


def test_the_workers_going_away_mid_work_is_one_line_in_seconds(cluster, monkeypatch, capfd):
    monkeypatch.setattr(cluster_module, "LOST_SECONDS", 1)
    address = cluster.scheduler_address
    with mdp.on_cluster(address):
        _kill_the_worker(cluster, 1.0)
        began = time.monotonic()
        with pytest.raises(mdp.MdpError) as lost:
            cluster_module.mapped(functools.partial(time.sleep), [60, 60])
        assert time.monotonic() - began < 10
    assert str(lost.value).startswith(f"the Dask workers of {address} went away during the work "
                                      "(no worker for 1 s); start some")
    assert "\n" not in str(lost.value)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "AllExit" not in err and "Task exception" not in err


def test_an_interruption_while_waiting_prints_nothing_of_dask(cluster, capfd):
    with mdp.on_cluster(cluster.scheduler_address):
        main = threading.get_ident()
        import _thread

        threading.Timer(1.0, lambda: _thread.interrupt_main()).start()
        with pytest.raises(KeyboardInterrupt):
            cluster_module.mapped(functools.partial(time.sleep), [60])
        assert threading.get_ident() == main
    time.sleep(0.5)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "AllExit" not in err and "Task exception" not in err


def test_a_worker_that_dies_during_the_ready_check_is_not_blamed_on_its_mdp(cluster, monkeypatch):
    monkeypatch.setattr(cluster_module, "READY_SECONDS", 3)
    address = cluster.scheduler_address
    worker = next(iter(cluster.workers.values()))
    worker.auto_restart = False
    os.kill(worker.process.process.pid, signal.SIGSTOP)  # it hangs, then dies, mid-check

    def kill():
        time.sleep(1.5)
        os.kill(worker.process.process.pid, signal.SIGKILL)

    threading.Thread(target=kill, daemon=True).start()
    with pytest.raises(mdp.ParamError) as refused:
        with mdp.on_cluster(address):
            pytest.fail("connected to a cluster whose one worker died")
    said = str(refused.value)
    assert said.startswith(f"the Dask worker of {address} went away while mdp's first task was "
                           "asked of them (killed, or they cannot run mdp's work); if none was "
                           "killed: mdp must be installed")
