"""Standard output and standard error as a command starts (:func:`record`), and what game or
plugin code did to them since (:func:`output_fault`, :func:`error_fault`), for
:mod:`mdp.program.guard`. Standard output closed or replaced is refused: the answer would be
lost. Standard error closed (file descriptor 2 or ``sys.stderr``) or replaced (file
descriptor 2) is put back first, so that mdp's line saying so is seen where the user looks
for it, and refused; ``sys.stderr`` rebound (a hook capturing its lines) is put back,
silently, as ``sys.stdout`` is (:func:`mdp.program.stdout.rebind`)."""

from __future__ import annotations

import os
import sys
from typing import Any


def record() -> dict[str, Any]:
    """What standard output and error are now."""
    return {"fd": identity(1), "stdout": sys.stdout, "closed": closed(sys.stdout),
            "stderr": sys.stderr, "stderr_fd": identity(2), "stderr_closed": closed(sys.stderr),
            "stderr_spare": spare(2)}


def forget(recorded: dict[str, Any]) -> None:
    if recorded["stderr_spare"] is not None:
        os.close(recorded["stderr_spare"])


def identity(descriptor: int) -> tuple[int, int] | None:
    """The file ``descriptor`` is open on (device and inode), ``None`` where it is closed."""
    try:
        status = os.fstat(descriptor)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def closed(stream: Any) -> bool:
    try:
        return bool(stream.closed)
    except (AttributeError, ValueError, OSError):
        return False


def spare(descriptor: int) -> int | None:
    """A duplicate of ``descriptor`` to put it back from, numbered 3 or more (where standard
    output is closed, a plain duplicate would take its number, and mdp's output would go
    there); ``None`` where it is closed."""
    try:
        import fcntl

        return fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, 3)
    except ImportError:  # no fcntl (Windows): the lowest number free
        return os.dup(descriptor)
    except OSError:
        return None


def output_fault(recorded: dict[str, Any]) -> str | None:
    """Standard output closed or replaced since ``recorded``, said; mdp itself may have sent
    it to the null device, its reader gone: no one's fault."""
    from mdp.program.stdout import dropped

    if identity(1) != recorded["fd"] and recorded["fd"] is not None and not dropped():
        return "closed or replaced standard output (file descriptor 1)"
    if closed(recorded["stdout"]) and not recorded["closed"]:
        return "closed standard output (sys.stdout)"
    return None


def error_fault(recorded: dict[str, Any]) -> str | None:
    """Standard error closed or replaced since ``recorded``: put back (mdp's lines go there,
    this one too), and said; ``sys.stderr`` rebound, put back."""
    from mdp.program.stdout import dropped

    was = recorded["stderr_spare"]
    if was is None or dropped(errors=True):
        return None  # closed as mdp started, or sent nowhere by mdp (it took no line): as it is
    now = identity(2)
    if now != recorded["stderr_fd"]:
        os.dup2(was, 2)
        if closed(sys.stderr) or now is None:
            _reopen(recorded)
        return f"{'closed' if now is None else 'replaced'} standard error (file descriptor 2)"
    if sys.stderr is not recorded["stderr"]:  # a hook capturing its lines: put back, silently
        sys.stderr = recorded["stderr"]
    if closed(sys.stderr) and not recorded["stderr_closed"]:
        _reopen(recorded)
        return "closed standard error (sys.stderr)"
    return None


def _reopen(recorded: dict[str, Any]) -> None:
    """``sys.stderr`` (closed) made a stream on file descriptor 2 like it, for mdp's lines."""
    stream = sys.stderr
    sys.stderr = recorded["stderr"] = os.fdopen(
        spare(2) or os.dup(2), "w", buffering=1, encoding=getattr(stream, "encoding", None),
        errors="backslashreplace")
