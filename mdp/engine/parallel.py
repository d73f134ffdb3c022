"""Pieces of one large array operation side by side on the processor's cores.

numpy lets go of Python's lock while it loops over an array of machine numbers (a gather,
a sum, a maximum), so pieces of such work run at the same time in threads: each piece
reads what it needs and writes its own part of the result. Work on Python objects (exact
big integers) holds the lock, and is done a piece at a time as before.

The number of threads is ``MDP_THREADS`` where set, else the cores this process may run on,
at most :data:`DEFAULT_MOST`.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from mdp.checks import INT64, OPTIONAL_SIZE, arguments
from mdp.errors import ParamError, TooLarge

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

DEFAULT_MOST = 4
"""Threads used unless ``MDP_THREADS`` says otherwise: each holds a piece's temporaries (tens
of megabytes), and beyond a few the pieces only wait for the same memory."""

MOST = 1024
"""The most threads ``MDP_THREADS`` may ask for: far more than any machine's cores, and each
a thread of the operating system's."""

MAX_SLICES = 1 << 22
"""The most slices :func:`slices` makes: more (of at least one item each) would be a list
of hundreds of megabytes, and arrays of more items than any memory holds."""

SLICE = 1 << 20
"""Items of one array that a thread takes at a time (see :func:`slices`): a few megabytes."""

SMALL = 1 << 16
"""Items of work below which :func:`beside` does it at once: handing it to another thread
would cost more than it saves."""

_local = threading.local()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_pid = 0


def threads() -> int:
    """The number of threads pieces of work run on: ``MDP_THREADS``, checked, or the cores
    this process may use (at most :data:`DEFAULT_MOST`)."""
    given = thread_count("MDP_THREADS")
    if given is not None:
        return given
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, DEFAULT_MOST))


_pinned: dict[str, int | None] = {}  # read once, where the process's owner pinned them


def pin(*variables: str) -> None:
    """Read each variable of threads now, once: later readings give this value, whatever the
    environment says by then (code run since cannot change what was decided). ``unpin()``
    reads them afresh again."""
    for variable in variables:
        _pinned.pop(variable, None)
        _pinned[variable] = thread_count(variable)


def unpin() -> None:
    _pinned.clear()


def thread_count(variable: str) -> int | None:
    """The number of threads the environment variable ``variable`` asks for, ``None`` where
    it is unset: the one reading of every variable of threads (``MDP_THREADS``,
    ``POLARS_MAX_THREADS``), a whole number from 1 to :data:`MOST` in plain digits alone, as
    Polars reads its own (a blank, a sign or an empty value is refused, not passed over)."""
    if variable in _pinned:
        return _pinned[variable]
    text = os.environ.get(variable)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MOST:
        raise ParamError(f"{variable}={text!r}: expected a whole number of threads, from 1 to "
                         f"{MOST} in plain digits (or leave it unset)")
    return int(text)


def side_by_side(work: Callable[[Any], None], items: Iterable[Any], *, locked: bool = False) -> None:
    """Call ``work(item)`` for every item, on :func:`threads` threads where there are several
    items, this one among them (so that the work goes on while the pool is busy with work
    started :func:`beside`). The first error raised, in the items' order, is raised here
    once every thread has stopped; after an error no new item is begun. Work that holds
    Python's lock (``locked``: arithmetic on Python objects) would only wait for it: its
    items are done one after another, here, as is work within an item (the threads are
    busy with the other items)."""
    items = list(items)
    count = min(threads(), len(items))
    if count < 2 or locked or getattr(_local, "worker", False):
        for item in items:
            work(item)
        return
    taken = iter(range(len(items)))
    take = threading.Lock()
    errors: dict[int, BaseException] = {}

    def run() -> None:
        was = getattr(_local, "worker", False)
        _local.worker = True  # work within an item is done in its own thread
        try:
            while not errors:
                with take:
                    i = next(taken, None)
                if i is None:
                    return
                try:
                    work(items[i])
                except BaseException as error:  # Ctrl-C too: the others stop at their next item
                    errors[i] = error
        finally:
            _local.worker = was

    helpers = [_executor().submit(run) for _ in range(count - 1)]
    try:
        run()
        for helper in helpers:
            helper.result()
    except BaseException as error:  # Ctrl-C while waiting: the helpers stop at their next item
        errors.setdefault(len(items), error)
        raise
    if errors:
        raise errors[min(errors)]


def slices(stop: int, start: int = 0, size: int | None = None) -> list[slice]:
    """``range(start, stop)`` as consecutive slices of ``size`` items (:data:`SLICE` unless
    given): the pieces of one array that :func:`side_by_side` hands to its threads, or that
    a batch game expands a chunk at a time."""
    arguments("slices", stop=(stop, INT64), start=(start, INT64), size=(size, OPTIONAL_SIZE))
    size = size or SLICE
    if (stop - start) // size > MAX_SLICES:
        raise TooLarge(f"mdp.slices: {stop - start:,} items in slices of {size:,}: more than "
                       f"{MAX_SLICES:,} slices")
    return [slice(at, min(at + size, stop)) for at in range(start, stop, size)]


def beside(size: int, work: Callable[..., Any], *args: Any) -> Future[Any] | Done:
    """Start ``work(*args)`` on another thread, and return its future: its result, or its
    error, once done. Small work (``size`` items, fewer than :data:`SMALL`), or any with one
    thread (``MDP_THREADS=1``), is done at once, here (and no thread is started, nor
    :mod:`concurrent.futures` imported, for the small games whose whole solve takes a tenth
    of a second)."""
    if size >= SMALL and threads() > 1:
        return _executor().submit(work, *args)
    return Done(work, *args)


class Done:
    """Work done at once, read as its future would be: :meth:`result` gives its result or
    raises its error."""

    def __init__(self, work: Callable[..., Any], *args: Any) -> None:
        self.value, self.error = None, None
        try:
            self.value = work(*args)
        except Exception as error:
            self.error = error

    def done(self) -> bool:
        return True

    def result(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.value


def _executor() -> ThreadPoolExecutor:
    """One pool of threads for the process, made on first use, and again if the number of
    threads asked for changes or in a child process forked since (which has none of its
    parent's threads: work handed to the parent's pool would wait for ever)."""
    global _pool, _pool_size, _pool_pid
    count = threads()
    if _pool is None or _pool_size != count or _pool_pid != os.getpid():
        from concurrent.futures import ThreadPoolExecutor

        if _pool is not None and _pool_pid == os.getpid():
            _pool.shutdown(wait=True)
        _pool = ThreadPoolExecutor(count, thread_name_prefix="mdp", initializer=_mark_worker)
        _pool_size, _pool_pid = count, os.getpid()
    return _pool


def _mark_worker() -> None:
    _local.worker = True


class one_blas_thread:
    """While inside, the matrix products of numpy's BLAS run on one thread (OpenBLAS; with
    any other BLAS nothing changes): the pieces of a sweep already run side by side, and a
    BLAS that starts threads of its own for each of them only makes them wait for cores."""

    def __enter__(self) -> None:
        control = _blas_threads()
        self.before = control[1]() if control else None
        if control and self.before != 1:
            control[0](1)

    def __exit__(self, *exc: object) -> None:
        control = _blas_threads()
        if control and self.before not in (None, 1):
            control[0](self.before)


@functools.cache
def _blas_threads() -> tuple[Callable[[int], None], Callable[[], int]] | None:
    """OpenBLAS's calls to set and get its number of threads, from the copy numpy loaded."""
    try:
        import ctypes

        import numpy  # noqa: F401  (loads its BLAS)

        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
        for path in sorted(paths):
            library = ctypes.CDLL(path)
            for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""),
                                   ("openblas", "")):
                setter = getattr(library, f"{prefix}_set_num_threads{suffix}", None)
                getter = getattr(library, f"{prefix}_get_num_threads{suffix}", None)
                if setter is not None and getter is not None:
                    getter.restype = ctypes.c_int
                    return (lambda n, setter=setter: setter(ctypes.c_int(n))), getter
    except (OSError, AttributeError):  # not Linux, or no OpenBLAS: nothing to do
        pass
    return None
