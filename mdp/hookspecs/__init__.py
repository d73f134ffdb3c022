"""The hooks of mdp, in two modules, one per plugin manager:

- :mod:`mdp.hookspecs.game`: the hooks of **a game**, implemented by the game's module and
  the rule plugins registered beside it (:func:`mdp.load_game` makes one plugin manager per
  game);
- :mod:`mdp.hookspecs.program`: the hooks of **the mdp program**, implemented by mdp's
  built-in plugins and by the plugins offered in the ``mdp.plugins`` entry-point group (one
  plugin manager for the whole program, :mod:`mdp.analysis.registry`).

A plugin is a module (or any object) whose functions carry the :data:`hookimpl` marker and
the names of the hooks. A hook implemented in the wrong place (a game's hook in an
``mdp.plugins`` plugin, say) would never be called: it is an error naming the right place.
"""

import pluggy

PROJECT = "mdp"
"""The project name of the markers: pluggy calls only implementations marked for it."""

hookspec = pluggy.HookspecMarker(PROJECT)
"""The marker of a hook specification (for a game that declares hooks of its own)."""

hookimpl = pluggy.HookimplMarker(PROJECT)
"""The marker of a hook implementation: ``@mdp.hookimpl``, or ``@mdp.hookimpl(wrapper=True)``."""
