"""The hooks through which rule plugins extend Shut the Box.

They belong to the same plugin manager as :mod:`mdp.hookspecs.game` and are implemented with
:data:`mdp.hookimpl`. The game registers them when it is loaded; rule plugins offered in
the ``shutbox`` entry-point group are registered right after, like pytest's built-in plugins.
Masks of tiles number the tiles in ascending order: bit ``i`` stands for
``params["tiles"][i]``.
"""

import mdp


@mdp.hookspec(firstresult=True)
def shutbox_moves(params, game, total):
    """Return the sets of tiles that may be shut on a roll of ``total``, as a list of masks.

    The answer holds whatever tiles are open: the game then keeps, in each state, the sets
    whose tiles are all open. Called once per roll total and rule set. The game's own
    implementation returns every set of tiles that adds up to ``total``; a plugin restricts
    the moves by wrapping it:

    .. code-block:: python

        @mdp.hookimpl(wrapper=True)
        def shutbox_moves(params, total):
            moves = yield
            return [m for m in moves if m.bit_count() <= 2]
    """


@mdp.hookspec
def shutbox_scoring_rules():
    """Return the scoring rules a plugin offers, as a list of
    :class:`~mdp_games.shutbox.scoring.ScoringRule`.

    Every implementation is called and the lists are joined; the ``scoring`` parameter picks
    one by name.
    """
