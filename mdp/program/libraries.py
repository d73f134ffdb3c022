"""The settings of the interpreter and of the libraries mdp works with that game or plugin
code must leave as it found them, part of :mod:`mdp.program.settings` (which says why each
matters): numpy's floating-point error handling, matplotlib's settings, the import machinery
and the audit hooks. Each changed is put back, and said as the end of a sentence."""

from __future__ import annotations

import sys
from typing import Any

_NUMPY_LOADED = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn", "call": None}
"""numpy's error handling as numpy loads (recorded so where it is loaded later)."""

_IMPORTING = ("sys.meta_path", "sys.path_hooks", "sys.path")

_audit = {"watching": False, "added": 0, "installed": False}


def record() -> dict[str, Any]:
    """These settings now; mdp's audit hook added, once in the process."""
    if not _audit["installed"]:
        sys.addaudithook(_audited)
        _audit["installed"] = True
    _audit["watching"] = True
    return {"numpy": _numpy() or dict(_NUMPY_LOADED), "rc": rc(), **importing(),
            "audit": _audit["added"]}


def importing() -> dict[str, Any]:
    """The import machinery now, as :func:`record` keeps it."""
    return {"importing": {name: _list(name) for name in _IMPORTING},
            "cache": dict(sys.path_importer_cache)}


def forget() -> None:
    """The command has ended: a hook may be added again."""
    _audit["watching"] = False


def changed(recorded: dict[str, Any]) -> str | None:
    return _audited_hook(recorded) or _importer(recorded) or _numpy_changed(recorded) or \
        _rc_changed(recorded)


def _audited(event: str, args: Any) -> None:
    """mdp's audit hook: while a command runs, an audit hook added but by mdp's own code is
    refused (a ``RuntimeError`` here keeps it out, and the one who added it goes on), and
    counted."""
    if event == "sys.addaudithook" and _audit["watching"] and \
            not sys._getframe(1).f_globals.get("__name__", "").startswith("mdp."):
        _audit["added"] += 1
        raise RuntimeError("mdp refuses an audit hook added while a command runs")


def _audited_hook(recorded: dict[str, Any]) -> str | None:
    if _audit["added"] == recorded["audit"]:
        return None
    recorded["audit"] = _audit["added"]  # (never added: nothing to put back)
    return "added an audit hook (sys.addaudithook; mdp kept it out)"


def _list(name: str) -> tuple[list[Any], list[Any], list[Any]]:
    """The list ``sys.NAME``, what it holds, and what it holds but mdp's own finders
    (:func:`_mine`)."""
    now = getattr(sys, name.partition(".")[2])
    return now, list(now), [entry for entry in now if not _mine(entry)]


def _mine(finder: Any) -> bool:
    """A finder of mdp's own (a class of an ``mdp.*`` module, or one of its objects), which
    mdp adds once in the process as it first needs it."""
    cls = finder if isinstance(finder, type) else type(finder)
    module = sys.modules.get(getattr(cls, "__module__", None) or "")
    return module is not None and module.__name__.startswith("mdp.") and \
        getattr(module, cls.__qualname__, None) is cls


def _importer(recorded: dict[str, Any]) -> str | None:
    """A finder, a path hook or a folder to import from added, taken out or replaced (a
    module mdp imports later would be the game's), or a finder of a kind not there before
    put in ``sys.path_importer_cache`` (it caches the finders of each folder as imports
    look in them: folders are added, taken out and made again as imports go, by Python's
    own path hooks): put back, and refused."""
    for name in _IMPORTING:
        was, whole, held = recorded["importing"][name]
        now, entries, kept = _list(name)
        if now is not was or len(kept) != len(held) or any(a is not b for a, b in zip(kept, held)):
            was[:] = [*whole, *(entry for entry in entries  # mdp's added since, kept
                                if _mine(entry) and not any(entry is e for e in whole))]
            setattr(sys, name.partition(".")[2], was)
            return f"changed the import machinery ({name})"
    cache = recorded["cache"]
    kinds = {type(finder) for finder in cache.values()} | {type(None), *_PYTHON_S}
    for folder, finder in list(sys.path_importer_cache.items()):
        if type(finder) not in kinds:  # (one of a kind there is: made again, as imports do)
            if folder in cache:
                sys.path_importer_cache[folder] = cache[folder]
            else:
                del sys.path_importer_cache[folder]
            return "changed the import machinery (sys.path_importer_cache)"
    return None


def _python_s() -> tuple[type, ...]:
    """The kinds of finder Python's own path hooks make (a folder's, a zip archive's)."""
    import importlib.machinery
    import zipimport

    return importlib.machinery.FileFinder, zipimport.zipimporter


_PYTHON_S = _python_s()


def _numpy() -> dict[str, Any] | None:
    """numpy's floating-point error handling, where numpy is loaded."""
    numpy = sys.modules.get("numpy")
    if numpy is None or not hasattr(numpy, "geterrcall"):
        return None
    return {**numpy.geterr(), "call": numpy.geterrcall()}


def _numpy_changed(recorded: dict[str, Any]) -> str | None:
    now, was = _numpy(), recorded["numpy"]
    if now is None or now == was:
        return None
    numpy = sys.modules["numpy"]
    numpy.seterr(**{name: was[name] for name in was if name != "call"})
    numpy.seterrcall(was["call"])
    if now["call"] is not was["call"]:
        return "changed numpy's floating-point error handling (numpy.seterrcall)"
    name = next(name for name in was if now[name] != was[name])
    return (f"changed numpy's floating-point error handling (numpy.seterr): {name} to "
            f"{now[name]!r} from {was[name]!r}")


def rc() -> tuple[Any, dict[str, Any]] | None:
    """matplotlib's settings and what they hold (but the backend's, which mdp sets), where
    matplotlib is loaded."""
    params = getattr(sys.modules.get("matplotlib"), "rcParams", None)
    if params is None:
        return None
    return params, {name: value for name, value in dict.items(params) if name not in _BACKEND}


_BACKEND = ("backend", "backend_fallback")


def _rc_changed(recorded: dict[str, Any]) -> str | None:
    if recorded["rc"] is None:
        return None
    params, held = recorded["rc"]
    matplotlib: Any = sys.modules["matplotlib"]
    if matplotlib.rcParams is not params:
        matplotlib.rcParams = params
        return "replaced matplotlib.rcParams"
    for name in [*(held.keys() ^ dict.keys(params)), *held]:
        if name not in _BACKEND and (name not in held or name not in params or
                                     _differ(dict.get(params, name), held[name])):
            for gone in dict.keys(params) - held.keys() - set(_BACKEND):
                dict.pop(params, gone)
            dict.update(params, held)
            return f"changed matplotlib's settings (matplotlib.rcParams[{name!r}])"
    return None


def _differ(now: Any, was: Any) -> bool:
    if now is was:
        return False
    try:
        return bool(now != was)
    except Exception:  # noqa: BLE001  (a value of the game's whose == raises: changed)
        return True
