"""The ``mdp`` program: the command line, its arguments, its commands and the built-in plugins
that offer them.

:func:`main` is the command: it imports the command line itself, so that a Ctrl-C while mdp
starts (its imports take a good part of a small game's time) is an interruption like any
other, one line and exit code 130, not a traceback. ``import mdp.program`` imports nothing
else.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

EXIT_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Run the ``mdp`` command (:func:`mdp.program.cli.main`) and return its exit code. Run
    as the program (no ``argv``), a signal that comes once the command has ended, its files
    in place and said, interrupts nothing: the process ends with the command's code."""
    from mdp.program import descriptors  # first: those the user gave, before any is opened

    recorded = descriptors.record()
    if argv is None:  # the program's to its end, under the command's own (mdp.program.guard)
        import threading

        sys.unraisablehook, threading.excepthook = _unraisable, _thread_raised
    try:
        from mdp.errors import commanding  # mdp's lightest module: before any other

        # a SIGTERM while mdp starts is an interruption too; a second signal, ignored
        with commanding(ending=argv is None):
            code = _main(argv)
    except KeyboardInterrupt:  # before the command line was there to catch it
        if argv is None:  # (while mdp.errors was imported: no handler yet to ignore a second)
            _ended()
        _interrupted()
        code = EXIT_INTERRUPTED
    descriptors.forget(recorded)
    if argv is None:
        _ended()
        from mdp.program.stdout import answered

        answered()
        from mdp.program import guard
        from mdp.program.states import left_running

        guard.run_exit_callbacks()
        left_running(code, guard._who[0])  # a game's thread: not waited for
        _games_let_go()
    return code


def _games_let_go() -> None:
    """Let go of the modules of the games and plugins imported from their files now, while
    mdp's hook of what Python cannot raise is in place: an object a game keeps in its module
    whose ``__del__`` raises is said in one line (Python's shutdown, which clears the modules
    later, would print its traceback). Theirs alone: a module of Python's or of a library
    that a game happened to import first (logging) is not the game's, and cleared now, its
    own callbacks at exit would fail for want of its names."""
    from mdp.imported import is_private

    for name, module in list(sys.modules.items()):
        if is_private(name):
            del sys.modules[name]
            vars(module).clear()


def _said_by_guard(name: str, python_s: Any) -> Any:
    """A hook of Python's that says, where no command runs, what the command would say, by
    :mod:`mdp.program.guard`'s hook ``name`` (one line, naming the game or plugin as the
    command last did), else by Python's own ``python_s``: it was Python's traceback."""

    def said(raised: Any) -> None:
        guard = sys.modules.get("mdp.program.guard")
        try:
            (python_s if guard is None else getattr(guard, name))(raised)
        except Exception:  # (as Python shuts down, nowhere left to say it)
            pass

    return said


_unraisable = _said_by_guard("_unraisable", sys.__unraisablehook__)
"""A game's object that dies as the command's last references to it go, its ``__del__``
raising."""

_thread_raised = _said_by_guard(  # (threading imported where first needed, as every module here)
    "_thread_raised", lambda raised: importlib.import_module("threading").__excepthook__(raised))
"""A game's or plugin's thread raising once the command has ended (its exit callbacks, the
seconds its threads are given to end)."""


def _ended() -> None:
    """Ignore, from now to the exit, the signals that interrupt a command (Ctrl-C, SIGTERM,
    SIGHUP): one now would kill the process by the signal, or end it with 130, after the
    command said it had done its work."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        from mdp.errors import TERMINATIONS

        for number in (signal.SIGINT, *TERMINATIONS):
            signal.signal(number, signal.SIG_IGN)


def _interrupted() -> None:
    """Say the user's interruption (:func:`mdp.errors.say_interrupted`), or where even
    :mod:`mdp.errors` was not yet imported, the same line."""
    said = getattr(sys.modules.get("mdp.errors"), "say_interrupted", None)
    if said is None:
        print("mdp: interrupted", file=sys.stderr)
    else:
        said()


def _main(argv: list[str] | None) -> int:
    previous = sys.stderr
    try:
        from mdp.program.stdout import Errors

        # Closed (mdp ... 2>&-) or full (2>/dev/full): the lines go nowhere, the work is done.
        sys.stderr = Errors(sys.stderr)
        from mdp.limits import fit_allocator, too_few_open_files

        fit_allocator()  # before Polars starts its threads
        few = too_few_open_files()  # before the first file is opened
        if few is not None:
            print(f"mdp: error: {few}", file=sys.stderr)
            return 2
        from mdp.program.cli import main as run

        return run(argv)
    except KeyboardInterrupt:  # before the command line was there to catch it
        _interrupted()
        return EXIT_INTERRUPTED
    finally:
        sys.stderr = previous
