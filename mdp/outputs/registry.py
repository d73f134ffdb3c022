"""The output formats and model exports on offer (the hooks ``mdp_formats`` and
``mdp_exports`` of :mod:`mdp.hookspecs.program`, on the plugin manager of
:mod:`mdp.analysis.registry`), and :func:`write_table`, which writes a table in one of the
formats."""

from __future__ import annotations

import os
import unicodedata
from typing import TYPE_CHECKING

from mdp.analysis.registry import offered, offered_as
from mdp.checks import OPTIONAL_NAME, PATH, TABLE, arguments
from mdp.errors import ModelError, ParamError, did_you_mean
from mdp.outputs.exports import Export, beside_fault
from mdp.outputs.files import check_target, write_atomically
from mdp.outputs.formats import Format

if TYPE_CHECKING:
    import polars as pl

    from mdp.analysis.pieces import Pieces


def formats() -> dict[str, Format]:
    """Every output format on offer, by name, the built-ins first."""
    found = offered("mdp_formats", Format)
    extensions: dict[str, str] = {}
    for fmt in found.values():
        if not isinstance(fmt.extensions, (list, tuple)) or not all(
                isinstance(e, str) and len(e) > 1 and e.startswith(".") and e.isprintable()
                and not any(c.isspace() or c in "/\\." for c in e[1:]) for e in fmt.extensions):
            # (one dot: a file's type is read from its last, and .tsv.gz would never be met)
            raise ModelError(f"format {fmt.name!r}: extensions {fmt.extensions!r}: expected a "
                             "tuple of extensions of a file's name, each a dot and a word: "
                             "('.tsv',)")
        for extension in fmt.extensions:
            key = unicodedata.normalize("NFKC", extension).lower()  # as people read it
            if key in extensions:
                raise ModelError(f"format {fmt.name!r} lists the extension {extension} twice"
                                 if extensions[key] == fmt.name else
                                 f"formats {extensions[key]!r} and {fmt.name!r} "
                                 f"both claim the extension {extension}")
            extensions[key] = fmt.name
    return found


def exports() -> dict[str, Export]:
    """Every model export on offer (``mdp export --format NAME``), by name, the built-ins
    first; a declared file beside an export's own (:attr:`Export.beside`) that is no dot and a
    word is refused, naming the plugin (:func:`~mdp.outputs.exports.beside_fault`)."""
    found = offered("mdp_exports", Export)
    for export in found.values():
        if (problem := beside_fault(export.beside)) is not None:
            raise ModelError(f"{offered_as('mdp_exports', 'export', export.name)} {problem}")
    return found



def format_for(path: str | None = None, name: str | None = None, *,
               option: str = "--format") -> Format:
    """The format named ``name``, or else the one that ``path``'s extension asks for;
    ``option``: how the caller names a format (``format=`` in Python)."""
    known = formats()
    if name is not None:
        if name not in known:
            raise ParamError(f"unknown format {name!r}{did_you_mean(name, known)} "
                             f"(known: {', '.join(known)})")
        return known[name]
    base = os.path.basename(path or "")  # (".csv" too: a name of its extension alone, as
    extension = "." + base.rsplit(".", 1)[1].lower() if "." in base else ""  # --plot .png)
    for fmt in known.values():
        if extension in (e.lower() for e in fmt.extensions):
            return fmt
    allowed = ", ".join(e for fmt in known.values() for e in fmt.extensions)
    raise ParamError(f"{path}: unknown file type {extension or '(none)'!r} (allowed: {allowed}; "
                     f"or name a format with {option})")


def write_table(frame: pl.DataFrame | Pieces, path: str, format: str | None = None) -> str:
    """Write ``frame`` (a DataFrame, or :class:`mdp.Pieces`, written a piece at a time) to
    ``path`` atomically, all of it or nothing at all, in the format ``format`` names or else
    the one its extension asks for. Returns the path."""
    arguments("write_table", frame=(frame, TABLE), path=(path, PATH), format=(format, OPTIONAL_NAME))
    path = os.fspath(path)  # the text of it, whether given as text or a Path
    check_target(path)  # first: a folder is said to be one, whatever its name's ending
    fmt = format_for(path, format, option="format=")
    write_atomically(path, lambda file: fmt.dump(frame, file, path))
    return path
