"""Where a game or a plugin given by hand is found and imported: by its path (a ``.py``
file, a package folder), by the name of an installed game (an entry point), or by the name of
a module Python can import; each failure one line saying what a game or plugin can be."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from mdp.errors import GameNotFound, ModelError, ParamError, did_you_mean
from mdp.game.files import import_path, stem
from mdp.game.plugins import GAMES_ENTRY_POINTS, entry_point, entry_points, hook_names, import_module, load
from mdp.shown import typed


def load_plugin(spec: str | os.PathLike[str] | object) -> tuple[str, Any]:
    """A plugin given by hand (``mdp -p``, ``load_game(plugins=...)``), and the name its
    errors call it by: a ``.py`` file or a package folder by its path (``"my_rule.py"``), a
    module by its importable name (``"my_package.my_rule"``), or a module or object itself.

    A file that is not there, one that does not import, and a plugin without hooks (no
    function marked with :data:`mdp.hookimpl`) are each one :class:`~mdp.ModelError`.
    """
    if not isinstance(spec, (str, os.PathLike)):
        name, plugin = default_name(spec), spec
    else:
        name = os.fspath(spec)
        if not _is_path(name):
            plugin = _import_module_named(name)
        elif not os.path.exists(name):
            raise ModelError(f"plugin {name}: no such file")
        else:
            plugin = import_path(name, "plugin")
    if not hook_names(plugin):
        raise ModelError(f"plugin {name} has no hooks: none of its functions is marked "
                         "@mdp.hookimpl")
    return name, plugin


def plugin_file(plugin: Any) -> str | None:
    """The file a plugin module was imported from."""
    path = getattr(plugin, "__file__", None)
    return os.path.realpath(path) if isinstance(path, str) else None


def _import_module_named(name: str) -> ModuleType:
    """A plugin module by its importable name; one that is not found is one line saying what
    else a plugin can be."""
    import importlib.util

    try:  # a name import never gives (blank, spaced) is none, whatever sys.modules holds
        found = importlib.util.find_spec(name) if all(
            part.isidentifier() for part in name.split(".")) else None
    except (ImportError, ValueError):
        found = None
    if found is None:
        shown = name if name.strip() else repr(name)  # a blank name, quoted to be seen
        raise ModelError(f"plugin {shown}: no such file or module (a plugin is a .py file, a "
                         "package folder, or the name of a module that Python can import)")
    return import_module(name, shown=f"the plugin {name}")


def _is_path(text: str) -> bool:
    """Whether a game's or plugin's name is a path (else an installed name)."""
    return os.sep in text or "/" in text or text.endswith(".py") or os.path.exists(text)


def default_name(plugin: object) -> str:
    qualified = getattr(plugin, "__name__", None) or type(plugin).__name__
    return qualified.rpartition(".")[2]


def import_game(spec: str | os.PathLike[str]) -> tuple[ModuleType, str]:
    """A game module by installed name or path, and the name it goes by unless it sets
    ``GAME_NAME``."""
    text = os.fspath(spec)
    games = entry_points(GAMES_ENTRY_POINTS)
    # A bare name is an installed game's, unless it names a game file or folder here; both
    # is refused, naming each: the one loaded would be another game than the name says.
    is_game_here = os.path.isfile(os.path.join(text, "__init__.py"))
    if is_game_here and text in games:
        raise ParamError(f"{text!r} names both the installed game {text} and the folder "
                         f"{os.path.join('.', text)} here: give {os.path.join('.', text)} for the "
                         "folder, or run mdp from another folder for the installed game")
    if is_game_here or text not in games:
        if _is_path(text):
            return import_path(text), stem(text)
        raise GameNotFound(f"no game named {typed(text)}{did_you_mean(text, games)} (installed: "
                           f"{', '.join(sorted(games)) or 'none installed'}; or give a path)")
    module = load(entry_point(GAMES_ENTRY_POINTS, text, f"the game {text!r}"))
    return module, default_name(module)
