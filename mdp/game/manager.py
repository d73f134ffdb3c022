"""The plugin manager of a game and of the program: each hook implementation of no
argument asked once (:class:`Plugins`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pluggy


class Plugins(pluggy.PluginManager):
    """A plugin manager that takes no private name (``_helper``) for a hook: it reads each
    plugin's public names only, and a plugin's own helpers cost nothing to register.

    An implementation of a hook that takes no argument (the program's ``mdp_commands``,
    ``mdp_formats``, ...; a game's ``mdp_params`` and ``mdp_variants``) is asked once, when
    first asked, and its answer kept for every later question on this manager (the help,
    the parser, the command and the checks all read the one answer): a plugin whose answer
    changes from call to call cannot have them mixed."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        if name.startswith("_"):
            return None
        return super().parse_hookimpl_opts(plugin, name)

    def register(self, plugin: Any, name: str | None = None) -> str | None:
        registered = super().register(plugin, name)
        for caller in list(vars(self.hook).values()) if registered is not None else ():
            spec = caller.spec  # (by name: a plugin may be any object, even one with no ==)
            for impl in caller.get_hookimpls():
                if impl.plugin_name == registered and spec is not None and not spec.argnames and \
                        not impl.argnames and not (impl.hookwrapper or impl.wrapper):
                    impl.function = _once(impl.function)
        return registered


def _once(function: Callable[[], Any]) -> Callable[[], Any]:
    """``function`` asked once, when first called, its answer then given again (an
    exception is not kept: a later call asks again, and raises again)."""
    kept: list[Any] = []

    @functools.wraps(function)
    def once() -> Any:
        if not kept:
            kept.append(function())
        return kept[0]

    return once
