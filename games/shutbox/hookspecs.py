"""The hooks through which rule plugins extend Shut the Box.

They belong to the same plugin manager as :mod:`mdp.hookspecs.game` and are implemented with
:data:`mdp.hookimpl`. The game registers them when it is loaded; rule plugins offered in
the ``shutbox`` entry-point group are registered right after, like pytest's built-in plugins.
Masks of tiles number the tiles in ascending order: bit ``i`` stands for
``params["tiles"][i]``.
"""

import mdp


@mdp.hookspec(firstresult=True)
def shutbox_dice_options(params, game, box, masks):
    """Return the numbers of dice the player may roll before each roll: ``masks`` is an
    integer array of the open tiles of many states (a frontier of them at a time), and the
    answer an integer array with a row per mask, listing its choices in the game's order (the
    usual number first), ``0`` where a row has fewer choices than others.

    Every number must lie from 1 to the most dice the parameters roll (``dice``, or the most
    of ``dice_schedule``). ``box`` is the :class:`~mdp_games.shutbox.box.Box` in force, with
    helpers such as ``box.open_sum(masks)``. The game's own implementation gives the usual
    number of dice, one column; its one-die rule (parameters ``one_die`` and
    ``one_die_mode``) wraps it as a plugin would, adding one die (or putting it in the usual
    number's place) where the open tiles are low:

    .. code-block:: python

        @mdp.hookimpl(wrapper=True)
        def shutbox_dice_options(params, box, masks):
            options = yield
            low = box.open_sum(masks) <= 6
            return np.column_stack([options, np.where(low & (options[:, 0] != 1), 1, 0)])
    """


@mdp.hookspec(firstresult=True)
def shutbox_rolls(params, game, dice):
    """Return what a throw of ``dice`` dice shows, as the rules tell throws apart: a list of
    ``(probability, total, kind)``, where ``kind`` is ``None`` for a roll that counts only
    by its total, or a word (``"double"``, say: no spaces, ``=`` or ``,``, not starting with
    ``-``, as the user types ``kind=double``) for rolls of the same total that the rules
    treat otherwise; ``shutbox_moves`` is then asked for each kind apart.

    Called once per number of dice from 1 to the most the parameters roll, and rule set. The
    game's own implementation gives the distribution of the total, every roll of kind
    ``None``. A plugin that reads the faces wraps it and counts the throws afresh from
    :func:`mdp_games.dice.multiset_distribution` (the distinct throws of some dice, each
    with its probability); the entries of one total and kind are added up.
    """


@mdp.hookspec(firstresult=True)
def shutbox_moves(params, game, total, kind):
    """Return the sets of tiles that may be shut on a roll of ``total`` of ``kind`` (see
    :func:`shutbox_rolls`; ``None`` for a plain roll), as a list of masks.

    The answer holds whatever tiles are open: the game then keeps, in each state, the sets
    whose tiles are all open. Called once per roll (total and kind) and rule set. The game's
    own implementation returns every set of tiles that adds up to ``total``; a plugin
    restricts the moves by wrapping it:

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
