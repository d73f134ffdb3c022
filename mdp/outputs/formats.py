"""Output formats for tables: a :class:`Format` writes a Polars DataFrame to a file object.

Formats are offered through the hook :func:`~mdp.hookspecs.program.mdp_formats` (the
built-in ones too) and chosen by a file's extension or by name (:func:`mdp.formats`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

import attrs

from mdp.errors import PLUGIN_FAULTS, MdpError, ModelError, fault

if TYPE_CHECKING:
    import polars as pl


@attrs.frozen
class Format:
    """An output format for tables: chosen by a file's extension or by ``--format NAME``.

    ``write(frame, file)`` writes a Polars DataFrame to a binary file object.
    """

    name: str
    extensions: tuple[str, ...]
    write: Callable[[pl.DataFrame, BinaryIO], None] = attrs.field(repr=False)
    help: str = ""
    binary: bool = False
    """Not for a terminal: ``--format`` refuses to print it there."""

    def dump(self, frame: pl.DataFrame, file: BinaryIO, target: str) -> None:
        """Write ``frame`` to ``file`` in this format. A failure to write is one
        :class:`~mdp.MdpError` naming ``target``; a reader that went away, a
        :class:`BrokenPipeError`; a writer that breaks, a :class:`~mdp.ModelError`."""
        watched = _Watched(file)
        try:
            self.write(frame, watched)
        except (BrokenPipeError, MdpError):
            raise
        except PLUGIN_FAULTS as error:
            if watched.interrupted:  # Ctrl-C or SIGTERM inside a writer that hid it (Rust)
                raise KeyboardInterrupt from None
            if isinstance(watched.error, BrokenPipeError):
                raise BrokenPipeError(str(watched.error)) from None
            if watched.error is not None:
                raise MdpError(f"cannot write to {target}: "
                               f"{watched.error.strerror or watched.error}") from None
            text = fault(error)  # writers in Rust (Polars) give no errno, only their text
            if "os error 32" in text or "Broken pipe" in text:
                raise BrokenPipeError(text) from None
            if isinstance(error, OSError) or "os error" in text:
                reason = getattr(error, "strerror", None) or text
                raise MdpError(f"cannot write to {target}: {reason}") from None
            raise ModelError(f"the {self.name} format raised {text}") from error


class _Watched:
    """A file that keeps the first operating-system error its writes raised: a writer in
    Rust (Polars) reports it in its own words, and after a failed Parquet footer not at all."""

    def __init__(self, file: BinaryIO) -> None:
        self.file, self.error, self.interrupted = file, None, False

    def write(self, data):
        try:
            return self.file.write(data)
        except OSError as error:
            self.error = self.error or error
            raise
        except KeyboardInterrupt:  # a writer in Rust turns it into an error of no words
            self.interrupted = True
            raise

    def __getattr__(self, name: str):
        return getattr(self.file, name)
