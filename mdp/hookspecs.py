"""The hooks a game implements.

A game is a module (or any object) whose functions carry the :data:`mdp.hookimpl` marker and
the names below. The engine calls them through `pluggy <https://pluggy.readthedocs.io>`_, so a
rule plugin registered after the game can override or wrap any of them.

Every hook receives ``params``, a read-only mapping from each parameter name to its resolved
value (see :func:`mdp_params`). States and actions are any hashable values the game likes.

Unless a hook says otherwise it is ``firstresult``: implementations are called from the most
recently registered plugin back to the game itself, and the first one that returns something
other than ``None`` wins.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("mdp")
hookimpl = pluggy.HookimplMarker("mdp")


@hookspec
def mdp_params():
    """Declare parameters: return a list of :class:`mdp.Param`.

    Called once when a game is loaded. Unlike the other hooks, every implementation is
    called and the lists are joined, so a rule plugin adds its own parameters beside the
    game's. A name declared twice is an error.

    .. code-block:: python

        @hookimpl
        def mdp_params():
            return [mdp.Param("faces", 6, parse=int, help="faces on the die")]
    """


@hookspec
def mdp_configure(plugins):
    """Register further plugins before parameters are resolved.

    ``plugins`` is the :class:`pluggy.PluginManager` of the game being loaded. Called once,
    right after the game module is registered, so that a game can add hook specifications of
    its own and register its default rule plugins, the way pytest registers its built-in
    plugins. Every implementation is called; the return value is ignored.
    """


@hookspec(firstresult=True)
def mdp_describe(params):
    """Return the rules in force as one short line of text, for people.

    .. code-block:: python

        @hookimpl
        def mdp_describe(params):
            return f"a coin with {params['faces']} faces"
    """


@hookspec(firstresult=True)
def mdp_objective(params):
    """Return the :class:`mdp.Objective`: what a value means and whether to maximize it.

    Without an implementation the engine maximizes an unnamed value.
    """


@hookspec(firstresult=True)
def mdp_initial_state(params):
    """Return the state the game starts in. Required."""


@hookspec(firstresult=True)
def mdp_actions(params, state):
    """Return the actions available in ``state`` as a list; an empty list makes it terminal.

    Called once for every reachable state. Required.
    """


@hookspec(firstresult=True)
def mdp_outcomes(params, state, action):
    """Return what ``action`` in ``state`` leads to: a list of ``(probability, next_state)``.

    Probabilities must be non-negative and sum to 1. Give them as ``int`` or
    :class:`fractions.Fraction` so that exact solving stays exact; a ``float`` is accepted
    for float solving only. A deterministic action returns ``[(1, next_state)]``. Required.
    """


@hookspec(firstresult=True)
def mdp_terminal_value(params, state):
    """Return the value of the terminal ``state`` (one with no actions). Required.

    As with probabilities, an ``int`` or :class:`fractions.Fraction` keeps exact solving exact.
    """


@hookspec(firstresult=True)
def mdp_state_columns(params, state):
    """Return the readable columns of ``state`` for policy tables: ``{name: scalar}``.

    Every state must give the same names; use ``None`` for a value that does not apply.
    Without an implementation the policy shows ``repr(state)`` in a column ``state``.
    """


@hookspec(firstresult=True)
def mdp_action_columns(params, state, action):
    """Return the readable columns of ``action`` taken in ``state``: ``{name: scalar}``.

    The same rules as :func:`mdp_state_columns`; the default is a column ``action``.
    """
