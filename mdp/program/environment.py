"""The environment variables that mdp and the libraries it loads read, checked as a command
starts: a value they cannot take is one line and exit code 2 before any work, where it was a
traceback (or a panic of Polars) in the middle of it.

- ``MDP_THREADS``: the threads of mdp's work (:func:`mdp.engine.parallel.threads`);
- ``POLARS_MAX_THREADS``: Polars' threads, read as Polars loads (0 stops it; a word is passed
  over with a warning; too many take the machine), from 1 to as many as ``MDP_THREADS``;
- ``NUMPY_MADVISE_HUGEPAGE``: read by numpy as it loads, as Python's ``int`` reads it (a
  word stopped numpy's import, and every game was blamed for it).

Every other ``POLARS_*`` variable is cleared for mdp's process as a command starts
(:func:`clear_polars_environment`): mdp decides how Polars runs for its own work. They are
Polars' switches for debugging, engines and display (``POLARS_PANIC_ON_ERR=1`` turned the
errors Polars recovers from inside into panics and tracebacks; ``POLARS_ENGINE_AFFINITY=gpu``
had mdp's Parquet writer fail for want of a GPU engine), none of which changes a result.
Kept: ``POLARS_TEMP_DIR`` (where Polars may spill), and the ones that choose Polars' binary
as it loads (``POLARS_SKIP_CPU_CHECK``, ``POLARS_FORCE_PKG``, ``POLARS_PREFER_PKG``).

``MPLBACKEND`` is not read: mdp draws with matplotlib's Agg whatever it says
(:mod:`mdp.outputs.plot`); ``PYTHONIOENCODING`` is honoured, a letter the encoding lacks
printed as its escape (:class:`mdp.program.stdout.Output`).
"""

from __future__ import annotations

import os
import sys


def check_environment() -> None:
    """Refuse, before any work, a value of an environment variable that mdp or Polars
    cannot take."""
    from mdp.engine.parallel import pin  # no numpy: os and threading

    # Read once, as the command starts: a game's code that changes them later cannot
    # change what was decided, nor have the user's environment blamed.
    pin("MDP_THREADS", "POLARS_MAX_THREADS")  # Polars starts every thread it is told to: 99999 took
    # the machine's memory and did not stop at SIGTERM; 0 stopped it


def check_numpy_environment() -> None:
    """``NUMPY_MADVISE_HUGEPAGE``, where it is set, a number numpy can read: checked before
    anything imports numpy (the parser's analyses do)."""
    from mdp.errors import ParamError

    value = os.environ.get("NUMPY_MADVISE_HUGEPAGE")
    if value is None:
        return
    try:
        int(value)
    except ValueError:
        raise ParamError(f"NUMPY_MADVISE_HUGEPAGE={value!r}: expected a whole number (0: no huge "
                         "pages for numpy's arrays, 1: huge pages; or leave it unset)") from None


POLARS_KEPT = frozenset({"POLARS_MAX_THREADS", "POLARS_TEMP_DIR", "POLARS_SKIP_CPU_CHECK",
                         "POLARS_FORCE_PKG", "POLARS_PREFER_PKG"})
"""The ``POLARS_*`` variables mdp leaves as the user set them (the first checked)."""


NUMBA_NOTES = ("NUMBA_DEBUG", "NUMBA_DUMP_", "NUMBA_WARNINGS", "NUMBA_DEVELOPER_MODE",
               "NUMBA_FULL_TRACEBACKS", "NUMBA_HIGHLIGHT_DUMPS")
"""The beginnings of numba's switches that add its notes to mdp's standard error (its
compiler's code, kilobytes of it), cleared as Polars' are; its others change nothing mdp
says, and a value numba cannot take leaves numpy's kernel (:mod:`mdp.engine.fused`)."""


def clear_polars_environment() -> dict[str, str]:
    """Unset every ``POLARS_*`` variable but :data:`POLARS_KEPT`, and numba's switches of
    notes (:data:`NUMBA_NOTES`), before Polars or numba is imported or called; returns what
    was unset, for the caller to set again when it is done (mdp run from Python, in a
    process that goes on)."""
    cleared = {name: value for name, value in os.environ.items()
               if name.startswith("POLARS_") and name not in POLARS_KEPT
               or name.startswith(NUMBA_NOTES)}
    for name in cleared:
        del os.environ[name]
    return cleared


# The variables by which OpenBLAS (numpy's matrix library) is told how many threads to start.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def numpy_settings() -> None:
    """Settings numpy reads as it loads (so none once it is loaded), each unless the user
    set it.

    - One OpenBLAS thread: mdp multiplies no matrices, and OpenBLAS starts a thread for
      each other core as numpy loads, each spinning a while in wait for work: on a busy
      machine they take the solve's core. Set ``OPENBLAS_NUM_THREADS`` for a plugin that
      multiplies large matrices.
    - No huge pages (``NUMPY_MADVISE_HUGEPAGE=0``): numpy asks the kernel for them for
      every array of 4 MB or more, and where the kernel then compacts memory on the spot
      (transparent huge pages with ``defrag`` set to ``madvise``, a common default) a fresh
      array costs several times the time (the Performance page measures it).
    """
    if "numpy" in sys.modules:
        return
    if not any(os.environ.get(name) for name in _BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
