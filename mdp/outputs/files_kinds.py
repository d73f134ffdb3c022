"""What a file mdp writes is, and what its writer left of it (:mod:`mdp.outputs.files`):
a device, a pipe or standard output, written into where it is; a file being written that its
writer (a plugin's format) closed, removed, or replaced with a folder or a link, refused and
blamed on the writer, not on the user's target."""

from __future__ import annotations

import contextlib
import errno
import os
from typing import BinaryIO

from mdp.errors import ModelError

_writers: list[str | None] = []  # who writes each file being written, where it said so


def written_by(name: str) -> None:
    """Say that ``name`` (``"plugin fmt.py's format weird"``) writes the file being written
    (:func:`mdp.outputs.files.write_together`): a writer that removes, replaces or closes
    its file is blamed."""
    if _writers:
        _writers[-1] = name


def kind(path: str) -> str | None:
    """What ``path`` is, where it is no regular file: ``"a folder"``, ``"a symbolic
    link"``...; ``None`` for a regular file."""
    import stat

    mode = os.lstat(path).st_mode
    kinds = [(stat.S_ISREG, None), (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"),
             (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket")]
    return next((said for test, said in kinds if test(mode)), "a device")


def _kept(file: BinaryIO, temporary: str, path: str) -> None:
    """Refuse, blaming its writer, a file being written that the writer closed, removed,
    renamed or replaced (a folder, a link in its place): "N rows written", else, with no
    table."""
    who = _writers[-1] or f"the writer of {path}"
    try:
        ours = os.fstat(file.fileno())
    except (OSError, ValueError):
        fault = "closed the file it was writing"
    else:
        try:
            said = kind(temporary)
            there = os.lstat(temporary)
        except FileNotFoundError:
            fault = "removed or renamed the file it was writing"
        else:
            fault = f"made {said} where it was to write a file" if said else \
                "replaced the file it was writing" if \
                (there.st_dev, there.st_ino) != (ours.st_dev, ours.st_ino) else ""
    if fault:
        with contextlib.suppress(OSError, ValueError):
            file.close()  # what it holds goes nowhere: not an error of the user's target
        raise ModelError(f"{who} {fault}; it writes {path} through the file it is given")



def _special(path: str) -> bool:
    """Whether ``path`` is an existing file that is not a regular file (a device, a pipe),
    or standard output (``/dev/stdout``, whatever it was sent to)."""
    import stat

    from mdp.program.stdout import is_standard_output

    if is_standard_output(path):
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _open_special(path: str) -> BinaryIO:
    """A device or a pipe, opened to write. A pipe no one reads yet is waited for in short
    naps, not in one call that blocks until a reader comes: Ctrl-C, whose signal may reach
    another thread than the one blocked, would wait as long."""
    import stat
    import time

    from mdp.program.stdout import is_standard_output, stdout

    if is_standard_output(path):  # through mdp's own: file descriptor 1 is standard error's
        out = stdout()
        out.flush()
        with contextlib.suppress(OSError, ValueError, AttributeError):  # (no descriptor: by name)
            return os.fdopen(os.dup(out.fileno()), "wb")
    if not stat.S_ISFIFO(os.stat(path).st_mode):
        return open(path, "wb")
    while True:
        try:
            handle = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
            time.sleep(0.05)  # the signal's handler runs here, or as it ends
            continue
        os.set_blocking(handle, True)
        return os.fdopen(handle, "wb")
