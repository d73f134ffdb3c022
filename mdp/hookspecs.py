"""The hooks a game implements.

A game is a module (or any object) whose functions carry the :data:`mdp.hookimpl` marker and
the names below. The engine calls them through `pluggy <https://pluggy.readthedocs.io>`_, so a
rule plugin registered after the game can override or wrap any of them.

Most hooks receive ``params``, a read-only mapping from each parameter name to its resolved
value (see :func:`mdp_params`), and ``game``, the :class:`mdp.Game` itself, through which
a hook can call other hooks (``game.call("hook_name", ...)``) or keep data derived from the
parameters (:meth:`mdp.Game.memo`). An implementation names only the arguments it uses.
States and actions are any hashable values the game likes.

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
            return [mdp.Param("rounds", 3, parse=int, help="rounds to play")]
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
def mdp_describe(params, game):
    """Return the rules in force as one short line of text, for people.

    .. code-block:: python

        @hookimpl
        def mdp_describe(params, game):
            return f"a coin with {params['faces']} faces"
    """


@hookspec(firstresult=True)
def mdp_objective(params, game):
    """Return the :class:`mdp.Objective`: what a value means and whether to maximize it.

    Without an implementation the engine maximizes an unnamed value.
    """


@hookspec(firstresult=True)
def mdp_initial_state(params, game):
    """Return the state the game starts in. Required."""


@hookspec(firstresult=True)
def mdp_actions(params, game, state):
    """Return the actions available in ``state`` as a list; an empty list makes it terminal.

    Called once for every reachable state. Required.
    """


@hookspec(firstresult=True)
def mdp_outcomes(params, game, state, action):
    """Return what ``action`` in ``state`` leads to: a list of ``(probability, next_state)``.

    Probabilities must be non-negative and sum to 1. Give them as ``int`` or
    :class:`fractions.Fraction` so that exact solving stays exact; a ``float`` is accepted
    for float solving only. A deterministic action returns ``[(1, next_state)]``. Required.
    """


@hookspec(firstresult=True)
def mdp_terminal_value(params, game, state):
    """Return the value of the terminal ``state`` (one with no actions). Required.

    As with probabilities, an ``int`` or :class:`fractions.Fraction` keeps exact solving exact.
    """


@hookspec(firstresult=True)
def mdp_state_columns(params, game, state):
    """Return the readable columns of ``state`` for policy tables: ``{name: scalar}``.

    Every state must give the same names; use ``None`` for a value that does not apply.
    Without an implementation the policy shows ``str(state)`` in a column ``state``.
    """


@hookspec(firstresult=True)
def mdp_action_columns(params, game, state, action):
    """Return the readable columns of ``action`` taken in ``state``: ``{name: scalar}``.

    The same rules as :func:`mdp_state_columns`; the default is a column ``action``.
    """


@hookspec
def mdp_check(params, game):
    """Check the parameters together, once they are resolved; raise :class:`mdp.ParamError`.

    For rules that involve more than one parameter (a minimum above its maximum, say).
    Every implementation is called when a game is loaded; return values are ignored.
    """


@hookspec(firstresult=True)
def mdp_variants():
    """Return the game's named rule sets: a list of :class:`mdp.Variant`, the default first.

    ``mdp variants GAME`` lists them and ``--variant NAME`` selects one.
    """


@hookspec(firstresult=True)
def mdp_estimate_states(params, game):
    """Return an estimate of the number of states, before any is explored (optional).

    The engine refuses a model whose estimate exceeds its state limit, before doing any
    work, and says how to raise the limit.
    """


# The batch hooks: the fast way to describe a large game. A game that implements
# mdp_expand is explored a frontier at a time; its states are then 64-bit integers.


@hookspec(firstresult=True)
def mdp_stage(params, game, states):
    """Return the stage of each state in the integer array ``states``, as an integer array.

    Required with :func:`mdp_expand`. Every transition must lead to a lower stage (think of
    it as a count of moves left, or of pieces still on the board): the engine expands all states of the
    highest stage at once, then the next, and so never meets a state twice.
    """


@hookspec(firstresult=True)
def mdp_expand(params, game, states):
    """Expand many states at once: return an :class:`mdp.Expansion` for ``states``.

    ``states`` is a sorted array of distinct 64-bit state keys, all of one stage. Optional:
    a game that implements it is explored with it (the per-state hooks
    :func:`mdp_actions`, :func:`mdp_outcomes` and :func:`mdp_terminal_value` are then not
    called), and its initial state must be an ``int``.
    """


@hookspec(firstresult=True)
def mdp_policy_columns(params, game, states, actions):
    """Return readable columns for many (state, action) pairs at once: ``{name: values}``,
    the values a list, a numpy array or a Polars Series (with nulls where nothing applies).

    ``states`` and ``actions`` are parallel sequences, one item per policy row. Optional; a
    batch game should implement it, since the per-state column hooks would be called once
    per row otherwise.
    """
