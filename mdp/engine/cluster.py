"""The batches of a game of rounds on a Dask cluster rather than on this process's threads.

The round states of one round are solved in batches that do not depend on one another
(:func:`~mdp.engine.rounds.kinds.each_batch`). By default the batches run side by side on
the threads of :mod:`mdp.engine.parallel`; inside :func:`on_cluster` they are handed to
the workers of a Dask scheduler instead (``mdp solve GAME --scheduler ADDRESS``): the same
work, each batch sent with what it reads (the model, the values of the round after it) and
its values sent back, in order. Exact batches go too: on a cluster each worker has its own
interpreter.

Dask is an optional extra (``pip install 'mdp[dask]'``). A game loaded by its path is
sent to the workers by value, so they need not see the file; an installed game, and mdp
itself, must be installed where the workers run. What a worker raises (a game's mistake,
say) is raised here, as it would be without a cluster.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from mdp.checks import Rule, arguments
from mdp.errors import ParamError

CONNECT_SECONDS = 10
"""How long a scheduler has to answer before :func:`on_cluster` gives up, in seconds."""

Item = TypeVar("Item")
Done = TypeVar("Done")

_client: Any = None


ADDRESS = Rule(lambda value: value is None or (isinstance(value, str) and value.strip() != ""
                                                and value == value.strip()),
               "the address of a Dask scheduler (a text such as 'tcp://127.0.0.1:8786') or None")


def on_cluster(address: str | None) -> AbstractContextManager[None]:
    """While inside (``with mdp.on_cluster(address):``), the batches of games of rounds run
    on the Dask cluster whose scheduler is at ``address`` (``"tcp://host:8786"``; ``None``:
    on this process's threads, as without it). Refused in one line
    (:class:`mdp.ParamError`) where Dask is not installed or no scheduler answers there
    within :data:`CONNECT_SECONDS`."""
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
        client.close()


def mapped(work: Callable[[Item], Done], items: Sequence[Item]) -> list[Done] | None:
    """What ``work`` gives each of ``items``, in their order, worked on the cluster that
    :func:`on_cluster` connected; ``None`` where there is none (the caller works them)."""
    if _client is None or not items:
        return None
    _by_value()
    return list(_client.gather(_client.map(work, list(items), pure=False)))


def _connect(address: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise ParamError("a Dask scheduler needs Dask's distributed, an optional extra: "
                         "pip install 'mdp[dask]'") from None
    client: Any = distributed.Client  # untyped
    try:
        _listening(address)
        return client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ParamError(f"no Dask scheduler answers at {address} ({reason}); start one "
                         "(dask scheduler) or leave the scheduler out to work on this "
                         "machine's threads") from None


def _listening(address: str) -> None:
    """Where the address is TCP's, whether anything listens there: a refusal is known at
    once, where Dask's client would try again until its time is out."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme == "tcp" and parts.hostname and parts.port:
        socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_SECONDS).close()


def _by_value() -> None:
    """Games and plugins loaded by their path (private modules, :mod:`mdp.game.files`) are
    sent by value: a worker has no such module to import."""
    import cloudpickle

    for name, module in list(sys.modules.items()):
        if name.startswith("_mdp_file_") and "." not in name:
            cloudpickle.register_pickle_by_value(module)
