"""Every setting of the process that game or plugin code must leave as it found it, changed:
put back and said (:mod:`mdp.program.settings`), for each member of its class the platform
has: every signal's disposition (round 18: SIGPIPE set to its default killed mdp with
``| true``, exit 141), every resource limit (RLIMIT_FSIZE lowered had the user's file
blamed), every timer, the garbage collector's callbacks (one printed onto standard output
at the interpreter's end) and the interpreter's hooks. And, end to end, refused in one line
that blames the game, with no file written."""

import gc
import signal
import sys
import threading

import pytest
from models import WALK, refused_as_a_change, run_changes

from mdp.program import settings

resource = pytest.importorskip("resource")

CATCHABLE = sorted(set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP})


def _name(number):
    return signal.Signals(number).name if number in set(signal.Signals) else f"signal {number}"


@pytest.mark.parametrize("number", CATCHABLE, ids=_name)
def test_every_signal_changed_is_said_and_put_back(number):
    was = signal.getsignal(number)
    recorded = settings.record()
    signal.signal(number, signal.SIG_DFL if was is signal.SIG_IGN else signal.SIG_IGN)
    try:
        said = settings.changed(recorded)
        assert said is not None and said.startswith(f"changed what {_name(number)} does, to ")
        assert signal.getsignal(number) is was  # put back
        assert settings.changed(recorded) is None
    finally:
        signal.signal(number, was)


@pytest.mark.parametrize("number", CATCHABLE, ids=_name)
def test_every_signal_blocked_is_said_and_put_back(number):
    # Round 18 (R18-N7): a plugin that blocked SIGINT, SIGTERM and SIGHUP passed, and mdp
    # could not be interrupted.
    was = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    recorded = settings.record()
    signal.pthread_sigmask(signal.SIG_BLOCK, [number])
    try:
        assert settings.changed(recorded) == f"blocked {_name(number)} (signal.pthread_sigmask)"
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == was  # put back
        assert settings.changed(recorded) is None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, was)


LIMITS = [name for name in dir(resource) if name.startswith("RLIMIT_")]


def _another(soft, hard):
    """A soft limit other than ``soft`` that the process may set (below the hard limit)."""
    infinite = resource.RLIM_INFINITY
    if soft == infinite:
        return 2**40 if hard == infinite else hard
    if hard == infinite or soft < hard:
        return soft + 1
    return soft - 1 if soft > 0 else None


@pytest.mark.parametrize("name", LIMITS)
def test_every_resource_limit_changed_is_said_and_put_back(name):
    which = getattr(resource, name)
    soft, hard = was = resource.getrlimit(which)
    other = _another(soft, hard)
    if other is None:
        pytest.skip(f"{name} is 0 (hard 0) here: no other value may be set")
    recorded = settings.record()
    resource.setrlimit(which, (other, hard))
    try:
        said = settings.changed(recorded)
        first = min(n for n in LIMITS if getattr(resource, n) == which)  # an alias: by the first
        assert said is not None and said.startswith(f"changed the resource limit {first} from ")
        assert resource.getrlimit(which) == was
    finally:
        resource.setrlimit(which, was)


@pytest.mark.parametrize("name", [n for n in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF")
                                  if hasattr(signal, n)])
def test_every_timer_armed_is_said_and_disarmed(name):
    recorded = settings.record()
    signal.setitimer(getattr(signal, name), 1000)
    try:
        assert settings.changed(recorded) == f"armed a timer ({name})"
        assert signal.getitimer(getattr(signal, name)) == (0.0, 0.0)
    finally:
        signal.setitimer(getattr(signal, name), 0)


HOOKS = {
    "gc.callbacks": lambda: gc.callbacks.append(print),
    "sys.excepthook": lambda: setattr(sys, "excepthook", print),
    "threading.excepthook": lambda: setattr(threading, "excepthook", print),
}


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_of_the_interpreter_changed_is_said_and_put_back(name):
    before = (list(gc.callbacks), sys.excepthook, threading.excepthook)
    recorded = settings.record()
    HOOKS[name]()
    try:
        assert settings.changed(recorded) == f"changed {name}"
        assert (list(gc.callbacks), sys.excepthook, threading.excepthook) == before
    finally:
        gc.callbacks[:] = before[0]
        sys.excepthook, threading.excepthook = before[1:]


# End to end: a game's hook makes the change; the value is 3 whatever it does.
GAME = WALK.replace("import mdp", "import gc, resource, signal\nimport mdp").replace(
    '    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')
CHANGES = {
    "signal.signal(signal.SIGPIPE, signal.SIG_DFL)": "changed what SIGPIPE does, to its default",
    "signal.signal(signal.SIGRTMIN + 3, signal.SIG_IGN)": "to nothing (ignored), where it interrupts",
    "resource.setrlimit(resource.RLIMIT_FSIZE, (10, resource.RLIM_INFINITY))":
        "changed the resource limit RLIMIT_FSIZE from",
    "signal.setitimer(signal.ITIMER_PROF, 100)": "armed a timer (ITIMER_PROF)",
    "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})":
        "blocked SIGINT, SIGTERM (signal.pthread_sigmask)",
    "gc.callbacks.append(lambda phase, info: print('noise', phase))": "changed gc.callbacks",
}


@pytest.mark.slow  # a process of mdp, a command each
def test_a_game_that_changes_a_setting_is_refused_and_writes_nothing(tmp_path):
    results, out = run_changes(tmp_path, GAME, CHANGES, ["policy", "game.py", "--out", "p.csv", "--json"])
    for (code, names, err), said in zip(results, CHANGES.values(), strict=True):
        refused_as_a_change(code, names, err, said)
    assert out == ""  # nothing of --json, nor of a callback left at the interpreter's end
