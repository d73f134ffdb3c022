"""What a game's or plugin's code must leave as it found it in the process, checked where
control comes back from it: after the game is loaded, compiled and solved, after an
analysis, after the command, and before a fault of mdp's own is shown as a bug
(:func:`check`). Recorded once as the command starts (:func:`record`), before any game or
plugin code runs; each check is a few comparisons, not one per hook call.

- the working directory: the files a command writes are named relative to it as it was
  given (:func:`mdp.outputs.files.absolute`), and a game's own relative paths would change
  meaning: a change is refused;
- standard output, file descriptor 1 or ``sys.stdout``: closed or replaced, the answer is
  lost: refused;
- Python's recursion limit, lowered (raised is harmless): refused;
- a module mdp had loaded, or any module, made ``None`` or replaced in ``sys.modules``:
  refused (the next import of it fails);
- a built-in function or type replaced (``builtins.float``): refused;
- ``sys.stdout`` rebound (a hook capturing its prints): put back, silently; what mdp prints
  goes to the real standard output;
- mdp's and Polars' environment variables (``MDP_*``, ``POLARS_*``), read as the command
  starts: put back, silently; a hook's change could not take effect, and must not be taken
  for the user's.
"""

from __future__ import annotations

import builtins
import os
import sys
from typing import Any

from mdp.errors import ModelError

_WATCHED = ("MDP_", "POLARS_", "NUMPY_", "OPENBLAS_")

_recorded: dict[str, Any] | None = None


def _descriptor() -> tuple[int, int] | None:
    try:
        status = os.fstat(1)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _closed(stream: Any) -> bool:
    try:
        return bool(stream.closed)
    except (AttributeError, ValueError, OSError):
        return False


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith(_WATCHED)}


def record() -> None:
    """Remember what game and plugin code must leave as it found it: now, before any runs."""
    global _recorded
    _recorded = {
        "cwd": _cwd(),
        "fd": _descriptor(),
        "stdout": sys.stdout,
        "closed": _closed(sys.stdout),
        "limit": sys.getrecursionlimit(),
        "modules": dict(sys.modules),
        "builtins": dict(vars(builtins)),
        "environ": _environment(),
    }


def forget() -> None:
    global _recorded
    _recorded = None


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # removed under it
        return None


def check(who: str) -> None:
    """Refuse, in one line that blames ``who`` (``"game shutbox"``), a change of what it
    must leave as it found it; put back what is put back. Nothing where :func:`record` was
    not called (the Python API: mdp owns no process there)."""
    if _recorded is None:
        return
    from mdp.outputs.files import refuse_read_targets
    from mdp.program.stdout import rebind

    refuse_read_targets()
    rebind()
    environ = _environment()
    if environ != _recorded["environ"]:
        for name in environ.keys() - _recorded["environ"].keys():
            del os.environ[name]
        os.environ.update(_recorded["environ"])
    fault = _fault()
    if fault is not None:
        raise ModelError(f"{who} {fault} while its code ran; a game or plugin must leave the "
                         "process as it found it")


def _fault() -> str | None:
    """What was changed, said as the end of a sentence, or ``None``."""
    from mdp.program.stdout import dropped

    assert _recorded is not None
    cwd = _cwd()
    if cwd != _recorded["cwd"]:
        return f"changed the working directory from {_recorded['cwd']} to {cwd}"
    # (mdp itself may have sent it to the null device, its reader gone: no one's fault)
    if _descriptor() != _recorded["fd"] and _recorded["fd"] is not None and not dropped():
        return "closed or replaced standard output (file descriptor 1)"
    if _closed(_recorded["stdout"]) and not _recorded["closed"]:
        return "closed standard output (sys.stdout)"
    limit = sys.getrecursionlimit()
    if limit < _recorded["limit"]:
        return f"lowered Python's recursion limit from {_recorded['limit']} to {limit}"
    modules = _recorded["modules"]
    for name, module in list(sys.modules.items()):
        if module is None and modules.get(name, 0) is not None or \
                name in modules and module is not modules[name]:
            return f"replaced module {name} in sys.modules with {module!r:.60}"
    for name in modules.keys() - sys.modules.keys():
        if name.partition(".")[0] in ("mdp", "numpy", "polars", "pluggy"):
            return f"removed module {name} from sys.modules"
    now = vars(builtins)
    for name, value in _recorded["builtins"].items():
        if now.get(name, _recorded) is not value:
            return f"replaced Python's built-in {name}"
    return None
