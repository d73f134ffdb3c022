"""Output formats for tables: a :class:`Format` writes a Polars DataFrame to a file object.

Formats are offered through the hook :func:`~mdp.hookspecs.program.mdp_formats` (the
built-in ones too) and chosen by a file's extension or by name (:func:`mdp.formats`)."""

from __future__ import annotations

import io
import os
import stat
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TypedDict, cast

import attrs

from mdp.errors import PLUGIN_FAULTS, MdpError, ModelError, TooLarge, fault, passed_on, raised_in_plugin
from mdp.hookspecs import hookimpl
from mdp.outputs.left_open import wrapping
from mdp.outputs.readable import readable_table

if TYPE_CHECKING:
    import polars as pl

    from mdp.analysis.pieces import Pieces


@attrs.frozen
class Format:
    """An output format for tables: chosen by a file's extension or by ``--format NAME``.

    ``write(frame, file)`` writes a Polars DataFrame to a binary file object (bytes, not
    text: ``file.write(text.encode())``). A table made
    a piece at a time (:class:`~mdp.analysis.pieces.Pieces`: the policy of a large game) is
    given to ``stream(pieces, file)`` if the format has it, which iterates the pieces
    (``for piece in pieces:``, each a DataFrame of the same columns) and writes each as it
    comes, every one to the last (a stream that returns before is refused, and no file is
    left); else it is made whole and given to ``write``. Either writes its file whole before
    it returns: one that returns with a thread or a process it started still running (left
    to write the rest), or with a wrapper of its file still open (a ``gzip.GzipFile``
    or ``io.TextIOWrapper`` not closed, or flushed and detached: what it holds would not be
    in the file), is refused, and no file is left. A format writes the file it is given alone; mdp
    does not look for other files it writes (an export declares its own, :class:`mdp.Export`).
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
        from mdp.outputs.files import written_by

        named = self._named()
        written_by(named)  # blamed for the file it is given, removed or closed
        watched = _Watched(file)
        plugin = named.startswith("plugin ")  # mdp's own formats start nothing
        before = running_before(plugin)
        try:
            # (cast: a _Watched is the file, but for its writes)
            if not isinstance(table, Pieces):
                self.write(table, cast(BinaryIO, watched))
            elif self.stream is None or not _seekable(file):
                self.write(table.frame(), cast(BinaryIO, watched))
            else:
                while True:
                    try:
                        passes, begun = table.passes, table.begun
                        self.stream(table, cast(BinaryIO, watched))
                        if table.begun - begun > 1:  # every row written twice, or more
                            raise ModelError(
                                f"{named} took the pieces of {table.name} "
                                f"{table.begun - begun} times; a stream writes each piece it "
                                "is given once (for piece in pieces: ...)")
                        if table.passes == passes:  # it returned before the last piece
                            raise ModelError(
                                f"{named} returned before it had taken every piece of "
                                f"{table.name}; a stream writes each piece it is given, to the "
                                "last (for piece in pieces: ...)")
                        break
                    except Widened:  # again from the start; what the writer still holds
                        watched.dropped = True  # is let go of (Polars writes it when freed)
                        file.seek(0)
                        file.truncate()
                        watched = _Watched(file)
        except (BrokenPipeError, MdpError) as error:
            from mdp.program.stdout import reader_gone

            if not plugin or passed_on(error, named.partition("'")[0]) or not raised_in_plugin(error) \
                    or isinstance(error, BrokenPipeError) and reader_gone():
                raise  # (mdp's own, or standard output's reader gone)
            raise ModelError(f"{named} raised {fault(error)}") from None  # its own: not mdp's word
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
            if isinstance(error, OSError) and not isinstance(error, io.UnsupportedOperation) \
                    or "os error" in text:  # (not a read of a file open to write: the writer's)
                reason = getattr(error, "strerror", None) or text
                raise MdpError(f"cannot write to {target}: {reason}") from None
            raise ModelError(f"{named} raised {text}") from error
        if plugin:  # (a game's columns, made as mdp's own write, are the game's: checked
            from mdp.program import guard  # as the command ends)

            left_behind(before, named, "a format writes all of its table before it returns")
            guard.check(named)
        left = wrapping(watched) if plugin else None  # (mdp's own close what they wrap)
        if left is not None:  # what it still holds would not be in the file put in place
            raise ModelError(f"{named} returned with a {left} over its file still open; a "
                             "format closes (or flushes and detaches) what it wraps its file "
                             "in before it returns")
        if table.height and _nothing(file, watched):  # none of the rows
            raise ModelError(f"{named} wrote nothing of a table of "
                             f"{table.height:,} rows (or emptied its file; a write that is a "
                             "generator never runs)")

    def _named(self) -> str:
        """This format as an error names it: a plugin's by the plugin (its fault)."""
        from mdp.analysis.registry import offered_as

        return offered_as("mdp_formats", "format", self.name)


def adopting() -> None:
    """Have this process adopt the processes its children leave behind (Linux's child
    subreaper), so that :func:`running` sees a writer's grandchild whose parent has ended
    (``sh -c '... &'``, a double fork), as it sees a child; nothing where the system has no
    such thing."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError, TypeError):  # (not Linux)
        pass


def running_before(plugin: bool) -> dict[tuple[str, int], str]:
    """What runs before a ``plugin``'s writer is called (:func:`running`, the process made the
    adopter of what its children leave: :func:`adopting`), for :func:`left_behind`; nothing
    to look at for mdp's own writers, which start nothing."""
    if not plugin:
        return {}
    adopting()
    return running()


def left_behind(before: dict[tuple[str, int], str], named: str, rule: str) -> None:
    """Refuse ``named``, a plugin's writer, where a thread or process runs now that did not
    run ``before`` it was called (:func:`running`): what it left to them may come after its
    file is put in place. What such a thread raises later is said as ``named``'s."""
    left = {key: what for key, what in running().items() if key not in before}
    if left:
        from mdp.program import guard

        threads = {thread.ident: thread for thread in threading.enumerate()}
        for kind, ident in left:
            if kind == "thread" and ident in threads:
                guard.started(threads[ident], named)
        raise ModelError(f"{named} returned with {next(iter(left.values()))} it started still "
                         f"running; {rule}")


def running() -> dict[tuple[str, int], str]:
    """What runs beside mdp's own thread, each by its identity (a thread's ident, a process's
    id; names are not unique): each thread (``"a thread (NAME)"``) and each child process still
    running (``"a process (NAME)"``, where the system lists them), whose work a writer may
    have left to it."""
    running = {("thread", t.ident or 0): f"a thread ({t.name})" for t in threading.enumerate()
               if t is not threading.current_thread() and t.is_alive()}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:  # no /proc: threads alone
        return running
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children") as listed:
                children = listed.read().split()
        except OSError:
            continue
        for child in children:
            try:
                with open(f"/proc/{child}/stat") as status:
                    text = status.read()
            except OSError:
                continue
            name, _, rest = text.partition("(")[2].rpartition(")")
            if rest.split()[:1] != ["Z"]:  # ended, not yet waited for: it writes nothing
                running[("process", int(child))] = f"a process ({name})"
    return running


def _nothing(file: BinaryIO, watched: _Watched) -> bool:
    """Whether a writer left nothing in its file: a regular file that holds nothing (never
    written, or emptied), else (a pipe, a device) one it wrote nothing to through the file
    object. A file it closed, even by its descriptor, is said as the file is kept
    (:func:`mdp.outputs.files_kinds.kept`)."""
    try:
        file.flush()
        status = os.fstat(file.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    if stat.S_ISREG(status.st_mode) and _seekable(file):
        return status.st_size == 0
    return not watched.written


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
        self.written = 0

    def write(self, data: bytes) -> int:
        if self.dropped:
            return len(data)
        try:
            count = self.file.write(data)
            self.written += len(data)
            return count
        except OSError as error:
            self.error = self.error or error
            raise
        except KeyboardInterrupt:  # a writer in Rust turns it into an error of no words
            self.interrupted = True
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)


# mdp's own formats, a built-in plugin. Their writers are Polars' methods, called on the
# frame: listing the formats (and the commands) imports no Polars.


MARKDOWN_ROWS = 100_000
"""Rows a Markdown table may have: it is for people to read, and its writer holds it whole
(a larger table: CSV or Parquet)."""


def most_rows(fmt: Format | None) -> int | None:
    """The most rows a table written in ``fmt`` may have, where a check before the work can
    refuse more: a Markdown table's :data:`MARKDOWN_ROWS`; ``None`` for the others (or no
    table written)."""
    return MARKDOWN_ROWS if fmt is not None and fmt.name == "markdown" else None


def _markdown(frame: pl.DataFrame, file: BinaryIO) -> None:
    import polars as pl  # here: only a Markdown table needs Polars' settings

    if frame.height > MARKDOWN_ROWS:
        raise TooLarge(f"a Markdown table of {frame.height:,} rows is too large to read (at "
                           f"most {MARKDOWN_ROWS:,}); write CSV or Parquet (--out FILE.csv)")
    frame = readable_table(frame)  # for people: 4.25, not 4.249999999999999; no word null
    frame = _cells(frame.with_columns(pl.all().cast(pl.String).fill_null("")))
    # Written here, not by Polars' display of a table, which cuts long text short and wraps
    # wide rows onto a second line.
    columns = [[name, *frame[name].to_list()] for name in frame.columns]
    widths = [max(map(len, column)) for column in columns]
    lines = ["| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |"
             for row in zip(*columns)]
    lines.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    file.write("".join(line + "\n" for line in lines).encode())


def _cells(frame: pl.DataFrame) -> pl.DataFrame:
    """Text that stays in its cell of a Markdown table: ``|`` escaped, a line break as
    ``<br>`` (a game's labels and values may hold either), another control character as its
    escape (``\\x1b``, as :func:`mdp.shown.one_line` shows it: none reaches a terminal raw),
    in names too (two names so written alike are told apart: :func:`_apart`)."""
    import polars as pl

    from mdp.shown import one_line

    def escaped(text: Any) -> Any:
        return text.str.replace_all("|", r"\|", literal=True).str.replace_all(r"\r\n|\r|\n", "<br>")

    def shown(column: pl.Series) -> pl.Series:  # the few values of control characters
        odd = [v for v in column.unique().to_list() if v is not None and not v.isprintable()]
        return column.replace({value: one_line(value) for value in odd}) if odd else column

    texts = [c for c, t in frame.schema.items() if t in (pl.String, pl.Categorical) or
             isinstance(t, pl.Enum)]
    frame = frame.with_columns(escaped(pl.col(c).cast(pl.String)) for c in texts)
    frame = frame.with_columns(shown(frame[c]) for c in texts)
    names = shown(escaped(pl.Series(frame.columns, dtype=pl.String))).to_list()
    return frame.rename(dict(zip(frame.columns, _apart(names))))



def _apart(names: list[str]) -> list[str]:
    """Names written alike (two line breaks of other kinds, say) told apart by their count:
    the second ``name (2)``, and so on; the rest as they are."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _markdown_pieces(pieces: Pieces, file: BinaryIO) -> None:
    _markdown(pieces.frame(MARKDOWN_ROWS, "for a Markdown table, which is for people to read; "
                                          "write CSV or Parquet (--out FILE.csv)"), file)


def _csv_pieces(pieces: Pieces, file: BinaryIO) -> None:
    first = True
    for piece in pieces:
        piece.write_csv(file, include_header=first)
        first = False
    if first:  # no rows: the header alone
        pieces.empty().write_csv(file)


def _ndjson_pieces(pieces: Pieces, file: BinaryIO) -> None:
    for piece in pieces:
        piece.write_ndjson(file)


def _json_pieces(pieces: Pieces, file: BinaryIO) -> None:
    """One JSON array, as Polars writes a whole table: its pieces' rows joined."""
    file.write(b"[")
    first = True
    for piece in pieces:
        rows = piece.write_json()[1:-1]
        if rows:
            file.write((rows if first else "," + rows).encode())
            first = False
    file.write(b"]")


class _ParquetOptions(TypedDict):
    compression: Literal["zstd"]
    compression_level: int


PARQUET: _ParquetOptions = {"compression": "zstd", "compression_level": 1}
"""Parquet's compression: zstd at its quickest level, a tenth larger than Polars' default
level and a third quicker to write (a policy of millions of rows)."""


def _parquet(frame: pl.DataFrame, file: BinaryIO) -> None:
    frame.write_parquet(file, **PARQUET)


def _parquet_pieces(pieces: Pieces, file: BinaryIO) -> None:
    """Through Polars' streaming engine: each piece written as it is made."""
    from polars.io.plugins import register_io_source

    register_io_source(lambda *_: iter(pieces), schema=pieces.schema).sink_parquet(file, **PARQUET)


@hookimpl
def mdp_formats() -> list[Format]:
    return [
        Format("csv", (".csv",), lambda frame, file: frame.write_csv(file),
                   "comma-separated values, a header row first", stream=_csv_pieces),
        Format("parquet", (".parquet",), _parquet,
                   "Apache Parquet: compact, typed, fast to read back", binary=True,
                   stream=_parquet_pieces),
        # Polars types write_json's file as an io.IOBase; the binary files given are ones.
        Format("json", (".json",), lambda frame, file: frame.write_json(file),  # type: ignore[call-overload]
                   "one JSON array of row objects", stream=_json_pieces),
        Format("ndjson", (".ndjson", ".jsonl"), lambda frame, file: frame.write_ndjson(file),
                   "one JSON object per line", stream=_ndjson_pieces),
        Format("markdown", (".md",), _markdown, "a Markdown table, for people and documents",
                   stream=_markdown_pieces),
    ]
