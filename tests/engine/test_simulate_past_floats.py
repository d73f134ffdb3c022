"""A game of rounds whose totals pass what a float holds, though each round's points do not:
mdp simulate, which counts totals in floats, refuses in one line naming the game (round 18,
P17: an OverflowError traceback); the solve, exact, still answers. Two boxes (tests/models.py)
with every point times 10**307: FACE scores at most 6e307, EVEN 1.2e308, together 1.8e308."""

import numpy as np
import pytest
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp


@mdp.hookimpl
def mdp_round_rule(ends):
    def rule(states):
        found = two_boxes_ends(ends, states)
        big = np.array([[int(p) * 10**307 for p in row] for row in np.asarray(found.points)],
                       dtype=object)
        return mdp.RoundEnds(found.next, big)
    return rule


def test_simulating_totals_past_floats_is_refused_in_one_line():
    game = two_boxes(mdp_round_rule=mdp_round_rule)
    model = mdp.compile(game)
    assert mdp.solve(model, exact=True).value == TWO_BOXES * 10**307
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: a game played at random reached "
                       r"a total past what a float holds .*mdp distribution --exact"):
        mdp.simulate(mdp.solve(model, exact=True), game, games=400, seed=3)
