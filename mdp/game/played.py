"""Which of a game's hooks its play calls: a rule plugin's implementation of one that no
solve calls is refused as the game loads, where it would change nothing, with no word."""

from __future__ import annotations

from collections.abc import Callable

import pluggy

from mdp.errors import ModelError

STATE_BY_STATE = ("mdp_actions", "mdp_outcomes", "mdp_terminal_value")
"""The hooks of a game played a state at a time (:mod:`mdp.hookspecs.game`)."""


def check_played(game: str, plugins: pluggy.PluginManager, own: Callable[[str], bool]) -> None:
    """Refuse a rule plugin's hook of :data:`STATE_BY_STATE` in a game played a stage at a
    time (one whose ``plugins`` implement ``mdp_expand``), which no solve calls (but
    ``mdp.compile(batch=False)``): a Shut the Box plugin that doubled the terminal value
    printed the plain game's value, and its rules line said the house rule was in force. A
    plugin that wraps ``mdp_expand`` too may keep both, and the game's ``own`` modules
    (:meth:`mdp.Game.own` of a plugin's name) may give both kinds."""
    expanders = {impl.plugin_name for impl in plugins.hook.mdp_expand.get_hookimpls()}
    if not expanders:
        return
    for hook in STATE_BY_STATE:
        for impl in getattr(plugins.hook, hook).get_hookimpls():
            if not own(impl.plugin_name) and impl.plugin_name not in expanders:
                raise ModelError(
                    f"game {game}: plugin {impl.plugin_name}'s {hook} would never be "
                    "called: the game is played a stage at a time (mdp_expand), and a rule "
                    "plugin of it changes what mdp_expand gives (docs/rule-plugins.rst)")
