"""The program's standard output: mdp's alone for the whole command (:func:`take`), kept for
what it writes for programs while plugin code prints (:class:`shielded`), and one that may go
away without taking the command's files with it (:class:`Output`).

A reader that goes away (``mdp policy GAME --out p.csv --json | head -1``) is no error, and
it stops nothing but the writing to standard output: what is left to print goes nowhere, and
the files asked for are written all the same. A table printed to a reader gone stops being
made (:func:`mdp.program.arguments.emit`).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from typing import Any

from mdp.errors import MdpError, ParamError
from mdp.owner import own_process
from mdp.program import descriptors
from mdp.program.descriptors import copy

_REAL: list[Any] = []  # the real standard output, one for each shielded block entered
_DROPPED: list[bool] = []  # once drop() has run, until unbind()
_DROPPED_ERRORS: list[bool] = []  # once Errors sent its lines nowhere, until unbind()
_BOUND: list[Any] = []  # what mdp last made sys.stdout, where it did
_TAKEN: list[Any] = []  # mdp's private standard output, where it took file descriptor 1
_RECORDED: list[bool] = []  # whether take() recorded the descriptors given, until unbind()


def take() -> Any:
    """Make standard output mdp's alone for the command, and return ``sys.stdout`` as it was
    (for :func:`unbind`). Where ``sys.stdout`` writes to file descriptor 1, mdp writes through
    a private duplicate of it, and file descriptor 1 is pointed at standard error: what game
    or plugin code writes there by any route (``os.write(1, ...)``, a program it runs, a C
    library, ``sys.__stdout__``) goes to standard error, never into a table or JSON on
    standard output. Closed (``mdp ... >&-``), it is :class:`Closed`. The descriptors open
    as the command starts are recorded first (where the program has not yet done so)."""
    _RECORDED[:] = [descriptors.record()]
    previous = sys.stdout
    if previous is None:
        bind(Closed())
        return previous
    bind(Output(_private(previous)))
    return previous


def _private(stream: Any) -> Any:
    """A stream like ``stream`` on a private duplicate of file descriptor 1, which now points
    at standard error (the null device, where that is closed); ``stream`` itself where it does
    not write to file descriptor 1 (output captured in Python)."""
    try:
        if stream.fileno() != 1:
            return stream
        stream.flush()
        private = copy(1)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return stream
    try:
        os.dup2(2, 1)
    except OSError:  # standard error closed: what game code writes goes nowhere
        _to_null(1)
    own = os.fdopen(private, "w", buffering=1 if stream.line_buffering else -1,
                    encoding=stream.encoding, errors=stream.errors)
    _TAKEN[:] = [own, copy(private)]  # the second to give back, whatever befalls the first
    return own


def _to_null(descriptor: int) -> None:
    """Point file descriptor ``descriptor`` at the null device."""
    handle = os.open(os.devnull, os.O_WRONLY)
    os.dup2(handle, descriptor)
    os.close(handle)


def _give_back() -> None:
    """Point file descriptor 1 at standard output again, after what game code left in
    ``sys.__stdout__``'s buffer went where it was written: standard error."""
    if not _TAKEN:
        return
    own, kept = _TAKEN
    _TAKEN.clear()
    for stream in (sys.__stdout__, own):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed by a plugin (refused), or its reader gone
            pass
    if _DROPPED:  # its reader gone: what is left for it at exit goes nowhere, as mdp's did
        _to_null(kept)
    os.dup2(kept, 1)
    os.close(kept)
    try:
        own.close()
    except (OSError, ValueError):  # what it still held, for a reader gone: no more to say
        pass


def answered() -> None:
    """The program's answer given, its standard output flushed: what is printed from now to
    the end of the process (a game's exit callback, a ``__del__``, a ``weakref.finalize``, a
    thread still running, a garbage collector's callback as Python ends) goes to standard
    error, by ``print`` or by file descriptor 1, never after the answer on standard output."""
    for stream in (sys.stdout, sys.__stdout__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # its reader gone, or closed: nothing more for it
            pass
    try:
        os.dup2(2, 1)
    except OSError:  # standard error closed: what is printed goes nowhere
        _to_null(1)
    sys.stdout = sys.stderr


def ended(code: int) -> int:
    """``code``, once what was printed on standard output is there: every answer of the
    command line, help and version too, ends here, and a full standard output fails here
    (an ``OSError``, said as an error), not silently at exit."""
    stdout().flush()
    return code


def bind(stream: Any) -> None:
    """Make ``stream`` ``sys.stdout``: the one place mdp rebinds it, so that a rebinding by
    game or plugin code is told apart and undone (:func:`rebind`)."""
    sys.stdout = stream
    _BOUND[:] = [stream]


def rebind() -> None:
    """Undo a rebinding of ``sys.stdout`` by game or plugin code (a hook capturing what it
    prints): what mdp prints goes to the standard output mdp chose."""
    if _BOUND and sys.stdout is not _BOUND[0]:
        sys.stdout = _BOUND[0]


def unbind(stream: Any) -> None:
    """Give standard output back as it was before mdp ran (``sys.stdout`` was ``stream``)."""
    _give_back()
    descriptors.forget(bool(_RECORDED) and _RECORDED.pop())
    sys.stdout = stream
    _BOUND.clear()
    _DROPPED.clear()
    _DROPPED_ERRORS.clear()


def machine_output(args: argparse.Namespace) -> bool:
    """Whether the command prints for programs: JSON (``--json``), or a table on standard
    output (``--format`` without ``--out``; a table printed in the format standard output
    gets by default shields it where its format is chosen, :func:`shield`)."""
    return bool(getattr(args, "json", False)) or (
        getattr(args, "format", None) is not None and getattr(args, "out", None) is None)


def check_alone(args: argparse.Namespace, files: dict[str, str]) -> None:
    """Refuse, before any work, two things for standard output: ``--json`` and a table in
    the format ``--format`` names, without ``--out`` to take the table; a file of ``files``
    (``--out``, ``--plot``) that is standard output, beside ``--json``, another such file, or
    the report a command prints where no ``--out`` takes its table
    (``mdp distribution --plot d.png > d.png``)."""
    json = bool(getattr(args, "json", False))
    if json and getattr(args, "format", None) is not None and getattr(args, "out", None) is None:
        raise ParamError("--json and --format each print on standard output; write the table "
                         "to a file with --out, or leave out one")
    from mdp.outputs.files_kinds import is_standard_output

    there = [option for option, path in files.items() if is_standard_output(path)]
    if not there:
        return
    printed = "--json" if json else "the report" if getattr(args, "out", None) is None else None
    option = there[-1]
    if printed is not None or len(there) > 1:
        also = printed or there[0]
        leave = "" if printed == "the report" else f", or leave out {also}"
        raise ParamError(f"{option} {MdpError(files[option])} is standard output, where {also} "
                         f"prints; write {option} to another file{leave}")


class shielded:
    """While inside (from :func:`shield` on, with ``now=False``), what plugin code prints
    goes to standard error, and standard output holds only what the command writes for
    programs (:func:`~mdp.program.arguments.print_json`, :func:`~mdp.program.arguments.emit`):
    a hook's stray print cannot spoil the JSON or the table."""

    def __init__(self, now: bool = True) -> None:
        self.now = now

    def __enter__(self) -> shielded:
        self.before = sys.stdout
        _REAL.append(stdout())
        if self.now:
            shield()
        return self

    def __exit__(self, *exc: object) -> None:
        _REAL.pop()
        bind(self.before)


def shield() -> None:
    """From now to the end of the :class:`shielded` block it is in, what plugin code prints
    goes to standard error: the command is to write a table on standard output (the one
    place that knows it, :func:`mdp.program.arguments.output_format`, says so)."""
    if _REAL:
        bind(sys.stderr)


def stdout() -> Any:
    """The real standard output, shielded or not."""
    return _REAL[-1] if _REAL else sys.stdout


def drop() -> None:
    """Send what is left for standard output nowhere: its reader went away. What its buffer
    still holds, and what is printed later, goes to the null device, so that no later flush
    (Python's own at exit among them) fails again."""
    _DROPPED.append(True)  # file descriptor 1 is mdp's null device now: no game's doing
    try:
        _to_null(stdout().fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (output captured)
        bind(open(os.devnull, "w"))  # noqa: SIM115  (open to the end)


def reader_gone() -> bool:
    """Whether standard output is a pipe whose reader went away (``| head`` done): then a
    broken pipe is the reader's going, not a fault of whose code met it."""
    import select

    try:
        poll = select.poll()
        poll.register(1, select.POLLOUT)
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # (no poll: Windows)
        return True


def dropped(errors: bool = False) -> bool:
    """Whether mdp sent standard output (or with ``errors``, standard error, which could not
    take its lines: :class:`Errors`) to the null device in this command."""
    return bool(_DROPPED_ERRORS if errors else _DROPPED)



def _reconfigure(*args: Any, **kwargs: Any) -> None:
    """A game's or plugin's ``sys.stdout.reconfigure(...)`` (or ``sys.stderr``'s): refused,
    raised in its code, so that the line names it and its hook; its encoding or its ends of
    lines would have been mdp's answer's."""
    raise io.UnsupportedOperation("standard output and standard error are mdp's: a game or "
                                  "plugin prints there, and does not reconfigure them")


_WRITES = [0]
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # a terminal's escape sequence
_STYLE = re.compile(r"\x1b\[([0-9;]*)m")  # one that sets a colour or other attributes


class _Lines:
    """What was last written to a standard stream: whether a line is left open (its last
    text, escape sequences aside, did not end one), and whether a colour or other terminal
    attribute is left set (an escape sequence ``ESC [ ... m`` that no ``ESC [0m`` followed)."""

    open = False
    styled = False
    last = 0  # when it was last written to, counted over both streams

    def write(self, text: str) -> int:
        raise NotImplementedError

    def flush(self) -> None:
        raise NotImplementedError

    def _seen(self, text: str) -> None:
        if text:
            _WRITES[0] += 1
            self.last = _WRITES[0]
            plain = _CONTROL.sub("", text) if "\x1b" in text else text
            if plain:  # (a carriage return, as a progress line's end, starts the line again)
                self.open = not plain.endswith(("\n", "\r"))
            styles = _STYLE.findall(text) if "\x1b" in text else ()
            if styles:
                self.styled = styles[-1] not in ("", "0")

    def end_line(self) -> None:
        """End the line left open, resetting the attributes left set where the stream is a
        terminal."""
        ending = ("\x1b[0m" if self.styled and self.isatty() else "") + ("\n" if self.open else "")
        self.styled = False
        if ending:
            self.write(ending)
            self.flush()

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())  # type: ignore[attr-defined]
        except (OSError, ValueError, AttributeError):
            return False


def _same_place(one: Any, other: Any) -> bool:
    """Whether two streams write to the same file or terminal (``2>&1``)."""
    try:
        first, second = os.fstat(one.fileno()), os.fstat(other.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return os.path.samestat(first, second)


class Output(_Lines):
    """Standard output as the program prints to it: a reader that goes away (a broken pipe)
    is dropped (:func:`drop`), and the command goes on; a letter its encoding lacks
    (``PYTHONIOENCODING=ascii``) is printed as its escape, as Python prints it on standard
    error. Its ``buffer`` is the stream's own,
    where a table is written: a broken pipe is raised there, for the table to stop."""

    reconfigure = staticmethod(_reconfigure)

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        own_process()  # a fork's child writes nothing of the command's
        self._seen(text)
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            drop()
            return len(text)
        except (UnicodeEncodeError, LookupError):  # PYTHONIOENCODING=ascii: a letter as its
            encoding = self.stream.encoding  # escape (and so with an error handler unknown)
            return self.write(text.encode(encoding, "backslashreplace").decode(encoding))

    def flush(self) -> None:
        own_process()  # (a table goes to the buffer after a flush)
        try:
            self.stream.flush()
        except BrokenPipeError:
            drop()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class Closed:
    """Standard output when it was closed before mdp started (``mdp ... >&-``): writing to
    it is one error, until :func:`settle` knows the command (and whether ``--out`` is the
    advice: not to ``--help`` or ``--version``, which print as the command line is read)."""

    hint = ""

    def write(self, text: str) -> int:
        raise MdpError(f"standard output is closed; redirect it to a file{self.hint}")

    def flush(self) -> None:
        pass

    @property
    def buffer(self) -> Closed:
        return self

    def isatty(self) -> bool:
        return False


def settle(files: bool, takes_out: bool) -> None:
    """Decide, once the command is parsed and before any work, what a standard output closed
    before mdp started means: where the command writes ``files`` (``--out``, ``--plot``),
    what it prints goes nowhere, as for a reader that went away, and the files are written;
    else printing is refused, with ``--out`` suggested where the command ``takes_out``."""
    if not isinstance(sys.stdout, Closed):
        return
    if files:
        bind(open(os.devnull, "w"))  # noqa: SIM115  (open to the end)
    elif takes_out:
        sys.stdout.hint = ", or use --out"


class Errors(_Lines):
    """Standard error as the program says its lines there: one that cannot take them (a full
    disk, ``2>/dev/full``; closed, ``2>&-``; a reader gone) sends them nowhere from then on,
    and the command goes on: the files asked for are written all the same, and the exit code
    is the command's."""

    reconfigure = staticmethod(_reconfigure)

    def __init__(self, stream: Any) -> None:
        self.stream = stream if stream is not None else open(os.devnull, "w")  # noqa: SIM115

    def write(self, text: str) -> int:
        own_process()
        self._seen(text)
        try:
            return int(self.stream.write(text))
        except (OSError, ValueError):
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            self._drop()

    def _drop(self) -> None:
        try:  # what its buffer still holds goes nowhere too, not again at exit
            handle = os.open(os.devnull, os.O_WRONLY)
            os.dup2(handle, self.stream.fileno())
            os.close(handle)
        except (OSError, ValueError, AttributeError):
            pass
        self.stream = open(os.devnull, "w")  # noqa: SIM115  (open to the end)
        _DROPPED_ERRORS.append(True)  # mdp's own doing: no game replaced it

    def line_start(self) -> None:
        """Before a line of mdp's own (:func:`mdp.errors.say`): the line a game's print
        left open here ended, and its colour reset; so on standard output where the two go
        to the same place (``2>&1``, a terminal)."""
        out = stdout()
        if isinstance(out, Output) and _same_place(out, self):
            out.flush()  # one line, which the stream written to last left open or not
            self.open = out.open if out.last > self.last else self.open
            self.styled = self.styled or out.styled
            out.open = out.styled = False
        self.end_line()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

