"""Writing files so that an error, Ctrl-C or SIGTERM leaves no half-written output: the
target is checked before any work starts, then written to a temporary file beside it and
renamed over it only once complete. A symbolic link is written through (the file it names
is replaced, the link stays), a file replaced keeps its permissions, and a device or a pipe
(``/dev/null``, a FIFO) is written into, never replaced."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import BinaryIO

from mdp.errors import MdpError, interrupt


def check_target(path: str) -> None:
    """Refuse, before any work, a target that cannot be written: an empty name, a folder
    that does not exist or is not writable, or an existing folder in its place."""
    if not path:
        raise MdpError("an empty file name was given as the output; name a file")
    if os.path.isdir(path):
        raise MdpError(f"{path}: is a folder; name a file to write")
    if _special(path):  # a device or a pipe: written into, where it may be
        if not os.access(path, os.W_OK):
            raise MdpError(f"{path}: the file exists and is not writable")
        return
    path = os.path.realpath(path)  # through a link, to the file it names
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise MdpError(f"{path}: folder {folder} does not exist")
    try:  # the only sure test, also for root, /proc and read-only file systems
        handle, probe = _beside(path, folder)
    except OSError as error:
        raise MdpError(f"{path}: cannot write in folder {folder}: {error.strerror or error}") from None
    os.close(handle)
    os.unlink(probe)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise MdpError(f"{path}: the file exists and is not writable")


def write_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it over ``path``.

    On any error, Ctrl-C or SIGTERM the temporary file is removed and ``path`` is untouched;
    an operating-system error becomes one :class:`~mdp.MdpError` naming ``path``, not the
    temporary file.
    """
    write_together([(path, write)])


def write_together(files: list[tuple[str, Callable[[BinaryIO], None]]]) -> None:
    """Write a set of files all or nothing (a model and the property beside it): each to a
    temporary file beside it, and only once every one is complete, each renamed over its
    target. On any error, Ctrl-C or SIGTERM the temporary files are removed and no target is
    touched. A device or a pipe among them is written into last."""
    staged: list[tuple[str, str, int]] = []  # temporary, target, permissions
    path = files[0][0] if files else ""
    with _terminate_as_interrupt():
        try:
            for path, write in files:
                if _special(path):
                    continue
                target = os.path.realpath(path)  # through a link: the link stays
                try:
                    mode = os.stat(target).st_mode & 0o7777  # a file replaced keeps them
                except OSError:
                    mode = 0o666 & ~_umask()
                handle, temporary = _beside(target, os.path.dirname(target))
                staged.append((temporary, target, mode))
                with os.fdopen(handle, "wb") as file:
                    write(file)
                os.chmod(temporary, mode)
            for temporary, target, _ in staged:
                os.replace(temporary, target)
            staged = []
            for path, write in files:  # nothing to replace, nothing to leave behind
                if _special(path):
                    with open(path, "wb") as file:
                        write(file)
        except BaseException as error:
            for temporary, _, _ in staged:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
            if isinstance(error, OSError):
                raise MdpError(f"{path}: cannot write: {error.strerror or error}") from None
            raise


class _terminate_as_interrupt:
    """While writing, SIGTERM raises KeyboardInterrupt, so that the clean-up above runs."""

    def __enter__(self):
        import signal  # when a file is written: see _beside

        self.signal, self.previous = signal, None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, interrupt)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            self.signal.signal(self.signal.SIGTERM, self.previous)


def _special(path: str) -> bool:
    """Whether ``path`` is an existing file that is not a regular file: a device, a pipe."""
    import stat

    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _beside(path: str, folder: str) -> tuple[int, str]:
    """A new hidden file in ``folder`` named after ``path``: its handle and name."""
    # The tempfile and signal modules are imported only when a file is written: listing
    # the commands (mdp --help), which imports this module, does without their start-up.
    import tempfile

    return tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=folder)
