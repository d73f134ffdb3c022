"""The file descriptors the command was given: those open when mdp started (0 to 2 and any
the shell passed, ``3>file``), recorded at the very start of the program, before anything
else opens one. A file named by a descriptor (``/dev/fd/N``, ``/proc/self/fd/N``,
``/dev/stdout``, a link to one) names the descriptor as it was then: one not open then is no
file the user gave, though a descriptor of mdp's own may have taken its number since
. A standard descriptor that was closed (``mdp ... >&-``) is held by the null
device from the start, so that no file or thread opened later takes its number; and mdp's own
copies of descriptors are numbered above every one the user gave (:func:`copy`). Which
descriptor a name names: :func:`mdp.outputs.files_kinds.descriptor`."""

from __future__ import annotations

import contextlib
import os

_OPEN: list[frozenset[int]] = []  # the descriptors open as the command started, while it runs


def _open_now() -> frozenset[int]:
    """The descriptors open in this process now."""
    try:
        listed = [int(name) for name in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):  # no /proc: the standard three, and the next few
        listed = list(range(64))
    found = set()
    for number in listed:  # (the folder's own descriptor, listed, is closed by now)
        try:
            os.fstat(number)
        except OSError:
            continue
        found.add(number)
    return frozenset(found)


def record() -> bool:
    """Record the descriptors open now, for the command that runs until :func:`forget`; a
    standard one closed is given the null device, before any other file can take its number,
    opened the other way (standard output to read): what is written there fails as on a
    descriptor closed.
    Recorded already (the program, then its command line), the first record stands: ``False``."""
    if _OPEN:
        return False
    found = _open_now()
    for number in range(3):
        if number not in found:
            with contextlib.suppress(OSError):
                handle = os.open(os.devnull, os.O_WRONLY if number == 0 else os.O_RDONLY)
                if handle != number:
                    os.dup2(handle, number)
                    os.close(handle)
    _OPEN.append(found)
    return True


def forget(recorded: bool) -> None:
    """The command ended: forget the record that :func:`record` made (``recorded``)."""
    if recorded:
        _OPEN.clear()


def given(number: int) -> bool | None:
    """Whether descriptor ``number`` was open as the command started; ``None`` where no
    command runs (the Python API): unknown."""
    return (number in _OPEN[0]) if _OPEN else None


def copy(number: int) -> int:
    """A copy of descriptor ``number`` numbered above every descriptor the command was given,
    closed on ``exec``: a name the user writes (``/dev/fd/3``) never reaches it."""
    floor = max([2, *(_OPEN[0] if _OPEN else ())]) + 1
    try:
        import fcntl
    except ImportError:  # no fcntl (Windows): the lowest number free
        return os.dup(number)
    return fcntl.fcntl(number, fcntl.F_DUPFD_CLOEXEC, floor)
