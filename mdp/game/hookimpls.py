"""What a plugin's hook implementations must be, checked as a game loads: each marked, named
for a hook, and taking the hook's arguments as pluggy gives them (by name, each a plain
parameter), called as a function (not ``async``): a hook otherwise would be silently never
called, or fail later with a message pointing elsewhere."""

from __future__ import annotations

import inspect
from typing import Any

import pluggy

from mdp.errors import ModelError, did_you_mean
from mdp.game.plugins import attribute, invalid


def check_hook_names(plugins: pluggy.PluginManager, owner: str) -> None:
    """Refuse a hook implementation that no specification knows: a misspelt name
    (``mdp_action``) would otherwise be silently never called."""
    try:
        plugins.check_pending()
    except pluggy.PluginValidationError as error:
        name = plugins.get_name(error.plugin) or str(error.plugin)
        raise invalid(owner, name, plugins, error) from None
    known = {h for h, caller in vars(plugins.hook).items() if caller.spec is not None}
    for _, plugin in plugins.list_name_plugin():  # (get_plugins makes a set: a plugin may not hash)
        if plugin is not None:  # None: a name blocked
            _check_marked(plugins, plugin, owner, known)
    _check_signatures(plugins, owner)


def _check_marked(plugins: pluggy.PluginManager, plugin: Any, owner: str, known: set[str]) -> None:
    """Refuse functions named as hooks (or ``mdp_...``) but not marked :data:`mdp.hookimpl`:
    pluggy passes them over, so they would be silently never called, and the game would
    fail later with a message pointing elsewhere (or an empty file's)."""
    unmarked = [hook for hook in dir(plugin) if (hook in known or hook.startswith("mdp_"))
                and callable(attribute(plugin, hook))
                and not isinstance(attribute(plugin, hook), type)
                and plugins.parse_hookimpl_opts(plugin, hook) is None]
    if not unmarked:
        return
    name = plugins.get_name(plugin) or str(plugin)
    stray = [hook for hook in unmarked if hook not in known]
    if stray:
        raise ModelError(f"{owner}: plugin {name}'s {stray[0]} is not marked @mdp.hookimpl, and no "
                         f"hook is named so{did_you_mean(stray[0], known)} (start a helper's name "
                         "with _)")
    if len(unmarked) == 1:
        raise ModelError(f"{owner}: plugin {name}'s {unmarked[0]} is not marked @mdp.hookimpl, so mdp "
                         "would never call it")
    raise ModelError(f"{owner}: plugin {name}'s {', '.join(unmarked[:-1])} and {unmarked[-1]} are not "
                     "marked @mdp.hookimpl, so mdp would never call them")


def _check_signatures(plugins: pluggy.PluginManager, owner: str) -> None:
    """Refuse a hook implementation pluggy would call to no purpose: an ``async`` one gives a
    coroutine, never run, for its answer; a keyword-only parameter is never given (pluggy
    passes the arguments a function names by position)."""
    for caller in vars(plugins.hook).values():
        if not isinstance(caller, pluggy.HookCaller):
            continue
        for impl in caller.get_hookimpls():
            function = inspect.unwrap(impl.function)
            try:
                parameters = list(inspect.signature(function).parameters.values())
            except (TypeError, ValueError):  # no signature to read: pluggy checked what it could
                parameters = []
            keyword = [p.name for p in parameters if p.kind == p.KEYWORD_ONLY]
            why = "is async: mdp calls a hook and takes what it returns, a coroutine never run" \
                if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function) else \
                f"takes {keyword[0]} as a keyword-only parameter, which a hook is never given (its " \
                "arguments come by position: drop the *)" if keyword else None
            if why:
                raise ModelError(f"{owner}: plugin {impl.plugin_name}'s {caller.name} {why}")
