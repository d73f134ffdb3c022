"""More of the process that game or plugin code must leave as it found it, part of
:mod:`mdp.program.guard` (which says so, blaming whose code ran); each change is put back as
far as the process may, and refused:

- the modules of ``sys.modules``: one mdp had loaded made ``None`` or replaced, one of mdp's
  or of the libraries it computes with taken out, or added under the name of one that mdp
  or a library imports later (a module that was not imported under that name: mdp would
  run the game's in place of its own); the one added is taken out;
- Python's warnings filters (``warnings.simplefilter``, ``warnings.filters``), where the
  change reaches mdp's own warnings (a ``UserWarning``: "the game may have no end"; a
  ``RuntimeWarning`` of float arithmetic, which mdp takes as an error): made errors, they
  were tracebacks, ignored, they vanished; mdp's own filter taken out
  (``warnings.resetwarnings()``), a float gone wrong was a warning beside its number; and
  ``warnings.showwarning``, by which mdp says
  a warning in one line;
- :mod:`faulthandler` armed (``enable``, ``dump_traceback_later``, ``register``): its timer
  dumped mdp's own stack, or ended mdp mid-work. mdp holds these three functions while a
  command runs, to know that they were called;
- the process group or session (``os.setpgid``, ``os.setsid``): a Ctrl-C at the terminal
  never came to mdp;
- the :mod:`decimal` context of the thread (its precision, rounding, exponents and traps):
  mdp's own decimal arithmetic uses a context of its own, but a trap set by the game would
  stop whatever else computes with the module;
- Python's logging (the root logger's level and handlers, ``logging.disable``): a game's
  ``logging.basicConfig(level=DEBUG)`` brought the libraries' debug records onto mdp's
  standard error;
- the public names of the ``mdp`` package, handed on as they are first asked for
  (``mdp.policy``): a game's own binding of one;
- Polars' settings (``polars.Config``, but those of environment variables, which
  :mod:`mdp.program.guard` puts back silently, as Polars is told here): an engine affinity
  of ``"gpu"`` had mdp's Parquet writer fail;
- which of Python's number types the ABCs of :mod:`numbers` take
  (``numbers.Rational.register(float)``: ``Fraction`` then took a float for a fraction, and
  failed inside mdp's own code). A registration cannot be taken back: refused.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Any

_IMPORT = importlib.import_module  # mdp's own, as it loaded: a game may replace importlib's

_LIBRARIES = ("mdp", "numpy", "polars", "pluggy", "matplotlib")
"""The packages whose modules mdp imports, or that import their own, as commands go."""

_FAULTHANDLER = ("enable", "dump_traceback_later", "register")
_armed: dict[str, Any] = {}  # faulthandler's functions called while a command runs, and Python's own


def record() -> dict[str, Any]:
    """These states now; faulthandler's functions held (:func:`forget` gives them back)."""
    import faulthandler
    import warnings

    for name in _FAULTHANDLER:
        if getattr(faulthandler, name) is not _held(name):
            _armed[name] = getattr(faulthandler, name)
            setattr(faulthandler, name, _holder(name))
    _armed.pop("called", None)
    return {"filters": list(warnings.filters), "showwarning": warnings.showwarning,
            "faulthandler": faulthandler.is_enabled(), "group": _group(),
            "decimal": _decimal(), "polars": _polars(), "mdp": dict(_mdp_bound()),
            "logging": _logging() or _LOGGING, "numbers": _numbers()}


def forget() -> None:
    import faulthandler

    for name in _FAULTHANDLER:
        if name in _armed:
            setattr(faulthandler, name, _armed.pop(name))


def changed(recorded: dict[str, Any]) -> str | None:
    return _warnings(recorded) or _faulthandler(recorded) or _grouped(recorded) or \
        _decimal_changed(recorded) or _polars_changed(recorded) or _mdp_names(recorded) or \
        _logging_changed(recorded) or _numbers_changed(recorded)


_ABCS = ("Integral", "Rational", "Real", "Complex", "Number")  # the narrowest first


def _numbers() -> list[tuple[type, str, bool]]:
    """Each of Python's number types (and text, bytes, None) with each ABC of :mod:`numbers`,
    and whether the ABC takes it: how mdp tells an exact number from a float."""
    import decimal
    import numbers
    from fractions import Fraction

    return [(kind, abc, issubclass(kind, getattr(numbers, abc))) for kind in
            (bool, int, float, complex, Fraction, decimal.Decimal, str, bytes, type(None))
            for abc in _ABCS]


def _numbers_changed(recorded: dict[str, Any]) -> str | None:
    for (kind, abc, was), (_, _, now) in zip(recorded["numbers"], _numbers()):
        if was != now:
            return f"registered {kind.__name__} as numbers.{abc}" if now else \
                f"took {kind.__name__} out of numbers.{abc}"
    return None


_LOGGING = (30, (), 0)
"""Python's logging as it starts: the root logger at WARNING, no handler, nothing disabled."""


def _logging() -> tuple[int, tuple[Any, ...], int] | None:
    """The root logger's level and handlers, and ``logging.disable``'s level; ``None`` where
    :mod:`logging` is not loaded."""
    logging = sys.modules.get("logging")
    if logging is None:
        return None
    return logging.root.level, tuple(logging.root.handlers), logging.root.manager.disable


def _logging_changed(recorded: dict[str, Any]) -> str | None:
    """The root logger changed (``logging.basicConfig(level=DEBUG)``: the libraries' debug
    records, matplotlib's as mdp draws, came onto mdp's standard error); put back."""
    now, was = _logging(), recorded["logging"]
    if now is None or now == was:
        return None
    import logging

    logging.root.setLevel(was[0])
    logging.root.handlers[:] = list(was[1])
    logging.disable(was[2])
    return "changed Python's logging (the root logger's level or handlers, or logging.disable)"


def _mdp_bound() -> Any:
    """The public names of the ``mdp`` package bound now, each with what it is bound to."""
    import mdp

    names = vars(mdp)
    return ((name, names[name]) for name in mdp._LAZY if name in names)


def _mdp_names(recorded: dict[str, Any]) -> str | None:
    """A public name of the ``mdp`` package (``mdp.policy``) bound to another thing than as
    the command began, or than the one it hands on where it was not yet asked for (mdp's
    names come when first asked, ``mdp._LAZY``): every plugin that calls ``mdp.policy``
    after a game bound its own would get the game's (a program plugin's analysis said its
    numbers). Put back."""
    import mdp

    for name, now in list(_mdp_bound()):
        was = recorded["mdp"].get(name)  # or, bound since, what mdp hands on:
        handed = getattr(_IMPORT(mdp._LAZY[name]), name) if was is None else was
        if now is not handed:
            vars(mdp)[name] = handed
            return f"replaced mdp.{name}"
    return None


def modules(recorded: dict[str, Any]) -> str | None:
    """A module made ``None``, replaced, taken out or added in ``sys.modules``."""
    for name, module in list(sys.modules.items()):
        if name in recorded:
            if module is not recorded[name]:
                return f"replaced module {name} in sys.modules with {_named(module)}"
        elif module is None or name.partition(".")[0] in _LIBRARIES and _not_imported(name, module):
            del sys.modules[name]  # (the next import of it would fail, or run the game's)
            return f"replaced module {name} in sys.modules with None" if module is None else \
                f"added module {name} to sys.modules ({_named(module)}, not imported)"
    for name in recorded.keys() - sys.modules.keys():
        if name.partition(".")[0] in _LIBRARIES:
            return f"removed module {name} from sys.modules"
    return None


def _not_imported(name: str, module: Any) -> bool:
    """Whether ``module`` was made, or is another's, not imported as ``name`` (a library's
    own modules may be another's under a second name)."""
    spec = getattr(module, "__spec__", None)
    return spec is None or not isinstance(module, ModuleType) or \
        name.partition(".")[0] == "mdp" and getattr(spec, "name", None) != name


def _named(module: Any) -> str:
    if isinstance(module, ModuleType):
        return f"module {module.__name__}"
    return "None" if module is None else f"a {type(module).__name__}"


def command_warnings() -> Any:
    """Python's warnings filters as a command runs, set before the guard records the process
    and put back as it ends (``__exit__`` of what is returned): a ``RuntimeWarning`` of
    float arithmetic (an overflow, a division by zero) is never shown with a line of source;
    it means a number went wrong, said as an error; and pluggy's warning of an older
    wrapper's teardown that raised is not shown beside the error it raised. A game that
    takes the filters out (``warnings.resetwarnings()``) is refused as any change of the
    filters is."""
    import warnings

    import pluggy

    kept = warnings.catch_warnings()
    kept.__enter__()
    warnings.simplefilter("error", RuntimeWarning)
    # An older wrapper's teardown that raises (outcome.get_result() around a hook that raised
    # gives its error again) is one error, said once in one line naming whose it is: pluggy's
    # warning beside it would say it again, in escapes, from a line of mdp's.
    warnings.simplefilter("ignore", pluggy.PluggyTeardownRaisedWarning)
    return kept


def _fate(filters: Any, category: type[Warning]) -> tuple[str, Any]:
    """What Python's filters do with a ``category`` warned in mdp: ``"error"``, ``"ignore"``
    or ``"shown"``, and the filter that decides it (a filter of one message or line may not
    apply: passed over)."""
    for entry in filters:
        action, message, of, module, line = entry
        if message is None and not line and isinstance(of, type) and issubclass(category, of) \
                and (module is None or module.match("mdp.engine.budget")):
            return action if action in ("error", "ignore") else "shown", entry
    return "shown", None


def _reaches_mdp(entry: Any) -> bool:
    """Whether a warnings filter changes what becomes of mdp's own warnings: makes an error
    of a ``UserWarning`` or hides it, or makes a ``RuntimeWarning`` of float arithmetic, an
    error in mdp, anything else."""
    action, message, category, module, _ = entry
    return message is None and isinstance(category, type) and \
        (module is None or bool(module.match("mdp.engine.budget"))) and \
        (issubclass(UserWarning, category) and action in ("error", "ignore") or
         issubclass(RuntimeWarning, category) and action != "error")


def _warnings(recorded: dict[str, Any]) -> str | None:
    import warnings

    was = recorded["filters"]
    added = [entry for entry in warnings.filters if entry not in was and _reaches_mdp(entry)]
    if added:
        warnings.filters[:] = [e for e in warnings.filters if e not in added]  # type: ignore[index]
        warnings._filters_mutated()  # type: ignore[attr-defined]
        action, _, category, *_ = added[0]
        return f"set Python's warnings filter {action!r} for {getattr(category, '__name__', category)} " \
            "(warnings.filters)"
    removed = [entry for entry in was if entry not in warnings.filters]
    fates = {category: (_fate(was, category), _fate(warnings.filters, category)[0])
             for category in (UserWarning, RuntimeWarning)}
    deciding = [entry for (fate, entry), now in fates.values() if fate != now and entry in removed]
    if deciding:  # mdp's own taken out (warnings.resetwarnings(), say)
        action, _, category, *_ = deciding[0]
        warnings.filters[:] = was  # type: ignore[index]
        warnings._filters_mutated()  # type: ignore[attr-defined]
        return f"took out Python's warnings filter {action!r} for " \
            f"{getattr(category, '__name__', category)} (warnings.filters)"
    ours = recorded["showwarning"]  # mdp's own, as the command began
    shows = warnings.showwarning  # (mdp's own, or one of mdp's while it shows progress)
    if getattr(ours, "__module__", "").startswith("mdp.") and shows is not ours and \
            not getattr(shows, "__module__", "").startswith("mdp."):
        warnings.showwarning = ours
        return "replaced warnings.showwarning"
    return None


def _held(name: str) -> Any:
    return _armed.get(f"holder {name}")


def _holder(name: str) -> Any:
    """faulthandler's function ``name``, held: it notes that it was called, and does it."""
    python_s = _armed[name]

    def held(*args: Any, **kwargs: Any) -> None:
        if _armed.get(name) is not python_s:  # (the command has ended)
            return python_s(*args, **kwargs)
        _armed["called"] = name  # never armed: refused where control comes back
        return None

    held.__name__ = held.__qualname__ = name
    _armed[f"holder {name}"] = held
    return held


def _faulthandler(recorded: dict[str, Any]) -> str | None:
    name = _armed.pop("called", None)
    return None if name is None else f"armed faulthandler (faulthandler.{name}; mdp kept it out)"


def _group() -> tuple[int, int] | None:
    try:
        return os.getpgrp(), os.getsid(0)
    except (AttributeError, OSError):  # (no process groups: Windows)
        return None


def _grouped(recorded: dict[str, Any]) -> str | None:
    now, was = _group(), recorded["group"]
    if now == was or now is None or was is None:
        return None
    if now[1] != was[1]:
        return "moved mdp to a session of its own (os.setsid; a Ctrl-C at the terminal never comes)"
    try:
        os.setpgid(0, was[0])
    except OSError:  # (that group gone)
        pass
    return "moved mdp to a process group of its own (os.setpgid; a Ctrl-C at the terminal never comes)"


_CONTEXT = ("prec", "rounding", "Emin", "Emax", "capitals", "clamp")


def _decimal() -> dict[str, Any] | None:
    """The decimal context of this thread, where :mod:`decimal` is loaded."""
    decimal = sys.modules.get("decimal")
    if decimal is None:
        return None
    context = decimal.getcontext()
    return {**{name: getattr(context, name) for name in _CONTEXT}, "traps": dict(context.traps)}


def _decimal_changed(recorded: dict[str, Any]) -> str | None:
    import threading

    now, was = _decimal(), recorded["decimal"]
    if now == was or now is None or threading.current_thread() is not threading.main_thread():
        return None
    if was is None:  # loaded since: its context as the module makes it
        was = recorded["decimal"] = _decimal_default()
        if now == was:
            return None
    context = sys.modules["decimal"].getcontext()
    for name in _CONTEXT:
        setattr(context, name, was[name])
    context.traps.update(was["traps"])
    name = next(name for name in now if now[name] != was[name])
    return f"changed decimal's context (decimal.getcontext().{name})"


def _decimal_default() -> dict[str, Any]:
    import decimal

    context = decimal.Context()
    return {**{name: getattr(context, name) for name in _CONTEXT}, "traps": dict(context.traps)}


def _polars() -> dict[str, Any] | None:
    """Polars' settings but those of environment variables, where Polars is loaded."""
    config = sys.modules.get("polars.config")
    if config is None or not hasattr(config, "Config"):
        return None
    settings = config.Config.state(env_only=False)
    for name in config.Config.state(env_only=True):
        settings.pop(name, None)
    runtime = getattr(config, "_POLARS_CFG_RUNTIME_VARS", {})
    return {**settings, **{name: get() for name, (get, _, _) in runtime.items()}}


def _polars_changed(recorded: dict[str, Any]) -> str | None:
    now, was = _polars(), recorded["polars"]
    if now is not None and was is None:  # loaded since: its settings as Polars makes them
        with sys.modules["polars.config"].Config(restore_defaults=True):
            was = recorded["polars"] = _polars()
    if now is None or was is None or now.keys() != was.keys() or \
            all(now[name] is was[name] or now[name] == was[name] for name in now):
        return None
    config = sys.modules["polars.config"]
    runtime = getattr(config, "_POLARS_CFG_RUNTIME_VARS", {})
    changed = [name for name in now if not (now[name] is was[name] or now[name] == was[name])]
    for name in changed:
        if name in runtime:
            runtime[name][1](was[name])
        else:
            getattr(config.Config, name)(was[name])
    return f"changed Polars' settings (polars.Config.{changed[0]})"


def polars_environment(names: set[str]) -> None:
    """Polars told that its environment variables ``names`` were put back: it keeps what
    some of them said as they were set."""
    reload = getattr(getattr(sys.modules.get("polars.config"), "plr", None), "config_reload_env_var", None)
    for name in names:
        if reload is not None and name.startswith("POLARS_"):
            try:
                reload(name)
            except Exception:  # noqa: BLE001, S110  (a variable Polars does not keep)
                pass


GRACE = 2.0
"""Seconds the threads a game or plugin left running are given to end with the program."""


def left_running(code: int, who: str) -> None:
    """Where game or plugin code (``who``, the last to run) left a thread of its own running
    (not a daemon), which would keep the process from ending once the command has: it is
    given :data:`GRACE` seconds to end (what it prints then goes to standard error); then one
    line that says so, and the process ends, with the command's exit ``code``, not waiting
    longer (mdp's own pool of threads ends with the process)."""
    import threading
    import time

    pool = getattr(getattr(sys.modules.get("mdp.engine.parallel"), "_pool", None), "_threads", ())
    alive = [thread for thread in threading.enumerate() if thread is not threading.main_thread()
             and not thread.daemon and thread not in pool and thread.is_alive()]
    end = time.monotonic() + GRACE
    for thread in alive:
        thread.join(max(0.0, end - time.monotonic()))
    alive = [thread for thread in alive if thread.is_alive()]
    if not alive:
        return
    from mdp.errors import MdpError, say

    say(f"mdp: warning: {MdpError(f'{who} left its thread {alive[0].name} running')}; mdp "
        "ends without waiting for it", flush=True)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
