"""Named strategies of Pig, played by both players (a state is the mover's, whoever moves).

- ``hold-at-20``: roll until the turn total is 20 or more, then hold. A throw that reaches
  the goal wins at once in this model (holding then is never worse), so this is also the
  rule people call "hold at 20 or at the goal".
- ``hold-at-25``: the same at 25.
"""

from __future__ import annotations

import numpy as np

import mdp

from .rules import HOLD, rules


def _hold_when(rule):
    def weights(game, model):
        r = rules(game)
        keys = np.asarray(model.states, dtype=np.int64)[model.action_state()]
        me, opponent, turn = r.split(keys)
        codes = np.asarray(mdp.action_labels(model, game), dtype=np.int64)
        hold = rule(r, me, opponent, turn)
        return np.where((codes == HOLD) == hold, 1, 0)
    return weights


@mdp.hookimpl
def mdp_strategies():
    return [
        mdp.Strategy("hold-at-20", "roll until the turn total is 20 or more, then hold",
                     _hold_when(lambda r, me, opponent, turn: turn >= 20)),
        mdp.Strategy("hold-at-25", "roll until the turn total is 25 or more, then hold",
                     _hold_when(lambda r, me, opponent, turn: turn >= 25)),
    ]
