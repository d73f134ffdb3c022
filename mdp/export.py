"""Writing tables to files, in the format the file name asks for."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import polars as pl

from mdp.errors import MdpError

WRITERS = {
    ".parquet": pl.DataFrame.write_parquet,
    ".csv": pl.DataFrame.write_csv,
    ".json": pl.DataFrame.write_json,
    ".ndjson": pl.DataFrame.write_ndjson,
}
"""File extension to Polars writer."""


def write_table(frame: pl.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` to ``path`` atomically: all of it, or nothing at all.

    The format follows the extension: ``.parquet``, ``.csv``, ``.json`` or ``.ndjson``. The table goes to a temporary
    file beside the target, which is renamed over it only once complete.
    """
    path = Path(path)
    writer = WRITERS.get(path.suffix.lower())
    if writer is None:
        allowed = ", ".join(WRITERS)
        raise MdpError(f"{path}: unknown file type {path.suffix or '(none)'!r} (allowed: {allowed})")
    if not path.parent.is_dir():
        raise MdpError(f"{path}: folder {path.parent} does not exist")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(handle)
    try:
        writer(frame, temporary)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
