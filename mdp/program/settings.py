"""The settings of the process that game or plugin code must leave as it found them, each
put back where it changed one, and the change refused (:mod:`mdp.program.guard` says so,
blaming whose code ran):

- what the interpreter calls later of its own: the garbage collector's callbacks
  (``gc.callbacks``: one printed onto standard output as the interpreter ended), and the
  hooks of an exception no one caught;
- what every signal does (:func:`signal.getsignal` of each the platform has): SIGPIPE at its
  default killed mdp with ``| head``; one that interrupts mdp
  (:data:`mdp.errors.TERMINATIONS`) may be set to mdp's own handler;
- the signals blocked (``signal.pthread_sigmask``): a Ctrl-C or SIGTERM blocked would never
  come, and mdp could not be interrupted;
- a timer armed (``signal.setitimer``): its signal would interrupt mdp later;
- the file mode creation mask (umask): the files mdp writes would get another mode;
- the resource limits (``resource.setrlimit``, every ``RLIMIT_*`` the platform has): a file
  size limit lowered had the user's file blamed;
- a trace or profile function (``sys.settrace``, ``sys.setprofile``, and ``threading``'s):
  it would run inside mdp's own code;
- numpy's floating-point error handling (``numpy.seterr``, ``numpy.seterrcall``): set to
  raise, mdp's arithmetic stopped with a traceback; to warn, the numbers were blamed;
- matplotlib's settings (``matplotlib.rcParams``, but the backend, which mdp sets itself):
  mdp's pictures were drawn otherwise, or not at all;
- the import machinery (``sys.meta_path``, ``sys.path_hooks``, ``sys.path`` and the finders
  of ``sys.path_importer_cache``): a module mdp imports later was the game's, doctored;
- an audit hook added (``sys.addaudithook``): it cannot be taken out again, so mdp's own
  hook, added once, refuses it (it is never added) while a command runs.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from mdp.errors import TERMINATIONS

_TIMERS = tuple(name for name in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF")
                if hasattr(signal, name))


def record() -> dict[str, Any]:
    """The settings now."""
    from mdp.program import libraries

    return {"called": _called(), "signals": _dispositions(), "umask": _umask(),
            "blocked": _blocked(),
            "timers": {name: signal.getitimer(getattr(signal, name))[0] for name in _TIMERS},
            "limits": _limits(), **libraries.record()}


def forget() -> None:
    """The command has ended."""
    from mdp.program import libraries

    libraries.forget()


def changed(recorded: dict[str, Any]) -> str | None:
    """What changed of the settings :func:`record` gave, said as the end of a sentence (put
    back as far as the process may), or ``None``."""
    from mdp.program import libraries

    return _hooks(recorded) or libraries.changed(recorded) or _signals(recorded) \
        or _block(recorded) or _timer(recorded) or _mask(recorded) \
        or (_limit(recorded) if recorded["limits"] else None)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _called() -> dict[str, Any]:
    """What the interpreter calls later of its own: the garbage collector's callbacks, and
    the hooks of an exception no one caught (a thread's: mdp's own, set as the command
    starts; ``sys.unraisablehook``, mdp's too, is left to the commands that wrap it)."""
    import gc
    import threading

    return {"gc.callbacks": list(gc.callbacks), "sys.excepthook": sys.excepthook,
            "threading.excepthook": threading.excepthook, "sys.settrace": sys.gettrace(),
            "sys.setprofile": sys.getprofile(), "threading.settrace": threading.gettrace(),
            "threading.setprofile": threading.getprofile()}


def _hooks(recorded: dict[str, Any]) -> str | None:
    """One of :func:`_called` changed (a collector's callback printed onto standard output
    as the interpreter ended; a trace function raised inside mdp's code): put back, and
    refused."""
    import gc
    import threading

    was = recorded["called"]
    now = _called()
    for name in was:
        if now[name] != was[name] if name == "gc.callbacks" else now[name] is not was[name]:
            gc.callbacks[:] = was["gc.callbacks"]
            sys.excepthook, threading.excepthook = was["sys.excepthook"], was["threading.excepthook"]
            sys.settrace(was["sys.settrace"])
            sys.setprofile(was["sys.setprofile"])
            threading.settrace(was["threading.settrace"])
            threading.setprofile(was["threading.setprofile"])
            return f"changed {name}"
    return None


def _dispositions() -> dict[int, Any]:
    """What every signal the platform has does (its handler, ignored, its default)."""
    return {number: signal.getsignal(number) for number in signal.valid_signals()}


def _signals(recorded: dict[str, Any]) -> str | None:
    """What a signal does, changed (but, for one that interrupts mdp, to mdp's own
    handler): put back, so that the process ends as mdp says (SIGPIPE at its default killed
    it with ``| head``), and refused."""
    from mdp.errors import interrupt

    for number, was in recorded["signals"].items():
        now = signal.getsignal(number)
        if now is was or now is interrupt and (number in TERMINATIONS or number == signal.SIGINT):
            continue
        if was is not None:  # (None: a handler not set from Python, which cannot be set back)
            signal.signal(number, was)
        said = "nothing (ignored)" if now is signal.SIG_IGN else "its default" \
            if now is signal.SIG_DFL else "a handler of its own"
        where = ", where it interrupts mdp," if number in TERMINATIONS or \
            number == signal.SIGINT else ","
        return f"changed what {_name(number)} does, to {said}{where}"
    return None


def _blocked() -> frozenset[int] | None:
    """The signals this thread blocks; ``None`` where the platform cannot say."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def _block(recorded: dict[str, Any]) -> str | None:
    """The signals blocked, changed (a Ctrl-C blocked never comes): put back, and
    refused."""
    import threading

    now, was = _blocked(), recorded["blocked"]
    if now is None or was is None or now == was or \
            threading.current_thread() is not threading.main_thread():  # (a thread's own)
        return None
    signal.pthread_sigmask(signal.SIG_SETMASK, was)
    more, fewer = sorted(now - was), sorted(was - now)
    said = "blocked " + ", ".join(_name(n) for n in more) if more else \
        "unblocked " + ", ".join(_name(n) for n in fewer)
    return f"{said} (signal.pthread_sigmask)"


def _timer(recorded: dict[str, Any]) -> str | None:
    """A timer armed that was not (its signal would interrupt mdp later): disarmed, and
    refused."""
    for name in _TIMERS:
        if recorded["timers"][name] == 0 and signal.getitimer(getattr(signal, name))[0] > 0:
            signal.setitimer(getattr(signal, name), 0)
            return f"armed a timer ({name})"
    return None


def _name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal
        return f"signal {number}"


def _limits() -> dict[str, tuple[int, int]]:
    """The process's resource limits (``ulimit``), by name; none where the platform has no
    :mod:`resource`."""
    try:
        import resource
    except ImportError:
        return {}
    limits, seen = {}, set()
    for name in sorted(dir(resource)):  # (RLIMIT_OFILE is RLIMIT_NOFILE: said by the first)
        if name.startswith("RLIMIT_") and getattr(resource, name) not in seen:
            seen.add(getattr(resource, name))
            try:
                limits[name] = resource.getrlimit(getattr(resource, name))
            except (OSError, ValueError):
                pass
    return limits


def _limit(recorded: dict[str, Any]) -> str | None:
    """A resource limit changed (a file size limit lowered: mdp's file was blamed): put back
    as far as the process may (a hard limit lowered cannot be raised again), and refused."""
    import resource

    for name, was in recorded["limits"].items():
        now = resource.getrlimit(getattr(resource, name))
        if now != was:
            for limits in (was, (min(was[0], now[1]), now[1])):
                try:
                    resource.setrlimit(getattr(resource, name), limits)
                    break
                except (OSError, ValueError):
                    continue
            return f"changed the resource limit {name} from {_shown(was)} to {_shown(now)}"
    return None


def _shown(limits: tuple[int, int]) -> str:
    import resource

    soft, hard = ("unlimited" if n == resource.RLIM_INFINITY else str(n) for n in limits)
    return f"{soft} (hard {hard})"


def _mask(recorded: dict[str, Any]) -> str | None:
    """The umask, changed: put back."""
    mask = _umask()
    if mask == recorded["umask"]:
        return None
    os.umask(recorded["umask"])
    return f"changed the file mode creation mask (umask) from {recorded['umask']:03o} to {mask:03o}"
