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

from mdp.errors import GameNotFound
from mdp.game.plugins import GAMES_ENTRY_POINTS, available_games, entry_points, import_module, imported


def stem(path: str) -> str:
    """A game's name from its path: its file's name without ``.py``, or its folder's."""
    return os.path.basename(os.path.realpath(path)).removesuffix(".py")


_FROM_FILES: dict[str, tuple[str, bytes]] = {}
"""The private module name of each file or folder imported by its path (by its real path),
with the digest of its files then (:func:`_stamp`), so that one file is one module however
often it is loaded, until it changes: a file edited since is imported afresh."""
_IMPORTED = itertools.count()


def _stamp(top: str) -> bytes:
    """A digest of the file ``top``, or of every Python file of the package folder ``top``
    (their paths and contents): what tells an edited game or plugin from the one imported,
    however soon after it the edit comes."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)
    files = [top] if not os.path.isdir(top) else sorted(
        os.path.join(folder, name) for folder, _, names in os.walk(top)
        for name in names if name.endswith(".py"))
    for file in files:
        digest.update(os.path.relpath(file, top).encode(errors="surrogateescape") + b"\0")
        with open(file, "rb") as handle:
            digest.update(handle.read())
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
        parts[0] = known[0] if known and known[1] == _stamp(top) else _import_file(top, what, path)
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

        if cls.current is not None:
            return PathFinder.find_spec(name, [cls.current])
        found = [spec for folder in cls.folders if (spec := PathFinder.find_spec(name, [folder]))]
        if len(found) > 1:
            raise ImportError(f"the module {name!r} is beside more than one game or plugin loaded by "
                              f"its path ({', '.join(str(spec.origin) for spec in found)}); import "
                              "it as its file is imported, not inside a hook")
        return found[0] if found else None

    @classmethod
    def importing(cls, folder: str, load: Any) -> None:
        """Run ``load()``, the import of a file of ``folder``, finding the modules it imports
        beside it in ``folder`` alone; then take them out of ``sys.modules``."""
        before, cls.current = set(sys.modules), folder
        try:
            load()
        finally:
            cls.current = None
            for name in set(sys.modules) - before:
                origin = getattr(sys.modules[name], "__file__", None) or ""
                if not name.startswith("_mdp_file_") and origin.startswith(folder + os.sep):
                    del sys.modules[name]


def _import_file(top: str, what: str, path: str) -> str:
    """Import the file or package folder ``top`` under a private name of its own; returns
    the name. A module that fails to import is one :class:`~mdp.ModelError`, and is not kept."""
    import importlib.util
    import re

    stem = os.path.basename(top).removesuffix(".py")
    private = f"_mdp_file_{next(_IMPORTED)}_{re.sub(r'[^0-9A-Za-z_]', '_', stem)}"
    stamp = _stamp(top)  # before the import: a file changed while it runs is read again next time
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
        _Beside.importing(os.path.dirname(top), lambda: imported(
            spec.loader.exec_module, module, shown=f"the {what} at {path}"))
    except BaseException:
        del sys.modules[private]
        raise
    _FROM_FILES[top] = private, stamp
    return private


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
