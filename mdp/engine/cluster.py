"""The batches of a game of rounds on a Dask cluster rather than on this process's threads.

The round states of one round are solved in batches that do not depend on one another
(:func:`~mdp.engine.rounds.kinds.each_batch`). By default the batches run side by side on
the threads of :mod:`mdp.engine.parallel`; inside :func:`on_cluster` they are handed to
the workers of a Dask scheduler instead (``mdp solve GAME --scheduler ADDRESS``): the same
work, each batch sent with what it reads (the model, the values of the round after it) and
its values sent back, in order. Exact batches go too: on a cluster each worker has its own
interpreter.

Dask is an optional extra (``pip install 'exact-mdp[dask]'``). A game loaded by its path
is sent to the workers by value, so they need not see the file: a package whole, each of
its modules, imported there when its code asks. An installed game, and mdp itself (the same
version), must be installed where the workers run; :func:`on_cluster` makes sure of mdp on
each worker before any work. What a worker raises (a game's mistake, say) is raised here,
as it would be without a cluster.
"""

from __future__ import annotations

import os
import pickle
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from types import FunctionType, ModuleType
from typing import Any, TypeVar

from mdp.checks import Rule, arguments
from mdp.engine.shipped import Shipped, by_value, package_sources
from mdp.errors import MdpError, ModelError, ParamError
from mdp.imported import is_private

CONNECT_SECONDS = 10
"""How long a scheduler has to answer, as a Dask scheduler, before :func:`on_cluster` gives
up, in seconds."""

READY_SECONDS = 10
"""How long, once its scheduler answered, a cluster has to show at least one worker and to
run mdp's first task on each of its workers (a worker without mdp never does), in seconds."""

LOST_SECONDS = 5
"""How long a cluster may be without a worker while mdp's work waits on it (a worker may be
on its way back) before mdp gives up, saying that the workers went away, in seconds."""

Item = TypeVar("Item")
Done = TypeVar("Done")

_client: Any = None

ADDRESS = Rule(lambda value: value is None or (isinstance(value, str) and value.strip() != ""
                                                and value == value.strip()),
               "the address of a Dask scheduler (a text such as 'tcp://127.0.0.1:8786') or None")

INSTALL = "pip install 'exact-mdp[dask]'"
"""How to install the optional extra, as every message and page says it."""


def on_cluster(address: str | None) -> AbstractContextManager[None]:
    """While inside (``with mdp.on_cluster(address):``), the batches of games of rounds run
    on the Dask cluster whose scheduler is at ``address`` (``"tcp://host:8786"``; ``None``:
    on this process's threads, as without it). Refused in one line
    (:class:`mdp.ParamError`) where Dask is not installed, where nothing answers there as a
    Dask scheduler within :data:`~mdp.engine.cluster.CONNECT_SECONDS`, or where the cluster
    shows no worker, or a worker that does not run mdp's first task (mdp not installed
    there, or another version), within :data:`~mdp.engine.cluster.READY_SECONDS`."""
    arguments("on_cluster", address=(address, ADDRESS))
    return _connected(address)


@contextmanager
def _connected(address: str | None) -> Iterator[None]:
    global _client
    if address is None:
        yield
        return
    client = _connect(address)
    before, _client = _client, client
    try:
        yield
    finally:
        _client = before
        if before is None:
            _listeners.clear()
        client.close()


def mapped(work: Callable[[Item], Done], items: Sequence[Item]) -> list[Done] | None:
    """What ``work`` gives each of ``items``, in their order, worked on the cluster that
    :func:`on_cluster` connected; ``None`` where there is none (the caller works them).
    ``work`` is pickled once, here, before anything is sent: what cannot be sent to the
    workers is refused in one line (:class:`mdp.ModelError`) before any of them works."""
    if _client is None or not items:
        return None
    import functools

    by_value()
    run = functools.partial(_run, sent(work, "the work of a batch of round states").payload,
                            package_sources())
    futures = _client.map(run, list(items), pure=False)
    _awaited(_client, futures)
    done = list(_client.gather(futures))
    for _, reports in done:  # what was asked there, checked here (a round rule's answers)
        for token, report in reports:
            if (heard := _listeners.get(token)) is not None:
                heard(report)
    return [result for result, _ in done]


_listeners: dict[int, Callable[[Any], None]] = {}
"""In this process: by the token it was sent with, what hears the reports of a value sent to
the workers (:func:`listen`); emptied as the cluster is left."""

_worker = threading.local()
"""On a worker, for the task running on this thread: the reports of the values unpickled for
it (:func:`report`), sent back with its result."""


def listen(token: int, heard: Callable[[Any], None]) -> None:
    """Have ``heard(report)`` called here with each report that a value sent to the workers
    with ``token`` makes there (:func:`report`), once the batch it worked on is back: a round
    rule's answers on the workers, asked again here (:meth:`mdp.engine.rounds.rule.RoundRule`)."""
    _listeners[token] = heard


def report(token: int, make: Callable[[], Any]) -> None:
    """On a worker, as a value sent with ``token`` is unpickled for a task: ``make()``, called
    once the task is done, is sent back with its result to the listener here (:func:`listen`)."""
    reports = getattr(_worker, "reports", None)
    if reports is not None:
        reports.append((token, make))


def _awaited(client: Any, futures: list[Any]) -> None:
    """Wait here until every future is done (its value or its error): a cluster without a
    worker for :data:`LOST_SECONDS` is one line (:class:`mdp.MdpError`), where Dask would wait
    for one without end. Nothing of Dask's is left waiting when this is interrupted (Ctrl-C),
    so that closing the client prints nothing."""
    import distributed

    address = client.scheduler.address
    alone_since, asked = None, 0.0
    while not all(future.done() for future in futures):
        time.sleep(0.02)
        if time.monotonic() - asked < 0.5:
            continue
        asked = time.monotonic()
        try:
            workers = client.scheduler_info(n_workers=1)["workers"] if client.status == "running" else {}
        except (OSError, TimeoutError):  # the scheduler gone too
            workers = {}
        if workers:
            alone_since = None
        elif alone_since is None:
            alone_since = asked
        elif asked - alone_since >= LOST_SECONDS:
            raise _lost(address, f"no worker for {LOST_SECONDS} s")
    failed = next((f.exception() for f in futures if f.status == "error"), None)
    if isinstance(failed, distributed.KilledWorker):
        raise _lost(address, "the workers running one of its batches died, one after another")
    if any(f.cancelled() for f in futures):
        raise _lost(address, "its work was cancelled")


def _lost(address: str, reason: str) -> MdpError:
    return MdpError(f"the Dask workers of {address} went away during the work ({reason}); start "
                    f"some (dask worker {address}) and run again, or leave the scheduler out "
                    "to work on this machine's threads")


class Sent:
    """A value pickled for a cluster's workers (:func:`sent`): pickled again, it is its
    pickle, and unpickled there it is the value."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload

    def __reduce__(self) -> tuple[Any, ...]:
        import cloudpickle

        return cloudpickle.loads, (self.payload,)


def sent(value: Any, what: str) -> Sent:
    """``value`` pickled, as it is sent to a cluster's workers (functions of games and plugins
    loaded by their path by value). What holds code of a game or plugin says, in its
    ``__reduce__``, ``sent(function, "game NAME: HOOK's function")``, so that a function that
    cannot be pickled (it holds a lock, a socket) is named in one line
    (:class:`mdp.ModelError`): ``what`` cannot be sent to the cluster's workers."""
    import cloudpickle

    try:
        return Sent(cloudpickle.dumps(value))
    except ModelError:  # a part of it that says its own name
        raise
    except _UNPICKLABLE as error:
        why = _in_module(value) or _why(error)
        raise ModelError(f"{what} cannot be sent to the cluster's workers ({why})") from None


_UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError,
                ImportError, NotImplementedError, OSError)


def _in_module(value: Any) -> str | None:
    """Where what ``value`` cannot be pickled without is code of a game or plugin loaded by
    its path (a game carries its plugins' hooks), sent by value: why, and the first such
    module that cannot be (``it holds a _thread.lock, in the module rs_lock.py``); else
    ``None``."""
    import io

    import cloudpickle

    def private(obj: Any) -> bool:
        name = obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", None) \
            if isinstance(obj, (type, FunctionType)) else None
        return isinstance(name, str) and is_private(name)

    class StandIns(cloudpickle.Pickler):  # type: ignore[misc]  # untyped
        def reducer_override(self, obj: Any) -> Any:
            if private(obj):
                return str, ("",)  # a stand-in: this pickle is never read
            return super().reducer_override(obj)

    try:
        StandIns(io.BytesIO()).dump(value)
    except _UNPICKLABLE:
        return None  # not (only) in their code
    for name, module in list(sys.modules.items()):
        if is_private(name) and isinstance(module, ModuleType):
            try:
                cloudpickle.dumps(module)
            except _UNPICKLABLE as error:
                file = module.__file__ or name
                shown = os.path.basename(os.path.dirname(file) if hasattr(module, "__path__")
                                         else file)
                return f"{_why(error)}, in the module {shown}"
    return None


def _why(error: BaseException) -> str:
    """Why a value could not be pickled, in a few words: ``it holds a _thread.lock``."""
    text = _first_line(error)
    held = re.search(r"cannot pickle '([^']+)' object", text)
    return f"it holds a {held.group(1)}" if held else f"{type(error).__name__}: {text}"


def _run(work: bytes, sources: dict[str, tuple[str, str, bool]], item: Any) -> Any:
    """On a worker: the packages loaded by path made importable there, then ``work`` (its
    pickle) given ``item``."""
    import cloudpickle

    Shipped.install(sources)
    _worker.reports = []
    try:
        done = cloudpickle.loads(work)(item)
        return done, [(token, make()) for token, make in _worker.reports]
    finally:
        _worker.reports = None


def _connect(address: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise ParamError(f"a Dask scheduler needs Dask's distributed, an optional extra: {INSTALL}") \
            from None
    deadline = time.monotonic() + CONNECT_SECONDS
    _listening(address, deadline)
    _a_scheduler(address, deadline)
    make: Any = distributed.Client  # untyped
    try:
        client = make(address, timeout=max(1.0, deadline - time.monotonic()), set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise _no_scheduler(address, _first_line(error)) from None
    try:
        _ready(client, address)
    except BaseException:
        client.close()
        raise
    return client


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _no_scheduler(address: str, reason: str) -> ParamError:
    return ParamError(f"no Dask scheduler answers at {address} ({reason}); start one (dask "
                      "scheduler) or leave the scheduler out to work on this machine's threads")


def _listening(address: str, deadline: float) -> None:
    """Where the address is TCP's, whether anything listens there: a refusal is known at
    once, where Dask's client would try again until its time is out."""
    import socket
    from urllib.parse import urlsplit

    try:  # urlsplit refuses a host in brackets that is no IPv6 address ("tcp://[::1")
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        if parts.scheme == "tcp" and parts.hostname and parts.port:
            socket.create_connection((parts.hostname, parts.port),
                                     timeout=max(0.1, deadline - time.monotonic())).close()
    except (OSError, ValueError) as error:
        raise _no_scheduler(address, _first_line(error)) from None


def _a_scheduler(address: str, deadline: float) -> None:
    """Whether what answers at ``address`` is a Dask scheduler, asked by Dask's own
    protocol under a deadline of ours: something else there (a web server that waits, a
    service whose greeting Dask reads as the length of a message) is refused in one line,
    where Dask's client would wait forever or allocate exabytes."""
    import asyncio

    import distributed.comm.core

    connect: Any = distributed.comm.core.connect  # untyped

    async def identity() -> Any:
        comm = await connect(address, timeout=max(0.1, deadline - time.monotonic()))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answer: list[Any] = []

    def ask() -> None:  # a loop of its own: the caller's thread may be running one
        try:
            answer.append(asyncio.run(asyncio.wait_for(
                identity(), max(0.1, deadline - time.monotonic()))))
        except BaseException as error:  # noqa: BLE001  (said below, whatever it was)
            answer.append(error)

    asker = threading.Thread(target=ask, name="mdp-dask-identity", daemon=True)
    asker.start()
    asker.join()
    said = answer[0] if answer else None
    if isinstance(said, KeyboardInterrupt):
        raise said
    if isinstance(said, (TimeoutError, asyncio.TimeoutError)):
        reason = f"nothing answered as a Dask scheduler within {CONNECT_SECONDS} s"
    elif isinstance(said, MemoryError):
        reason = "what answers is not a Dask scheduler: it sent what Dask cannot read"
    elif isinstance(said, BaseException):
        reason = _first_line(said)
    elif not isinstance(said, dict) or said.get("type") != "Scheduler":
        kind = said.get("type") if isinstance(said, dict) else None
        reason = f"a Dask {kind}, not a scheduler, answers there" if isinstance(kind, str) \
            else "what answers is not a Dask scheduler"
    else:
        return
    raise _no_scheduler(address, reason)


def _ready(client: Any, address: str) -> None:
    """At least one worker, within :data:`READY_SECONDS`, and each running mdp's probe task
    (:func:`_probe`): mdp importable there, and the same version and Python as here."""
    deadline = time.monotonic() + READY_SECONDS
    try:
        client.wait_for_workers(1, timeout=READY_SECONDS)
    except (TimeoutError, OSError):
        raise ParamError(f"the Dask scheduler at {address} has no workers (none came within "
                         f"{READY_SECONDS} s); start some (dask worker {address})") from None
    workers = sorted(client.scheduler_info(n_workers=-1)["workers"])
    probes = [client.submit(_probe, workers=[worker], allow_other_workers=False, pure=False)
              for worker in workers]
    here = _probe()
    need = (f"mdp must be installed on every worker, the same version as here (exact-mdp "
            f"{here[0]}, Python {here[1]})")
    gone: list[str] = []
    try:
        for worker, probe in zip(workers, probes, strict=True):
            try:
                there = probe.result(timeout=max(0.1, deadline - time.monotonic()))
            except (TimeoutError, OSError):
                why = f"it did not run mdp's first task within {READY_SECONDS} s"
            except Exception as error:  # noqa: BLE001  (what the worker raised, said)
                why = f"it raised {type(error).__name__}: {_first_line(error)}"
            else:
                if there == here:
                    continue
                why = f"it runs exact-mdp {there[0]}, Python {there[1]}"
            if worker not in client.scheduler_info(n_workers=-1)["workers"]:
                gone.append(worker)  # it died: killed, or its mdp; the others may work
                continue
            raise ParamError(f"the Dask worker {worker} of {address} cannot run mdp's work "
                             f"({why}): {need}")
        if len(gone) == len(workers):
            raise ParamError(f"the Dask worker{'s' * (len(gone) > 1)} of {address} went away "
                             "while mdp's first task was asked of them (killed, or they cannot "
                             f"run mdp's work); if none was killed: {need}")
    finally:
        for probe in probes:
            probe.release()


def _probe() -> tuple[str, str]:
    """mdp's version and Python's (``3.11``), where it runs: pickled by reference, it runs on
    a worker only where mdp can be imported."""
    import mdp

    return str(mdp.__version__), f"{sys.version_info[0]}.{sys.version_info[1]}"
