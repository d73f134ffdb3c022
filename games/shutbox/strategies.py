"""Named strategies of Shut the Box: simple ways to play, valued exactly by ``--strategy``.

Each gives one weight per action of a compiled model, computed for all actions at once from
the state keys and action codes (no call per state). Before a roll the actions are numbers
of dice (the usual number first); after it, masks of the tiles to shut.

- ``random``: every legal choice equally likely, the number of dice included.
- ``fewest-tiles``: roll one die whenever the rules allow the choice; shut as few tiles as
  possible, and among those the set whose highest tile is highest, then whose next highest
  is highest, and so on.
- ``shortest`` and ``longest``: Vince Knight's rules of thumb from his simulation study of
  simple strategies ("Some analysis of the game Shut the Box", 2013): shut the fewest
  (``shortest``) or the most (``longest``) tiles, a tie picked at random (equally likely);
  they roll the usual number of dice.
"""

from __future__ import annotations

import numpy as np

import mdp

from .rules import box


def _parts(game: mdp.Game, model: mdp.CompiledModel):
    """Per action: its mask of tiles (0 before a roll), whether it is a choice of dice, the
    number of tiles it shuts, and the id of its state."""
    b = box(game)
    state = model.action_state()
    _, rolls = b.split(np.asarray(model.states, dtype=np.int64)[state])
    codes = np.asarray(mdp.action_labels(model, game), dtype=np.int64)
    dice = rolls == 0
    masks = np.where(dice, 0, codes)
    return b, codes, masks, dice, np.bitwise_count(masks.astype(np.uint64)).astype(np.int64), state


def _best(model: mdp.CompiledModel, key: np.ndarray, state: np.ndarray) -> np.ndarray:
    """1 where ``key`` is the highest of its state's actions, else 0."""
    starts = model.action_start[model.n_terminal:-1]
    top = np.maximum.reduceat(key, starts)[state - model.n_terminal]
    return (key == top).astype(np.int64)


def _random(game, model):
    return np.ones(model.n_actions, dtype=np.int64)


def _fewest_tiles(game, model):
    b, codes, masks, dice, count, state = _parts(game, model)
    n = len(b.tiles)
    # Fewer tiles first; then, for sets of as many tiles, the higher mask is the one whose
    # highest tile is highest, then its next highest, and so on. Before a roll: one die.
    key = np.where(dice, (codes == 1).astype(np.int64), (n + 1 - count) << n | masks)
    return _best(model, key, state)


def _by_count(sign: int):
    def weights(game, model):
        b, codes, masks, dice, count, state = _parts(game, model)
        usual = np.arange(model.n_actions) == model.action_start[state]
        key = np.where(dice, usual.astype(np.int64), sign * count)
        return _best(model, key, state)

    return weights


@mdp.hookimpl
def mdp_strategies():
    return [
        mdp.Strategy("random", "every legal choice equally likely, the number of dice included",
                     _random),
        mdp.Strategy("fewest-tiles", "one die when allowed; the fewest tiles, the highest first",
                     _fewest_tiles),
        mdp.Strategy("shortest", "Vince Knight's: the fewest tiles, ties at random; usual dice",
                     _by_count(-1)),
        mdp.Strategy("longest", "Vince Knight's: the most tiles, ties at random; usual dice",
                     _by_count(1)),
    ]


@mdp.hookimpl
def mdp_outcome_columns():
    # Durango Bill's score (the sum of the shut tiles) and the pub score (the sum left open).
    return ["shut_sum", "open_sum"]
