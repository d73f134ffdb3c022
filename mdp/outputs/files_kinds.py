"""What a file mdp writes is, and what its writer left of it (:mod:`mdp.outputs.files`):
a device, a pipe or standard output, written into where it is; a file being written that its
writer (a plugin's format) closed, removed, or replaced with a folder or a link, refused and
blamed on the writer, not on the user's target."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
from typing import Any, BinaryIO

from mdp.errors import MdpError, ModelError, ParamError

writers: list[str | None] = []  # who writes each file being written, where it said so


def written_by(name: str) -> None:
    """Say that ``name`` (``"plugin fmt.py's format weird"``) writes the file being written
    (:func:`mdp.outputs.files.write_together`): a writer that removes, replaces or closes
    its file is blamed."""
    if writers:
        writers[-1] = name


def kind(path: str) -> str | None:
    """What ``path`` is, where it is no regular file: ``"a folder"``, ``"a symbolic
    link"``...; ``None`` for a regular file."""
    import stat

    mode = os.lstat(path).st_mode
    kinds = [(stat.S_ISREG, None), (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"),
             (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket")]
    return next((said for test, said in kinds if test(mode)), "a device")


def kept(file: BinaryIO, temporary: str, path: str) -> None:
    """Refuse, blaming its writer, a file being written that the writer closed, removed,
    renamed, replaced (a folder, a link in its place) or cut short: "N rows written", else, with no
    table. Where the writer is mdp's own, another program did it: said so, blaming none."""
    who = writers[-1] or f"the writer of {path}"
    try:
        ours = os.fstat(file.fileno())
    except (OSError, ValueError):
        fault, done = "closed the file it was writing", "closed"
    else:
        try:
            said = kind(temporary)
            there = os.lstat(temporary)
        except FileNotFoundError:
            fault, done = "removed or renamed the file it was writing", "removed or renamed"
        else:
            fault, done = (f"made {said} where it was to write a file", f"replaced by {said}") if said \
                else ("replaced the file it was writing", "replaced") if \
                (there.st_dev, there.st_ino) != (ours.st_dev, ours.st_ino) else \
                ("cut short the file it was writing", "cut short") if _cut(file) else ("", "")
    if fault:
        with contextlib.suppress(OSError, ValueError):
            file.close()  # what it holds goes nowhere: not an error of the user's target
        if not who.startswith("plugin "):  # mdp's own writer: another program did it
            raise MdpError(f"cannot write to {path}: the file being written "
                           f"({os.path.basename(temporary)}, or its folder) was {done} while "
                           "mdp wrote it")
        raise ModelError(f"{who} {fault}; it writes {path} through the file it is given")


def _cut(file: BinaryIO) -> bool:
    """Whether the file being written holds less than was written to it: another hand cut
    it short (a thread of a game's, left running, that truncates it)."""
    try:
        file.flush()
        return os.fstat(file.fileno()).st_size < file.tell()
    except (OSError, ValueError):  # a writer's own file object that cannot say: left be
        return False


def special(path: str) -> bool:
    """Whether ``path`` is an existing file that is not a regular file (a device, a pipe),
    standard output (``/dev/stdout``, whatever it was sent to) or another file descriptor
    (``/dev/fd/3``, ``/dev/stderr``): written into, never replaced by a file of its own."""
    import stat

    if is_standard_output(path) or descriptor(path) is not None:
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def open_special(path: str) -> BinaryIO:
    """A device or a pipe, opened to write. A pipe no one reads yet is waited for in short
    naps, not in one call that blocks until a reader comes: Ctrl-C, whose signal may reach
    another thread than the one blocked, would wait as long."""
    import stat
    import time

    if is_standard_output(path):  # through mdp's own: file descriptor 1 is standard error's
        out = standard_output()
        out.flush()
        with contextlib.suppress(OSError, ValueError, AttributeError):  # (no descriptor: by name)
            return os.fdopen(_copy(out.fileno()), "wb")
    number = descriptor(path)
    if number is not None:  # the descriptor itself, at its offset, as the shell would write
        return os.fdopen(_copy(number), "wb")
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


def standard_output() -> Any:
    """The standard output mdp prints to: the program's own (:mod:`mdp.program.stdout`),
    where the program runs; else ``sys.stdout`` (the Python API imports nothing of it)."""
    program = sys.modules.get("mdp.program.stdout")
    return program.stdout() if program is not None else sys.stdout


_NAMED = re.compile(r"/(?:dev/fd|proc/(?:self|thread-self|(\d+))(?:/task/\d+)?/fd)/(\d+)")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _named(path: str) -> int | None:
    """The descriptor of this process that ``path`` names (``/dev/fd/3``, ``/dev/stdout``,
    ``/proc/self/fd/1``, or a link to one, followed one link at a time); ``None`` where it
    names none."""
    here = os.path.abspath(path)
    for _ in range(40):
        if here in _STANDARD:
            return _STANDARD[here]
        match = _NAMED.fullmatch(here)
        if match is not None and match.group(1) in (None, str(os.getpid())):
            return int(match.group(2))
        try:
            here = os.path.normpath(os.path.join(os.path.dirname(here), os.readlink(here)))
        except OSError:
            return None
    return None


def descriptor(path: str) -> int | None:
    """The file descriptor ``path`` names (``/dev/fd/3``, ``/dev/stdout``, ``/proc/self/fd/1``,
    a link to one), where it names one; refused where the program runs
    (:mod:`mdp.program.descriptors`) and the descriptor was not open as it started (mdp's
    own may have taken its number since): no file the user gave."""
    number = _named(path)
    program = sys.modules.get("mdp.program.descriptors")
    if number is None or program is None or program.given(number) is not False:
        return number
    if number < 3:  # (standard output: refused as printing to it is)
        stream = ("input", "output", "error")[number]
        raise ParamError(f"{path} is standard {stream}, which is closed; redirect it to a "
                         "file, or name another file")
    raise ParamError(f"{path}: cannot write: file descriptor {number} was not open when mdp "
                     f"started (open it for mdp, as {number}>FILE does, or name a file)")


def _copy(number: int) -> int:
    """A copy of descriptor ``number``: above those the command was given, where the program
    runs (:func:`mdp.program.descriptors.copy`)."""
    program = sys.modules.get("mdp.program.descriptors")
    return program.copy(number) if program is not None else os.dup(number)


def is_standard_output(path: str) -> bool:
    """Whether ``path`` is the command's standard output: a name of the process's file
    descriptor 1 (``/dev/stdout``, ``/proc/self/fd/1``, a link to one), which mdp writes
    into through its own standard output (:func:`mdp.program.stdout.take`), or the file standard output was
    sent to (``> t.csv``, a link to it); a device of characters (a terminal, the null
    device) is no one's alone. A name of another descriptor is not, whatever file it holds."""
    import stat

    number = descriptor(path)
    if number is not None:
        return number == 1
    try:
        that, ours = os.stat(path), os.fstat(standard_output().fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return not stat.S_ISCHR(ours.st_mode) and (that.st_dev, that.st_ino) == (ours.st_dev, ours.st_ino)
