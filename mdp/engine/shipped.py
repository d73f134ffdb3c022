"""What a game or plugin loaded by its path sends to the workers of a Dask cluster
(:mod:`mdp.engine.cluster`): itself by value, and the source of every module of its package
and beside it, which a worker imports from there (:class:`Shipped`) when the game's code
imports them as it runs."""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any

from mdp.imported import is_private


def by_value() -> None:
    """Games and plugins loaded by their path (private modules, :mod:`mdp.game.files`) are
    sent by value, their submodules too: a worker has no such module to import."""
    import cloudpickle

    for name, module in list(sys.modules.items()):
        if is_private(name) and "." not in name:
            cloudpickle.register_pickle_by_value(module)


def package_sources() -> dict[str, tuple[str, str, bool]]:
    """The source of every module of each package loaded by its path, by its private dotted
    name (file, text, whether a package), and of the modules beside a game or plugin that
    they import (:class:`mdp.game.files._Beside`), by theirs: what a worker imports when the
    package's code imports itself (``from . import helpers``) as it runs."""
    import importlib.util

    found: dict[str, tuple[str, str, bool]] = {}

    def add(name: str, path: str, package: bool) -> None:
        try:
            with open(path, "rb") as file:
                found[name] = (path, importlib.util.decode_source(file.read()), package)
        except (OSError, UnicodeDecodeError, SyntaxError):
            pass  # not importable here either

    def walk(name: str, folder: str) -> None:
        add(name, os.path.join(folder, "__init__.py"), True)
        for entry in sorted(os.listdir(folder)):
            path, stem = os.path.join(folder, entry), entry.removesuffix(".py")
            if not stem.isidentifier() or entry == "__init__.py":
                continue
            if entry.endswith(".py") and os.path.isfile(path):
                add(f"{name}.{stem}", path, False)
            elif os.path.isfile(os.path.join(path, "__init__.py")):
                walk(f"{name}.{entry}", path)

    def beside(module: ModuleType) -> None:
        """The modules ``module`` imported from beside it: not in ``sys.modules``."""
        for value in list(vars(module).values()):
            if isinstance(value, ModuleType) and value.__name__ not in sys.modules and \
                    value.__name__ not in found and \
                    str(getattr(value, "__file__", None)).endswith(".py"):
                folders = getattr(value, "__path__", None)
                if folders:
                    walk(value.__name__, folders[0])
                else:
                    add(value.__name__, str(value.__file__), False)
                beside(value)

    private = [(name, module) for name, module in list(sys.modules.items())
               if is_private(name) and isinstance(module, ModuleType)]
    for name, module in private:
        if "." not in name and getattr(module, "__path__", None):
            walk(name, module.__path__[0])
    for _, module in private:
        beside(module)
    return found


class Shipped:
    """On a worker, the finder and loader of the modules of packages loaded by path where the
    work came from, and of the modules beside them (:func:`package_sources`): asked last,
    as the finder of modules beside a game is where it was loaded."""

    sources: dict[str, tuple[str, str, bool]] = {}

    @classmethod
    def install(cls, sources: dict[str, tuple[str, str, bool]]) -> None:
        for name, source in sources.items():
            if cls.sources.get(name) != source:  # another package of that name: its own
                cls.sources[name] = source
                sys.modules.pop(name, None)
        if cls not in sys.meta_path:
            sys.meta_path.append(cls)

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        import importlib.util

        if name not in cls.sources:
            return None
        file, _, package = cls.sources[name]
        return importlib.util.spec_from_loader(name, cls, origin=file,  # type: ignore[arg-type]
                                               is_package=package)

    @classmethod
    def create_module(cls, spec: Any) -> None:
        return None

    @classmethod
    def exec_module(cls, module: Any) -> None:
        file, text, _ = cls.sources[module.__name__]
        module.__file__ = file
        exec(compile(text, file, "exec"), module.__dict__)  # noqa: S102  (the game's own code)
