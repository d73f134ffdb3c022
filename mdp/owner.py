"""The process a command of the program runs in, and what game or plugin code forked from it
may do: a child of a fork ends where control comes back into mdp (:func:`own_process`), and
``os._exit`` raises :class:`mdp.errors.Ended` in the command's own process (:func:`exited`),
so that the command ends as it would, with its files and its exit code; so do ``os.execv``
and ``os.execve`` (and the ``os.exec*`` that call them), which would put another program in
mdp's place, its answer and its exit status for mdp's.
:mod:`mdp.program.guard` claims the process for a command and releases it at the end; the
writers of standard output and of files (:mod:`mdp.program.stdout`,
:mod:`mdp.outputs.files`) call :func:`own_process`. Nothing is claimed in the Python API."""

from __future__ import annotations

import os
import sys
from typing import Any

from mdp.errors import Ended, Replaced

END = os._exit  # Python's own
_OWNER = [os.getpid()]  # the process of the command
_WATCHED = [False]  # from the command's start to its end: forked children end in own_process


def exited(code: Any = 0) -> None:
    """``os._exit`` while the process is claimed: it raises in the command's process, and a
    child forked from it ends as it asks."""
    if os.getpid() != _OWNER[0]:
        END(code)
    raise Ended(code)


exited.__name__ = exited.__qualname__ = END.__qualname__  # as a message names it: _exit


def _replacing(name: str) -> Any:
    """``os.NAME`` (``execv``, ``execve``) while the process is claimed: it raises in the
    command's process, and a child forked from it does as it asks."""
    own = getattr(os, name)

    def replacing(*args: Any) -> None:
        if os.getpid() != _OWNER[0]:
            own(*args)
        raise Replaced(f"os.{name}")

    replacing.__name__ = replacing.__qualname__ = name
    return replacing


HELD = {"_exit": exited, **{name: _replacing(name) for name in ("execv", "execve") if hasattr(os, name)}}
"""The functions of :mod:`os` that mdp holds while a command runs, each by its own; held in
the module :mod:`os` takes them from too (``posix``), by which they are called as well."""
_PYTHONS = {name: getattr(os, name) for name in HELD}
HOLDERS = tuple(module for module in (os, sys.modules.get(os.name)) if module is not None)
"""The modules whose functions :data:`HELD` stand for: :mod:`os`, and ``posix`` (or ``nt``)."""


def claim(*, watch: bool) -> None:
    """Make this process the command's, and ``os._exit``, ``os.execv`` and ``os.execve``
    mdp's (:data:`HELD`); with ``watch``, a child forked from it from now on ends in
    :func:`own_process`."""
    _OWNER[0], _WATCHED[0] = os.getpid(), watch
    for module in HOLDERS:
        for name, held in HELD.items():
            if hasattr(module, name):
                setattr(module, name, held)


def release() -> None:
    """Python's own functions of :mod:`os` (and ``posix``) again, and no process watched."""
    _WATCHED[0] = False
    for module in HOLDERS:
        for name, own in _PYTHONS.items():
            if hasattr(module, name):
                setattr(module, name, own)


def own_process() -> None:
    """End at once, with no word and no file, a process that game or plugin code forked
    (``os.fork`` in a hook) where it comes back into mdp's command: the child of a fork runs
    on from where the hook returns, and would finish the command too (two answers on
    standard output, two writers of one file). Called where control comes back from game or
    plugin code (:func:`mdp.program.guard.check`) and where mdp writes (standard output and
    error, files), so that the child writes nothing of the command's; the process that
    started the command goes on alone. A child that ends itself (``multiprocessing``) is
    left to do so. Nothing while no command watches (the Python API: mdp owns no process)."""
    if _WATCHED[0] and os.getpid() != _OWNER[0]:
        END(0)


def replaced() -> str | None:
    """``os.execv``, say, where game or plugin code replaced one of the functions mdp holds
    while the command runs (:data:`HELD`); ``None`` where each is mdp's."""
    if _WATCHED[0]:
        for module in HOLDERS:
            for name, held in HELD.items():
                if getattr(module, name, held) is not held:
                    return f"{module.__name__}.{name}"
    return None
