"""Games and plugins given by a path, imported as themselves: each file under a private name
of its own, never its bare name, so that a ``numpy.py`` or ``json.py`` of the user's neither
replaces the library of that name nor is taken for it (see :func:`import_path`)."""

from __future__ import annotations

import itertools
import os
import sys
from importlib.machinery import SourceFileLoader
from types import ModuleType
from typing import Any

import attrs

from mdp.errors import GameNotFound
from mdp.game.plugins import GAMES_ENTRY_POINTS, available_games, entry_points, import_module, imported
from mdp.imported import PRIVATE, is_private
from mdp.outputs.files import READ, reading, recording


def stem(path: str) -> str:
    """A game's name from its path: its file's name without ``.py``, or its folder's."""
    return os.path.basename(os.path.realpath(path)).removesuffix(".py")


@attrs.frozen
class _Imported:
    """A file or folder imported by its path: its private module name; the modules beside
    it that its import imported (``helpers``, by their files), which :class:`_Beside` takes
    out of ``sys.modules`` again, so that importing it anew imports them anew too; the
    digest of its files and theirs then (:func:`_stamp`); and every file its import read
    (``read``: its own, its helpers', a data file), which the command reads each time it
    loads it (:func:`mdp.outputs.files.reading`)."""

    private: str
    helpers: tuple[str, ...]
    stamp: bytes
    read: tuple[str, ...]


_FROM_FILES: dict[str, _Imported] = {}
"""Each file or folder imported by its path (by its real path), so that one file is one
module however often it is loaded, until it or a helper module it imported changes: one
edited since is imported afresh, with its helpers."""
_IMPORTED = itertools.count()


def _stamp(top: str, helpers: tuple[str, ...] = ()) -> bytes:
    """A digest of the file ``top``, or of every Python file of the package folder ``top``,
    and of the ``helpers`` it imported (their paths and contents; a file gone is one too):
    what tells an edited game or plugin from the one imported, however soon after it the
    edit comes."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)
    files = [top] if not os.path.isdir(top) else sorted(
        os.path.join(folder, name) for folder, _, names in os.walk(top)
        for name in names if name.endswith(".py"))
    for file in [*files, *helpers]:
        digest.update(os.path.relpath(file, top).encode(errors="surrogateescape") + b"\0")
        try:
            with open(file, "rb") as handle:
                digest.update(handle.read())
        except OSError:
            digest.update(b"\0gone\0")
    return digest.digest()


def import_path(path: str, what: str = "game") -> ModuleType:
    """Import a game folder (a package) or a single ``.py`` file from its path (``what``: a
    game's, or a plugin's).

    A file is imported as itself, under a private name of its own (``_mdp_file_3_coin``),
    never under its bare name: a game or plugin named like a module that mdp or a library
    imports (``numpy.py``, ``json.py``) neither replaces that module nor is taken for it.
    It can import the modules beside it (``import my_helper``) through :class:`_Beside`,
    which Python asks last, so that none of them hides an installed or standard module of
    the same name (a ``decimal.py`` beside a plugin is not the ``decimal`` that Python's own
    code imports); its folder is not put on ``sys.path``, which would. A game inside a
    package is imported with its package, so that its relative imports work; in a package
    installed as a game package (games/ of a working tree, installed as ``mdp_games``) by
    its installed dotted name, so that rule plugins importing it by that name get the very
    same module.

    (os.path rather than pathlib, which nothing else of a small solve imports.)
    """
    path = os.path.realpath(path)
    root, name = os.path.split(path)
    if os.path.isfile(os.path.join(path, "__init__.py")):
        parts = [name]
    elif os.path.isfile(path) and name.endswith(".py"):
        parts = [name[:-3]]
    else:
        game = name.removesuffix(".py")
        hint = (f"; the installed game {game!r} is found by its name from any folder"
                if not os.path.exists(path) and game in available_games() else "")
        raise GameNotFound(f"{path}: not a {what} (expected a folder with __init__.py or a .py "
                           f"file){hint}")
    while os.path.isfile(os.path.join(root, "__init__.py")):
        root, package = os.path.split(root)
        parts.insert(0, package)
    top = os.path.join(root, parts[0]) if len(parts) > 1 or os.path.isdir(path) else path
    installed = _installed_as(top)
    if installed:
        parts[0] = installed
    else:
        _Beside.add(root)
        known = _FROM_FILES.get(top)
        if not known or known.stamp != _stamp(top, known.helpers):
            known = _import_file(top, what, path)
        parts[0] = known.private
        for file in known.read:  # here too, where it was imported before
            reading(file, READ)
    return import_module(".".join(parts), shown=f"the {what} at {path}")


class _Beside:
    """The finder of modules beside the files of games and plugins imported by their path,
    last of ``sys.meta_path``: asked for a top-level module only when no other finder (the
    standard library, installed packages, ``sys.path``) has one of that name.

    Two games in two folders may each have a ``helper.py``: while a file is imported, its
    own folder is the one searched (``current``), and the modules found beside it are
    taken out of ``sys.modules`` afterwards (the file keeps what it imported), so that the
    next game's ``import helper`` finds its own. A module imported later, inside a hook,
    is searched for in every folder, and refused where two of them have one of that name."""

    folders: list[str] = []
    current: str | None = None
    beside: set[str] = set()
    """The modules found beside the file being imported (``current``), by name."""

    @classmethod
    def add(cls, folder: str) -> None:
        if cls not in sys.meta_path:
            sys.meta_path.append(cls)
        if folder not in cls.folders:
            cls.folders.append(folder)

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if path is not None:  # a submodule: found through its package
            return None
        from importlib.machinery import PathFinder

        folders = cls.folders if cls.current is None else [cls.current]
        found = [spec for folder in folders if (spec := PathFinder.find_spec(name, [folder]))]
        if len(found) > 1:
            raise ImportError(f"the module {name!r} is beside more than one game or plugin loaded by "
                              f"its path ({', '.join(str(spec.origin) for spec in found)}); import "
                              "it as its file is imported, not inside a hook")
        if found and isinstance(found[0].loader, SourceFileLoader):  # as edited, as its user's
            found[0].loader = _FromSource(name, found[0].loader.path)
        if found and cls.current is not None:
            cls.beside.add(name)
        return found[0] if found else None

    @classmethod
    def importing(cls, folder: str, load: Any) -> tuple[str, ...]:
        """Run ``load()``, the import of a file of ``folder``, finding the modules it imports
        beside it in ``folder`` alone; then take those (and their submodules) out of
        ``sys.modules``, and return their files. Only those found beside it: an installed
        package whose files are below ``folder`` too (a virtual environment kept in the
        game's folder, numpy's modules loaded as the game imports it) is left loaded."""
        before, cls.current, cls.beside = set(sys.modules), folder, set()
        helpers = []
        try:
            load()
        finally:
            cls.current = None
            for name in sorted(set(sys.modules) - before):
                top = name.partition(".")[0]
                if not is_private(name) and top in cls.beside:
                    origin = getattr(sys.modules[name], "__file__", None)
                    del sys.modules[name]
                    helpers.extend([origin] if origin else [])
        return tuple(helpers)


def _import_file(top: str, what: str, path: str) -> _Imported:
    """Import the file or package folder ``top`` under a private name of its own. A module
    that fails to import is one :class:`~mdp.ModelError`, and is not kept."""
    import importlib.util
    import re

    stem = os.path.basename(top).removesuffix(".py")
    private = f"{PRIVATE}{next(_IMPORTED)}_{re.sub(r'[^0-9A-Za-z_]', '_', stem)}"
    stamp = _stamp(top)
    folder = os.path.isdir(top)
    file = os.path.join(top, "__init__.py") if folder else top
    spec = importlib.util.spec_from_file_location(
        private, file, loader=_FromSource(private, file),
        submodule_search_locations=[top] if folder else None)
    if spec is None or spec.loader is None:
        raise GameNotFound(f"{path}: not a {what} Python can import")
    module = importlib.util.module_from_spec(spec)
    sys.modules[private] = module  # where its submodules, dataclasses and pickle look it up
    try:
        with recording() as read:
            helpers = _Beside.importing(os.path.dirname(top), lambda: imported(
                spec.loader.exec_module, module, shown=f"the {what} at {path}"))
    except BaseException:
        del sys.modules[private]
        raise
    # The file as it was before the import, or none: one changed while it ran is imported
    # again next time.
    same = _stamp(top) == stamp
    known = _FROM_FILES[top] = _Imported(private, helpers, _stamp(top, helpers) if same else b"",
                                         tuple(dict.fromkeys([file, *helpers, *read])))
    return known


class _FromSource(SourceFileLoader):
    """A loader that compiles a file from its source each time, never from the bytecode
    cached beside it, which is told from the source by its second of change and size only:
    a file edited within the second it was imported, to the same size, would run as it was."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


def _installed_as(folder: str) -> str | None:
    """The name under which an installed game package is imported from ``folder``, if any:
    the folder games/ of a working tree installed in editable mode is ``mdp_games``."""
    import importlib.util

    for value in entry_points(GAMES_ENTRY_POINTS).values():
        top = value.partition(":")[0].split(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue
        locations = spec.submodule_search_locations if spec else None
        if locations and any(os.path.realpath(p) == folder for p in locations):
            return top
    return None
