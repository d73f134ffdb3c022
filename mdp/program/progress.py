"""How far long work has got, on one line of a terminal's stderr."""

from __future__ import annotations

import sys
import time
import warnings
from typing import Any

import mdp
from mdp.errors import say


class Progress:
    """Shows on one line of a terminal's stderr how far long work has got; ``None`` (no
    progress) when stderr is not a terminal. mdp's warnings meanwhile (an
    :class:`mdp.UnboundedWarning`) are each one line on stderr, terminal or not."""

    DELAY = 0.5  # seconds before the first line: quick work shows nothing

    def __enter__(self) -> Progress | None:
        self.start, self.shown = time.perf_counter(), False
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        self.others, warnings.showwarning = warnings.showwarning, self.warn
        return self if sys.stderr.isatty() else None

    def warn(self, message: Warning | str, category: type[Warning], *where: Any,
             **how: Any) -> None:
        """``mdp: warning: ...``, on a line of its own: the progress goes on below it."""
        if not issubclass(category, mdp.UnboundedWarning):
            self.others(message, category, *where, **how)
            return
        if self.shown:
            sys.stderr.write("\r\033[K")
        say(f"mdp: warning: {message}", flush=True)

    def __call__(self, text: str) -> None:
        seconds = time.perf_counter() - self.start
        if seconds >= self.DELAY:
            sys.stderr.write(f"\r\033[K{text}  [{seconds:.1f} s]")
            sys.stderr.flush()
            self.shown = True

    def __exit__(self, *exc: Any) -> None:
        self.warnings.__exit__(*exc)
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
