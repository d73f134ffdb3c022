"""Model exports: a compiled model written for another tool (PRISM, say).

Exports are offered through the hook :func:`~mdp.hookspecs.program.mdp_exports` (the
built-in PRISM one too) and chosen by name with ``mdp export --format NAME``
(:func:`mdp.exports`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from mdp.errors import PLUGIN_FAULTS, ModelError, deferring, fault, passed_on
from mdp.hookspecs import hookimpl
from mdp.outputs.files_kinds import kind

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel


class Export(NamedTuple):
    """A way to write a compiled model for another tool: ``mdp export --format NAME``.

    ``write(model, path)`` writes the model to ``path`` (and the files it declares beside
    it, ``beside``) and returns a list of the paths written, ``path`` first. ``mdp export``
    (:func:`write_export`) hands it a path in a new temporary folder and puts the files it
    returns in place only once it has returned them all, each one written and closed: an
    export that raises, returns what it did not write, a file still open, or its first file
    empty, leaves the user's files as they were. (A
    named tuple: ``mdp --help`` lists the exports, and an attrs class would cost every start
    its definition.)
    """

    name: str
    help: str
    write: Callable[[CompiledModel, str], list[str]]
    beside: tuple[tuple[str, str], ...] = ()
    """The files written beside ``path``, as ``(suffix, what it holds)``: PRISM's is
    ``((".props", "the property"),)``, ``path + ".props"``. ``mdp export`` checks that each
    can be written before any work, and names them in the line it prints; an export that
    returns any other file is refused (a file beside ``--out`` the user did not name is
    never replaced). Each suffix is a dot and a word, or more (``.props``, ``.tar.gz``: ASCII
    letters, digits, ``_`` and ``-``), none twice, each file's words one line of text
    (:func:`beside_fault`): a file's name is made of it, and the line mdp prints names it."""


BESIDE_SUFFIX = re.compile(r"(\.[A-Za-z0-9_-]+)+")
"""A suffix an export may declare beside its file: ``.props``, ``.tar.gz``."""


def beside_fault(beside: object) -> str | None:
    """What is wrong with an export's declared files beside its own (:attr:`Export.beside`),
    in words, or ``None``."""
    if not isinstance(beside, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(t, str) for t in pair)
            for pair in beside):
        return f"declares beside={beside!r:.200}, not a tuple of (suffix, what it holds) pairs of text"
    seen: set[str] = set()
    for suffix, what in beside:
        if not BESIDE_SUFFIX.fullmatch(suffix):
            return (f"declares a file beside it with the suffix {suffix!r:.80}; a suffix is a dot and "
                    "a word of ASCII letters, digits, '_' or '-' ('.props', '.tar.gz')")
        if suffix.lower() in seen:
            return f"declares the suffix {suffix!r} twice beside it"
        seen.add(suffix.lower())
        if not what or not what.isprintable():
            return f"says of its file {suffix!r} {what!r:.80}, not one line of text"
    return None


def write_export(export: Export, model: CompiledModel, path: str) -> list[str]:
    """Write ``model`` to ``path`` with ``export``, all or nothing: the export writes in a
    temporary folder beside ``path``, and the files it returns (``path`` first, each one it
    wrote there, every one it wrote there, each ``path`` or one it declares beside it) are put
    in place together (:func:`mdp.outputs.files.write_together`). Returns the paths written.
    An export that raises, returns anything else, writes elsewhere or a file it does not
    declare, or removes the folder it is handed, is the plugin's fault: one
    :class:`mdp.ModelError`, and no file of the user's touched."""
    import os
    import shutil
    import tempfile

    from mdp.outputs.files import absolute, apart, check_target, write_together
    from mdp.outputs.files_kinds import special
    from mdp.outputs.formats import left_behind, running_before
    from mdp.outputs.left_open import open_on

    target = os.path.realpath(absolute(path))
    plugin = _named(export).startswith("plugin ")
    before = running_before(plugin)
    folder = os.path.dirname(target) if os.path.isdir(os.path.dirname(target)) and \
        os.access(os.path.dirname(target), os.W_OK) else None  # a device: beside it is /dev
    staging = ""
    try:
        with deferring():  # a signal waits until the folder is known, so that it is removed
            staging = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", dir=folder)
        try:
            with apart():  # in place in the temporary folder when it returns
                given = export.write(model, os.path.join(staging, os.path.basename(path)))
        except PLUGIN_FAULTS as error:
            if passed_on(error, _named(export)):
                raise
            raise ModelError(f"{_named(export)} raised {fault(error)}") from error
        where = _named(export)
        if plugin:
            from mdp.program import guard  # (nothing to check where mdp is used from Python)

            left_behind(before, where, "an export writes all of its files before it returns")
            guard.check(where)
        try:
            written = [os.path.join(staging, name) for name in sorted(os.listdir(staging))]
        except OSError as error:  # removed, or made into something else
            raise ModelError(f"{where} removed or changed the folder it was handed to write "
                             f"{path} in ({fault(error)}); it writes its files there") from None
        given = _answer(where, given, staging, path, written, export.beside)
        left = open_on(given)
        if left is not None:  # what it still holds would not be in the file put in place
            raise ModelError(f"{where} returned with its file {_users(left, staging, path)} "
                             "still open; an export closes the files it writes before it returns")
        if not os.path.getsize(given[0]):
            raise ModelError(f"{where} wrote nothing to {path}")
        final = [_users(p, staging, path) for p in given]
        for beside in final[1:]:  # each a target as --out is: none the game, a plugin, a file read
            check_target(beside)
        files = [(to, functools.partial(_copy, source)) for to, source in zip(final, given, strict=True)]
        write_together([(to, copy) for to, copy in files if not special(absolute(to))])
        with apart():  # a device or a pipe is written into now, while the files are here
            write_together([(absolute(to), copy) for to, copy in files if special(absolute(to))])
        return final
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)


def _users(name: str, staging: str, path: str) -> str:
    """A path an export returned, as the user names it: one in the temporary folder it was
    handed (``staging``), spelt as it may be (``..``, relative), beside ``path``."""
    import os

    where = os.path.normpath(os.path.abspath(name))
    inside = os.path.relpath(where, staging)
    if inside == os.curdir or inside.startswith(os.pardir):
        return name
    return os.path.join(os.path.dirname(path), inside)


def _answer(where: str, given: object, staging: str, path: str, written: list[str],
            beside: tuple[tuple[str, str], ...]) -> list[str]:
    """What export ``where`` returned (``given``), checked: a list of the paths of the files
    it wrote in ``staging`` (``written``), ``path``'s first, each once, no other; each
    returned as its path there. The one check of an export's answer, whose line quotes the
    user's names, never mdp's temporary folder."""
    import os

    if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
        shown = repr(type(given)(_users(p, staging, path) if isinstance(p, str) else p
                                 for p in given) if isinstance(given, list | tuple) else
                     given).replace(staging, os.path.dirname(path) or ".")
        raise ModelError(f"{where} returned {shown:.300}, not a list of the paths it wrote")
    said = [_users(p, staging, path) for p in given]
    twice = next((name for n, name in enumerate(said) if name in said[:n]), None)
    if twice is not None:
        raise ModelError(f"{where} returned {twice} twice; it returns each file it wrote once, "
                         f"{path} first")
    names = [path, *(path + suffix for suffix, _ in beside)]
    files_of = " and ".join([", ".join(names[:-1]), names[-1]] if names[1:] else names)
    odd = [(kind(p), os.path.basename(p)) for p in written if kind(p)]
    if odd:
        raise ModelError(f"{where} made {odd[0][0]}, {odd[0][1]}, where it was to write a "
                         f"file; it writes {files_of}, each a file")
    spelt = [os.path.normpath(os.path.abspath(p)) for p in given]
    staged = os.path.join(staging, os.path.basename(path))
    if not spelt or spelt[0] != staged or sorted(spelt) != written:
        made = [_users(p, staging, path) for p in written]
        raise ModelError(f"{where} returned the paths {said} but wrote {made}; it returns "
                         f"each file it wrote, {path} first, and no other")
    declared = {staged + suffix for suffix, _ in beside}
    other = next((p for p in spelt[1:] if p not in declared), None)
    if other is not None:  # never a file of the user's that the export did not declare
        writes = files_of if names[1:] else f"{path} alone, declaring no file beside it"
        raise ModelError(f"{where} wrote {os.path.basename(other)!r}, a file it does not "
                         f"declare; it writes {writes} (mdp.Export's beside)")
    return spelt


def _named(export: Export) -> str:
    """The export as an error names it: a plugin's by the plugin (its fault)."""
    from mdp.analysis.registry import offered_as

    return offered_as("mdp_exports", "export", export.name)


def _copy(source: str, file: BinaryIO) -> None:
    import shutil

    with open(source, "rb") as staged:
        shutil.copyfileobj(staged, file)


# mdp's own export, a built-in plugin.


def _write_prism(model: CompiledModel, path: str) -> list[str]:
    # Here, not at the top: PRISM's writer needs numpy, which listing the exports does not.
    from mdp.outputs.prism import write_prism

    return list(write_prism(model, path))


@hookimpl
def mdp_exports() -> list[Export]:
    return [Export("prism", "a PRISM MDP with explicit states, and its property in FILE.props",
                   _write_prism, ((".props", "the property"),))]
