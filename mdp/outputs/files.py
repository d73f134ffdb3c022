"""Writing files so that an error, Ctrl-C, SIGTERM or SIGHUP leaves no half-written output: the
target is checked before any work starts, then written to a temporary file beside it and
renamed over it only once complete. A symbolic link is written through (the file it names
is replaced, the link stays), a file replaced keeps its permissions, and a device or a pipe
(``/dev/null``, a FIFO) is written into, never replaced."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Iterator
from importlib.util import source_from_cache  # not in the audit hook: it may run mid-import
from typing import BinaryIO

from mdp.errors import MdpError, ParamError, deferring, say, terminations_interrupt
from mdp.imported import IMPORTED, RECORDING
from mdp.outputs.files_kinds import kept, open_special, special, writers
from mdp.outputs.files_kinds import kind as kind
from mdp.outputs.files_kinds import written_by as written_by
from mdp.owner import own_process


def check_target(path: str, what: str | None = None) -> None:
    """Refuse, before any work, a target that cannot be written: an empty name, a folder
    that does not exist or is not writable, an existing folder in its place, or a file the
    command reads (:func:`reading`). ``what`` names the target in the command (``--out``,
    ``--plot``): within :func:`together`, a second target that is the same file (under
    another name, through a link, or named twice) is refused, since one would be lost."""
    if not path:
        raise ParamError("an empty file name was given as the output; name a file")
    where = absolute(path)
    if os.path.isdir(where) or os.fspath(path).endswith(("/", os.sep)):  # a folder, or named as one
        raise ParamError(f"{path}: is a folder{'' if os.path.isdir(where) else ' (it ends in /)'}; "
                         "name a file to write")
    if _held is not None:
        _held.claim(path, what)
    if special(where):  # a device or a pipe: written into, where it may be
        if not os.access(where, os.W_OK):
            raise ParamError(f"{path}: the file exists and is not writable")
        return
    try:  # a link is written through: one in a loop names no file to write
        os.stat(where)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ParamError(f"{path}: a symbolic link in a loop, which names no file (the "
                             f"system says: {error.strerror}); name a file") from None
    path = os.path.realpath(where)  # through a link, to the file it names
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        above = next(part for part in _above(folder) if os.path.lexists(part) or part == os.sep)
        raise ParamError(f"{path}: {above} is a file, not a folder" if os.path.exists(above)
                         and not os.path.isdir(above) else f"{path}: folder {folder} does not exist")
    longest = _name_max(folder)
    if len(os.fsencode(os.path.basename(path))) > longest:
        raise ParamError(f"{path}: the file's name is too long for folder {folder} (at most "
                         f"{longest} bytes)")
    try:  # the only sure test, also for root, /proc and read-only file systems
        with deferring():  # made and removed whole: a signal waits
            handle, probe = _beside(path, folder)
            os.close(handle)
            os.unlink(probe)
    except OSError as error:
        # What the system said is of a file made there (/proc: "No such file or directory"),
        # not of the folder, which exists.
        raise ParamError(f"{path}: cannot make a file in folder {folder}; the system says of a "
                         f"new file there: {error.strerror or error}") from None
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise ParamError(f"{path}: the file exists and is not writable")


def write_atomically(path: str, write: Callable[[BinaryIO], object]) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it over ``path``.

    On any error, Ctrl-C, SIGTERM or SIGHUP the temporary file is removed and ``path`` is untouched;
    an operating-system error becomes one :class:`~mdp.MdpError` naming ``path``, not the
    temporary file.
    """
    write_together([(path, write)])


def write_together(files: list[tuple[str, Callable[[BinaryIO], object]]]) -> None:
    """Write a set of files all or nothing (a model and the property beside it): each to a
    temporary file beside it, and only once every one is complete, each renamed over its
    target. On any error, Ctrl-C, SIGTERM or SIGHUP the temporary files are removed and no target is
    touched. A device or a pipe among them is written into once the others are complete,
    before they are renamed. Within :func:`together`,
    the set joins the files written before it, and all are renamed when it ends."""
    own_process()
    refuse_read_targets()
    staged: list[tuple[str, str, int]] = []  # temporary, target, permissions
    path = files[0][0] if files else ""
    with terminations_interrupt():
        try:
            for path, write in files:
                if special(absolute(path)):
                    continue
                target = os.path.realpath(absolute(path))  # through a link: the link stays
                try:
                    mode = os.stat(target).st_mode & 0o7777  # a file replaced keeps them
                except OSError:
                    mode = 0o666 & ~_umask()
                with deferring():  # a signal between the two would leave the file behind
                    handle, temporary = _beside(target, os.path.dirname(target))
                    staged.append((temporary, target, mode))
                writers.append(None)
                file = os.fdopen(handle, "wb")
                try:
                    write(file)
                    kept(file, temporary, path)
                    os.fchmod(file.fileno(), mode)
                    file.close()
                finally:
                    writers.pop()
                    with contextlib.suppress(OSError, ValueError):  # a writer detached it:
                        file.close()  # refused by kept, its own line
            specials = [(absolute(path), write) for path, write in files if special(absolute(path))]
            if _held is not None:  # within together(): renamed, and written into, at its end
                _held.files += staged
                _held.specials += specials
                staged = []
                return
            _finish(staged, specials)
            staged = []
        except BaseException as error:
            _remove(staged)
            if isinstance(error, OSError):
                raise MdpError(f"{path}: cannot write: {error.strerror or error}") from None
            raise


def refuse_read_targets() -> None:
    """Refuse, where control comes back from game or plugin code and before any file is
    written, a target that the code was seen to read (:func:`_opened`): its own line, not
    a failure of the code that read it."""
    if _held is not None and _held.pending is not None:
        raise _held.pending


def changed_targets() -> str | None:
    """A target named in the command that game or plugin code made into something else
    since it was checked (a folder, a named pipe, a link), said as the end of a sentence:
    never blamed on the user's name, never a pipe with no reader written into."""
    for path, (what, was) in (_held.kinds.items() if _held is not None else ()):
        now = _kind(absolute(path))
        if now != was and now not in ("missing", None):
            return f"made {now} where {what} {path} was to be written"
    return None


def _kind(path: str) -> str | None:
    """:func:`kind`, or ``"missing"`` where there is nothing at ``path``."""
    try:
        return kind(path)
    except OSError:
        return "missing"


def reading(path: str, what: str) -> None:
    """Within :func:`together`, ``path`` is a file the command reads (``what``: the game
    file, a plugin's): a target that names it, or a file in it where it is a folder, is
    refused (:func:`check_target`), before or after this."""
    if _held is not None and os.path.exists(absolute(path)):
        _held.read(path, what)


class _Held:
    """The files :func:`together` holds: written to their temporary files, not yet renamed;
    and the targets and sources named so far, so that none is another's file."""

    def __init__(self) -> None:
        self.kinds: dict[str, tuple[str, str | None]] = {}  # each target: its option, its kind
        self.files: list[tuple[str, str, int]] = []
        self.specials: list[tuple[str, Callable[[BinaryIO], object]]] = []
        self.notes: list[str] = []
        self.targets: dict[object, tuple[str, str]] = {}  # by identity: name, what
        self.sources: list[tuple[str, str, str]] = []  # real path, name, what
        self.pending: ParamError | None = None  # a target seen read by code that then went on

    def claim(self, path: str, what: str | None) -> None:
        real = os.path.realpath(absolute(path))
        for source in self.sources:
            _clash(path, real, what, source)
        code = _code_file(absolute(path))
        if code is not None:
            _clash(path, real, what, (os.path.realpath(code), code, READ))
        if what is None:  # checked again by the code that writes it: no second target
            return
        self.kinds[path] = (what, _kind(absolute(path)))
        try:
            status = os.stat(absolute(path))
            key: object = (status.st_dev, status.st_ino)
        except OSError:
            key = real
        named, said = self.targets.setdefault(key, (path, what))
        if said != what:  # each named as it was given, the same name twice too
            raise ParamError(f"{said} {named} and {what} {path} name the same file; give each a "
                             "file of its own")

    def read(self, path: str, what: str) -> None:
        source = (os.path.realpath(absolute(path)), path, what)
        if source in self.sources:  # a module's files, reported at each load
            return
        self.sources.append(source)
        for name, said in list(self.targets.values()):
            _clash(name, os.path.realpath(absolute(name)), said, source)


def _clash(path: str, real: str, what: str | None, source: tuple[str, str, str]) -> None:
    """Refuse the target ``path`` (``real`` through its links) where it is the file read
    as ``source`` (real path, name, role), or a module in it where it is a folder."""
    read, name, role = source
    if real == read or real.startswith(read + os.sep) and real.endswith(".py") or \
            role == READ and _same_file(real, read):
        label = f"{what or 'the output'} {path}"
        if role == READ:
            raise ParamError(f"{label} names {name}, a file the command reads; name another "
                             "file to write")
        whose = (f"a file of {role} {name}" if real != read else
                 role if name == path else f"{role} {name}")
        raise ParamError(f"{label} is {whose}, which the command reads; name another file to "
                         "write")


def _code_file(path: str) -> str | None:
    """The file of Python code that the existing file ``path`` is, if the process has run
    it: a module imported (mdp's own, a library's, a game's or plugin's, a helper of theirs)
    or a file read while one was imported (:func:`recording`)."""
    try:
        target = os.stat(path)
    except OSError:
        return None
    files = [getattr(module, "__file__", None) for module in list(sys.modules.values())]
    for file in [*_imported, *files]:
        if isinstance(file, str):
            try:
                status = os.stat(file)
            except OSError:
                continue
            if (status.st_dev, status.st_ino) == (target.st_dev, target.st_ino):
                return file
    return None


def _same_file(one: str, other: str) -> bool:
    """Whether two existing paths are one file (a hard link names it twice)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


READ = "read"
"""The role of a file that the command opened to read (a game's parser reading a table from
the file named by a parameter, say): seen by :func:`_opened`, whoever opened it."""

_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _opened(event: str, details: tuple[object, ...]) -> None:
    """An audit hook (:func:`sys.addaudithook`): within :func:`together`, every file opened
    to read is a file the command reads (:func:`reading`), however the game or a plugin
    came to read it, so that no target of the command is one (one place for every file
    read, not a check in each parser that takes a file's name)."""
    if event != "open" or (_held is None and not _recorders):
        return
    path, mode, flags = (*details, None, None, None)[:3]
    if not isinstance(path, str) or not path:
        return
    if isinstance(mode, str) and any(letter in mode for letter in "wax+"):
        return
    if isinstance(flags, int) and flags & _WRITES:
        return
    if not os.path.isfile(path):  # (what is not a file, /dev/stdin or a pipe, is no target's)
        return
    if path.endswith(".pyc") and os.path.basename(os.path.dirname(path)) == "__pycache__":
        try:  # a module's cached code read: its source is what is read
            path = source_from_cache(path)
        except ValueError:
            pass
    if _recorders:  # an import: reported once it is done (reading), not in its midst
        _recorders[-1].append(path)
    elif _held is not None:
        try:
            _held.read(path, READ)
        except ParamError as error:  # raised in the midst of whoever opened it (an import of
            if _held.pending is None:  # an installed game's module: "cannot import ..."), it
                _held.pending = error  # was taken for their failure: refused once they return


_audited = False
_recorders, _imported = RECORDING, IMPORTED  # (mdp.imported: every file read while code was
# imported by :func:`recording`, in this process, which mdp.errors reads too)


def _audit() -> None:
    global _audited
    if not _audited:  # once per process: an audit hook cannot be taken back
        sys.addaudithook(_opened)
        _audited = True


@contextlib.contextmanager
def recording() -> Iterator[list[str]]:
    """Within it (the import of a game's or plugin's file), the files opened to read are
    listed, not yet checked against the targets: the list it gives, once the block ends,
    holds them, and they are files the command reads from then on (:func:`check_target`
    refuses a target that is one), whether the import came within :func:`together` or
    before it. The one who imports reports them with :func:`reading` once it is done, each
    time it uses what it imported, so that a refusal is its own line, not an import's
    failure."""
    _audit()
    files: list[str] = []
    _recorders.append(files)
    try:
        yield files
    finally:
        _recorders.remove(files)
        _imported.update(files)
        if _recorders:  # an import within another: the outer one read them too
            _recorders[-1].extend(files)


_held: _Held | None = None
_origin: list[str] = []  # the working directory as together() began


def absolute(path: str) -> str:
    """``path`` as the user meant it: relative to the working directory as the command began
    (within :func:`together`), whatever game or plugin code did to it since
    (:mod:`mdp.program.guard` refuses a change where control comes back from that code)."""
    return os.path.join(_origin[0], path) if _origin and not os.path.isabs(path) else path


@contextlib.contextmanager
def together() -> Iterator[None]:
    """Every file written within it (:func:`write_atomically`, :func:`write_together`) is
    one set, written all or nothing: each is renamed over its target only when the block
    ends without error (``mdp`` runs each command so: a table and its picture, say); on an
    error, Ctrl-C, SIGTERM or SIGHUP none is, and no temporary file is left. The lines given to
    :func:`say_when_written` are printed once the files are in place."""
    global _held
    if _held is not None:  # within another: one set
        yield
        return
    _audit()
    _held = held = _Held()
    try:
        _origin[:] = [os.getcwd()]
    except OSError:
        _origin.clear()
    try:
        with terminations_interrupt():
            yield
            refuse_read_targets()
            _finish(held.files, held.specials)
    except BaseException:
        _remove(held.files)
        raise
    finally:
        _held = None
        _origin.clear()
    for note in held.notes:
        say(MdpError(note))  # a name written, its control characters escaped


@contextlib.contextmanager
def apart() -> Iterator[None]:
    """Files written within it are put in place as they are written, not held by an
    enclosing :func:`together` (an export writing into a temporary folder of its own)."""
    global _held
    held, _held = _held, None
    try:
        yield
    finally:
        _held = held


def say_when_written(note: str) -> None:
    """Print ``note`` on standard error once the files written so far are in place: now,
    or at the end of :func:`together`."""
    if _held is not None:
        _held.notes.append(note)
    else:
        say(MdpError(note))


def _finish(staged: list[tuple[str, str, int]],
            specials: list[tuple[str, Callable[[BinaryIO], object]]]) -> None:
    """Write into the devices, then rename the temporary files over their targets: a device
    that cannot be written (``/dev/full``) leaves every target as it was."""
    own_process()  # (a writer that forked: its child renames nothing)
    path = ""
    try:
        for path, write in specials:  # nothing to replace, nothing to leave behind
            with open_special(path) as file:
                write(file)
        for temporary, path, _ in staged:
            os.replace(temporary, path)
    except OSError as error:
        raise MdpError(f"{path}: cannot write: {error.strerror or error}") from None


def _remove(staged: list[tuple[str, str, int]]) -> None:
    import shutil

    for temporary, _, _ in staged:
        try:
            if os.path.isdir(temporary) and not os.path.islink(temporary):  # a writer's doing
                shutil.rmtree(temporary)
            else:
                os.unlink(temporary)
        except OSError:
            pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _beside(path: str, folder: str) -> tuple[int, str]:
    """A new hidden file in ``folder`` named after ``path``: its handle and name."""
    # The tempfile and signal modules are imported only when a file is written: listing
    # the commands (mdp --help), which imports this module, does without their start-up.
    import tempfile

    # Named after the file, cut short where the name and the 8 random characters that
    # follow would pass what the folder allows (a name of 246 bytes and more, on most).
    name = os.fsencode(os.path.basename(path))[:_name_max(folder) - 10]
    return tempfile.mkstemp(prefix=f".{name.decode('utf-8', 'ignore')}.", dir=folder)


def _above(folder: str) -> list[str]:
    """``folder`` and each folder it is in, the nearest first."""
    parts = [folder]
    while os.path.dirname(parts[-1]) != parts[-1]:
        parts.append(os.path.dirname(parts[-1]))
    return parts


def _name_max(folder: str) -> int:
    """The longest name of a file in ``folder``, in bytes."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no such setting here
        return 255
