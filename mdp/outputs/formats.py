"""Output formats for tables: a :class:`Format` writes a Polars DataFrame to a file object.

Formats are offered through the hook :func:`~mdp.hookspecs.program.mdp_formats` (the
built-in ones too) and chosen by a file's extension or by name (:func:`mdp.formats`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import attrs

from mdp.errors import PLUGIN_FAULTS, MdpError, ModelError, fault

if TYPE_CHECKING:
    import polars as pl

    from mdp.analysis.pieces import Pieces


@attrs.frozen
class Format:
    """An output format for tables: chosen by a file's extension or by ``--format NAME``.

    ``write(frame, file)`` writes a Polars DataFrame to a binary file object. A table made
    a piece at a time (:class:`~mdp.analysis.pieces.Pieces`: the policy of a large game) is
    given to ``stream(pieces, file)`` if the format has it, which writes each piece as it
    comes; else it is made whole and given to ``write``.
    """

    name: str
    extensions: tuple[str, ...]
    write: Callable[[pl.DataFrame, BinaryIO], None] = attrs.field(repr=False)
    help: str = ""
    binary: bool = False
    """Not for a terminal: ``--format`` refuses to print it there."""
    stream: Callable[[Pieces, BinaryIO], None] | None = attrs.field(default=None, repr=False)

    def dump(self, table: pl.DataFrame | Pieces, file: BinaryIO, target: str) -> None:
        """Write ``table`` to ``file`` in this format. A failure to write is one
        :class:`~mdp.MdpError` naming ``target``; a reader that went away, a
        :class:`BrokenPipeError`; a writer that breaks, a :class:`~mdp.ModelError`.
        Pieces are streamed into a file that can be written again from its start (a piece
        that widens the columns' types starts it again); into a pipe, made whole first."""
        from mdp.analysis.pieces import Pieces, Widened

        watched = _Watched(file)
        try:
            # (cast: a _Watched is the file, but for its writes)
            if not isinstance(table, Pieces):
                self.write(table, cast(BinaryIO, watched))
            elif self.stream is None or not _seekable(file):
                self.write(table.frame(), cast(BinaryIO, watched))
            else:
                while True:
                    try:
                        return self.stream(table, cast(BinaryIO, watched))
                    except Widened:  # again from the start; what the writer still holds
                        watched.dropped = True  # is let go of (Polars writes it when freed)
                        file.seek(0)
                        file.truncate()
                        watched = _Watched(file)
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


def _seekable(file: BinaryIO) -> bool:
    try:
        return file.seekable()
    except (AttributeError, OSError, ValueError):
        return False


class _Watched:
    """A file that keeps the first operating-system error its writes raised: a writer in
    Rust (Polars) reports it in its own words, and after a failed Parquet footer not at all."""

    def __init__(self, file: BinaryIO) -> None:
        self.file, self.interrupted, self.dropped = file, False, False
        self.error: OSError | None = None

    def write(self, data: bytes) -> int:
        if self.dropped:
            return len(data)
        try:
            return self.file.write(data)
        except OSError as error:
            self.error = self.error or error
            raise
        except KeyboardInterrupt:  # a writer in Rust turns it into an error of no words
            self.interrupted = True
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)
