"""Entry points of installed packages: how games and plugins are found by name.

Read straight from each installed distribution's ``entry_points.txt`` rather than through
:mod:`importlib.metadata`, which imports the email package to parse metadata: about 30 ms at
start-up, more than solving a small game takes.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import pluggy


def entry_points(group: str) -> dict[str, str]:
    """``{name: "module:attribute"}`` for the entry points of ``group``, first on sys.path wins."""
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                for key, value in _read(os.path.join(folder or ".", name, "entry_points.txt"), group):
                    found.setdefault(key, value)
    return found


def _read(path: str, group: str) -> list[tuple[str, str]]:
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError:
        return []
    items, current = [], None
    for line in lines:
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == group and "=" in line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            items.append((key.strip(), value.strip()))
    return items


def load(value: str) -> Any:
    """Import what an entry point names: ``"package.module"`` or ``"package.module:attribute"``."""
    module, _, attribute = value.partition(":")
    target = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        target = getattr(target, part)
    return target


def register_plugins(plugins: pluggy.PluginManager, group: str) -> None:
    """Register every plugin offered in the entry-point group ``group`` (pytest's ``pytest11``
    way); a game calls it from :func:`~mdp.hookspecs.mdp_configure` for its rule plugins."""
    for name, value in entry_points(group).items():
        if plugins.get_plugin(name) is None and not plugins.is_blocked(name):
            plugins.register(load(value), name=name)
