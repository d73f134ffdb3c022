"""A script run by a JavaScript engine (mini-racer) in a thread of its own, so that the
thread that asked can be interrupted while it runs."""

from __future__ import annotations

import threading
from typing import Any


def evaluated(engine: Any, code: str, seconds: float) -> Any:
    """``code`` run by ``engine`` (a ``py_mini_racer.MiniRacer``, at most ``seconds``) in a
    thread of its own, this one waiting in short steps: a signal (Ctrl-C, SIGTERM) is then
    handled at once, its exception leaving the engine's ``with``, which stops the script,
    where a wait for V8's answer let the script run to its end or its timeout first. What
    the engine raises is raised here."""
    answer: list[tuple[bool, Any]] = []

    def evaluate() -> None:
        try:
            answer.append((True, engine.eval(code, timeout_sec=seconds)))
        except BaseException as error:  # noqa: BLE001  (raised again in the waiting thread)
            answer.append((False, error))

    worker = threading.Thread(target=evaluate, name="javascript", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    ran, value = answer[0]
    if not ran:
        raise value
    return value


def quiet_late_callbacks() -> None:
    """Leave unsaid what V8 answers after a script it stopped, once its engine is closed:
    py_mini_racer's callback then finds its event loop closed and Python printed a
    traceback ("Exception ignored ... Event loop is closed") above the one error line."""
    import sys

    previous = sys.unraisablehook
    if getattr(previous, "quiet_late_callbacks", False):
        return

    def hook(unraisable: Any) -> None:
        if not getattr(unraisable.object, "__module__", "").startswith("py_mini_racer"):
            previous(unraisable)

    hook.quiet_late_callbacks = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook
