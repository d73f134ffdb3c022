"""What a game's or plugin's code must leave as it found it in the process, checked where
control comes back from it: after the game is loaded, compiled and solved, after an
analysis, after the command, and before a fault of mdp's own is shown as a bug
(:func:`check`). Recorded once as the command starts (:func:`record`), before any game or
plugin code runs; each check is a few comparisons, not one per hook call.

- the working directory: the files a command writes are named relative to it as it was
  given (:func:`mdp.outputs.files.absolute`), and a game's own relative paths would change
  meaning: a change is refused;
- standard output, file descriptor 1 or ``sys.stdout``: closed or replaced, the answer is
  lost: refused; standard error, file descriptor 2 or ``sys.stderr``, closed, or file
  descriptor 2 replaced: put back, so that the line that says so is seen, and refused
  (:mod:`mdp.program.streams`);
- Python's recursion limit, lowered (raised is harmless): put back, and refused;
- a module mdp had loaded, or any module, made ``None`` or replaced in ``sys.modules``, or
  one added under a name mdp imports later: refused (:mod:`mdp.program.states`, with the
  warnings filters, faulthandler, the process group, the decimal context, Polars' settings);
- a built-in function or type replaced (``builtins.float``): refused;
- a function, class or module that is an attribute of a module mdp computes with (every
  ``mdp.*`` module, numpy, Polars, ``fractions``, ``math``, ``operator``...) replaced
  (``numpy.maximum = numpy.minimum``): refused. Each such module's attributes are recorded
  as it is loaded, the ones loaded before the command as it starts, by identity (a scan
  kept from one command to the next where nothing in it changed: :mod:`mdp.program.scans`);
- the settings of :mod:`mdp.program.settings` changed (what a signal does, a timer, the
  umask, a resource limit, ``gc.callbacks`` and the interpreter's hooks, a trace function,
  and :mod:`mdp.program.libraries`': numpy's error handling, matplotlib's settings, the
  import machinery, an audit hook added): put back, and refused;
- what Python prints of the game's code on its own (a thread's exception, an exception in a
  ``__del__`` or an exit callback, a warning): one line each, ``mdp: warning: ...``, its
  control characters escaped, never a traceback (:func:`_said`); the hooks that print them
  are mdp's for the command, and given back as it ends;
- ``sys.stdout`` or ``sys.stderr`` rebound (a hook capturing its prints): put back, silently;
  what mdp prints goes to the real standard output and error;
- the most digits Python turns into text (``sys.set_int_max_str_digits``), which the
  command lifts for exact numbers: put back, silently;
- mdp's and Polars' environment variables (``MDP_*``, ``POLARS_*``), read as the command
  starts: put back, silently; a hook's change could not take effect, and must not be taken
  for the user's.
"""

from __future__ import annotations

import builtins
import importlib
import os
import sys
import weakref
from collections.abc import Callable
from itertools import chain
from types import ModuleType
from typing import Any

from mdp import errors, owner
from mdp.errors import Ended, ModelError
from mdp.program import scans, settings, states, streams

_WATCHED = ("MDP_", "POLARS_", "NUMPY_", "OPENBLAS_")

_recorded: dict[str, Any] | None = None

_COMPUTED_WITH = ("numpy", "numpy.random", "numpy.linalg", "polars", "json", "json.encoder", "shutil",
                  "tempfile", "copy", "contextlib", "re", "html", "base64", "inspect", "enum",
                  "dataclasses", "collections", "weakref", "types", "struct", "textwrap", "string",
                  "numbers", "importlib", "datetime", "fractions", "math", "operator", "functools",
                  "itertools", "heapq", "decimal", "os", "posixpath", "genericpath", "stat")
"""The modules mdp's results are computed, checked and written with, besides its own (``mdp``,
``mdp.*``), those a picture is drawn and written with (``matplotlib.*`` and PIL's) and scipy's
sparse matrices (``scipy.sparse``, ``scipy.sparse.*``: a round's sweep): ``copy`` keeps the
parameters to compare; ``contextlib`` is what the standard library's own look-ups go
through; ``re``, ``html`` and ``base64``, what the report's page is written with; from
``inspect`` to ``datetime``, what numpy, Polars and the rest read as they load, after a
game's code may have run (not every module of Python's: libraries replace some of their
functions as they load, ``typing``'s, say). Each is recorded as it is loaded (or as the
command starts, if it is loaded by then); from ``fractions`` on, Python's own that a
command loads anyway are loaded to be recorded at once (``os.path`` is ``posixpath``;
``stat`` tells a pipe from a file). ``os._exit`` and ``os.exec[v]e`` are left out: mdp itself
holds them while a command runs (:data:`mdp.owner.HELD`)."""

_PACKAGES = ("mdp", "matplotlib", "PIL")
"""Packages every module of which is among those computed with."""


def _computed_with(name: str) -> bool:
    return name in _COMPUTED_WITH or name.split(".")[0] in _PACKAGES or name.startswith("scipy.sparse")


def _function(module: Any, name: str, value: Any) -> bool:
    """Whether ``module.name`` is recorded: a function, class or module, not data."""
    return (callable(value) or isinstance(value, ModuleType)) and \
        not (module in owner.HOLDERS and name in owner.HELD)


def _method(cls: Any, name: str, member: Any) -> bool:
    """Whether ``cls.name`` is recorded: a method or another descriptor, not data."""
    return callable(member) or hasattr(type(member), "__get__")


_OTHERS: set[str] = set()  # the names of modules found not among those computed with


def _record(loaded: dict[str, ModuleType] | None = None) -> None:
    """Record the modules mdp computes with that are ``loaded`` (by default those loaded and
    not recorded yet), and the methods of their classes (``fractions.Fraction.__str__``,
    ``polars.DataFrame.write_csv``): each class once, by identity, whatever module holds it."""
    assert _recorded is not None
    recorded, classes = _recorded["attributes"], _recorded["classes"]
    if loaded is None:
        loaded = {}
        for name in sys.modules.keys() - recorded.keys() - _OTHERS:
            module = sys.modules.get(name)
            if not _computed_with(name):
                _OTHERS.add(name)
            elif isinstance(module, ModuleType):
                loaded[name] = module
    loaded = {name: module for name, module in loaded.items() if name not in recorded}
    found = scans.scan(list(loaded.values()), _function)
    recorded.update(zip(loaded, found))
    new = [cls for cls in dict.fromkeys(chain.from_iterable(scan[3] for scan in found))
           if id(cls) not in classes]
    classes.update(zip(map(id, new), zip(new, scans.scan(new, _method))))
    if "matplotlib" in loaded and _recorded.get("settings", {"rc": 0})["rc"] is None:
        from mdp.program.libraries import rc

        _recorded["settings"]["rc"] = rc()  # its settings as it loads, before a game's change


class _Recorder:
    """Records the attributes of a module mdp computes with as the module is loaded, before
    any code but its own can change them: first among the finders of ``sys.meta_path``
    while a command runs, it finds such a module as the others do and has its loader
    record it once loaded."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if _recorded is None or not _computed_with(name):
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        execute = getattr(loader, "exec_module", None)
        if execute is None or isinstance(loader, type):  # a built-in module's: shared, left be
            return spec

        def exec_module(module: ModuleType) -> None:
            execute(module)
            if _recorded is not None:
                _record({name: module})  # (this one alone: those it imports are loading)

        loader.exec_module = exec_module  # this module's loader alone
        return spec


_RECORDER = _Recorder()


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith(_WATCHED)}


_who = ["a game or plugin"]  # whose code ran last, as the last check named it


def _said(text: str) -> None:
    """One line on standard error of what Python says of game or plugin code on its own."""
    from mdp.errors import MdpError, say

    say(f"mdp: warning: {MdpError(text)}")


def _raised(error: BaseException | None) -> str:
    """``Type: message``, never raised again here (a hook of Python's cannot raise)."""
    from mdp.errors import fault

    try:
        return fault(error) if error is not None else "an exception"
    except BaseException:  # noqa: BLE001  (a MemoryError, an interruption: its name)
        return type(error).__name__


_THREADS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
"""Who started each thread that a refusal named: what it raises later is theirs, whoever ran
last. By the thread itself, not its ident, which a thread started later may be given again."""


def started(thread: Any, who: str) -> None:
    """Say that ``who`` (``"plugin fmt.py's format late"``) left ``thread`` running."""
    _THREADS[thread] = who


def _thread_raised(raised: Any) -> None:
    if raised.exc_type is not SystemExit:  # (as Python's own hook: a thread that ends)
        name = getattr(raised.thread, "name", "a thread")
        try:
            who = _THREADS.get(raised.thread, _who[0])
        except TypeError:  # (no thread: None, which no weak reference holds)
            who = _who[0]
        _said(f"{who}: its thread {name} raised {_raised(raised.exc_value)}")


def _unraisable(raised: Any) -> None:
    where = getattr(raised.object, "__qualname__", None) or type(raised.object).__name__
    if isinstance(raised.exc_value, Ended):
        _said(f"{_who[0]}: its exit callback {where} called {raised.exc_value}")
        return
    what = raised.err_msg or "Exception ignored in"
    _said(f"{_who[0]}: {what} {where}: {_raised(raised.exc_value)}")


def _warned(message: Any, category: type[Warning], filename: str, lineno: int,
            *rest: Any, **more: Any) -> None:
    _said(f"{os.path.basename(filename)}, line {lineno}: {category.__name__}: {message}")


def run_exit_callbacks() -> None:
    """Run the exit callbacks now, as the program ends, a game's or plugin's among them:
    one that raises is one line, and one that calls ``os._exit`` is refused, the exit code
    being the command's (Python would print tracebacks, or end with the callback's code)."""
    import atexit

    hook = sys.unraisablehook
    atexit.unregister(owner.END)  # os._exit itself, registered: never called
    owner.claim(watch=False)
    sys.unraisablehook = _unraisable
    try:
        atexit._run_exitfuncs()
    finally:
        sys.unraisablehook = hook
        owner.release()


def record() -> None:
    """Remember what game and plugin code must leave as it found it: now, before any runs."""
    global _recorded
    for name in _COMPUTED_WITH[_COMPUTED_WITH.index("fractions"):]:  # Python's own: cheap,
        importlib.import_module(name)  # loaded to be recorded now

    _recorded = {
        "cwd": _cwd(),
        "limit": sys.getrecursionlimit(),
        "modules": dict(sys.modules),
        "sys.modules": sys.modules,
        "builtins": dict(vars(builtins)),
        "environ": _environment(),
        "attributes": {},
        "classes": {},
        "digits": sys.get_int_max_str_digits(),
        **streams.record(),
    }
    _record()
    if _RECORDER not in sys.meta_path:
        sys.meta_path.insert(0, _RECORDER)
    owner.claim(watch=True)
    import threading
    import warnings

    _who[0] = "a game or plugin"
    _recorded["hooks"] = threading.excepthook, sys.unraisablehook, warnings.showwarning
    threading.excepthook, sys.unraisablehook = _thread_raised, _unraisable
    _recorded["settings"] = settings.record()  # mdp's hooks among them
    # (warnings recorded by whoever called mdp, catch_warnings(record=True), stay theirs)
    if not isinstance(getattr(getattr(warnings, "_showwarnmsg_impl", None), "__self__", None), list):
        warnings.showwarning = _warned
    _recorded["states"] = states.record()


def forget() -> None:
    global _recorded
    if _recorded is not None:
        _builtins_back()  # (an error of the game's own built-ins may have ended the command)
        streams.forget(_recorded)
        import threading
        import warnings

        threading.excepthook, sys.unraisablehook, warnings.showwarning = _recorded["hooks"]
        settings.forget()
        states.forget()
    _recorded = None
    owner.release()
    if _RECORDER in sys.meta_path:
        sys.meta_path.remove(_RECORDER)


def own_import(name: str, who: str) -> None:
    """Import ``name`` as mdp's own (Dask's distributed, which adds finders to
    ``sys.meta_path`` as it loads): what game or plugin code changed before is refused first
    (blaming ``who``), and what the import changes is then recorded as the process found it,
    never laid at a game. Nothing where it is not installed (said where it is used)."""
    check(who)
    try:
        importlib.import_module(name)
    except ImportError:
        return
    if _recorded is not None:
        from mdp.program import libraries

        _recorded["settings"].update(libraries.importing())
        _record()


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # removed under it
        return None


def left_alone(game: Any) -> None:
    """Where control comes back from ``game``'s code: the process as it found it
    (:func:`check`), and its parameters as they were (:func:`mdp.game.kept.check_params`)."""
    from mdp.game.kept import check_params

    check(f"game {game.name}")
    check_params(game)


def check(who: str | Callable[[], str], raised: BaseException | None = None) -> None:
    """Refuse, in one line that blames ``who`` (``"game shutbox"``), a change of what it
    must leave as it found it; put back what is put back. Nothing where :func:`record` was
    not called (the Python API: mdp owns no process there). Where the command ``raised``,
    and the game's or plugin's own code raised it (:func:`mdp.errors.raised_in_plugin`: a
    trace function of its, say, that took itself out), that is refused too, as its fault."""
    owner.own_process()
    if _recorded is None:
        return
    back = _builtins_back()  # first: what follows calls them (isinstance, len, print ...)
    who = who() if callable(who) else who  # (named once they are back)
    errors.interrupted_before()  # swallowed by the code that ran: the user's all the same
    if raised is not None:
        if back is not None:
            raise _refusal(who, back)
        check(who)
        if errors.raised_in_plugin(raised):
            raise ModelError(f"{who} raised {errors.fault(raised)}") from raised
        return
    _who[0] = who
    from mdp.outputs.files import refuse_read_targets
    from mdp.program.stdout import rebind

    refuse_read_targets()
    rebind()
    if sys.get_int_max_str_digits() != _recorded["digits"]:  # the command's, put back
        sys.set_int_max_str_digits(_recorded["digits"])
    environ = _environment()
    if environ != _recorded["environ"]:
        for name in environ.keys() - _recorded["environ"].keys():
            del os.environ[name]
        os.environ.update(_recorded["environ"])
        states.polars_environment(environ.keys() ^ _recorded["environ"].keys() | {
            name for name in environ if environ[name] != _recorded["environ"].get(name)})
    fault = back or _fault()
    if fault is not None:
        raise _refusal(who, fault)


def _refusal(who: str, fault: str) -> ModelError:
    """The error that blames ``who`` for ``fault``, a change it made to the process."""
    return ModelError(f"{who} {fault} while its code ran; a game or plugin must leave the "
                      "process as it found it")


def _fault() -> str | None:
    """What was changed, said as the end of a sentence, or ``None``."""
    from mdp.outputs.files import changed_targets
    assert _recorded is not None
    cwd = _cwd()
    if cwd != _recorded["cwd"]:
        return f"changed the working directory from {_recorded['cwd']} to {cwd}"
    if (target := changed_targets()) is not None:  # (a game's folder is not the user's)
        return target
    output = streams.output_fault(_recorded)
    if output is not None:
        return output
    limit = sys.getrecursionlimit()
    if limit < _recorded["limit"]:  # put back first: saying so takes more than a few frames
        sys.setrecursionlimit(_recorded["limit"])
        return f"lowered Python's recursion limit from {_recorded['limit']} to {limit}"
    error = streams.error_fault(_recorded)
    if error is not None:
        return error
    if sys.modules is not _recorded["sys.modules"]:  # (Python's imports still use its own)
        sys.modules = _recorded["sys.modules"]
        return "rebound sys.modules"
    modules = states.modules(_recorded["modules"])
    if modules is not None:
        return modules
    if (held := owner.replaced()) is not None:  # (mdp's while the command runs: not recorded)
        return f"replaced {held}"
    return _replaced() or settings.changed(_recorded["settings"]) or states.changed(_recorded["states"])


def builtins_first(who: Callable[[], str]) -> None:
    """Where mdp's own code failed (an :class:`~mdp.MdpError` of its checks), a built-in
    that ``who``'s code replaced may be why (``str``: every isinstance of a text fails): put
    back, and refused as the change it is."""
    if _recorded is not None:
        back = _builtins_back()
        if back is not None:
            raise _refusal(who(), back)


def _builtins_back() -> str | None:
    """Put back the built-ins that game or plugin code replaced, before mdp's own code calls
    them, the refusal's print among them; what was replaced, said, or ``None``."""
    assert _recorded is not None
    now, kept = vars(builtins), _recorded["builtins"]
    replaced = [name for name, value in kept.items() if now.get(name, _recorded) is not value]
    now.update({name: kept[name] for name in replaced})
    return f"replaced Python's built-in {replaced[0]}" if replaced else None


def _replaced() -> str | None:
    """A function, class or module of a module mdp computes with, or a method of one of
    its classes, replaced."""
    assert _recorded is not None
    recorded, classes = _recorded["attributes"], list(_recorded["classes"].values())
    spaces = [vars(sys.modules.get(name) or ModuleType(name)) for name in recorded]
    found = scans.changed([*spaces, *(vars(cls) for cls, _ in classes)],
                          [*recorded.values(), *(scan for _, scan in classes)])
    if found is not None:
        at, name = found
        cls = classes[at - len(recorded)][0] if at >= len(recorded) else None
        where = list(recorded)[at] if cls is None else f"{cls.__module__}.{cls.__qualname__}"
        return f"replaced {where}.{name}"
    _record()  # loaded past the recorder: from now on
    return None


def standard_error_back() -> ModelError | None:
    """Standard error put back where game code closed or replaced it
    (:func:`mdp.program.streams.error_fault`), and
    the error that says so, blaming whose code ran last; ``None`` where it is open."""
    if _recorded is None:
        return None
    fault = streams.error_fault(_recorded)
    return None if fault is None else _refusal(_who[0], fault)
