"""A match of a game of rounds is refused for its memory before it takes any (round 25: points
of 2**30 a round, under --max-memory 2G, held 16.8 GB for 85 s before the refusal: the
first player's payoff, as wide as the spread of totals, was made before the check)."""

import tracemalloc

import numpy as np
import pytest
from models import two_boxes, two_boxes_ends

import mdp


def shifted(by):
    """Two boxes, box B's ends earning ``by`` more points: totals spread over ``by`` and more."""
    def rule(ends):
        more = np.array([[by if end[1] == "B" else 0 for end in ends]], dtype=object)

        def answer(states):
            given = two_boxes_ends(ends, states)
            return mdp.RoundEnds(given.next, np.asarray(given.points, dtype=object) + more)
        return answer

    return two_boxes(mdp_round_rule=mdp.hookimpl(rule))


@pytest.mark.parametrize("by", [2**27, 2**30, 2**48])
def test_a_match_too_large_is_refused_holding_next_to_nothing(by):
    game = shifted(by)
    model = mdp.compile(game)
    tracemalloc.start()
    try:
        with pytest.raises(mdp.TooLarge, match=r"^game two-boxes: a match may take up to .* GB for "
                           r"its vectors over the totals, past the budget of 500 MB"):
            mdp.match(model, game, max_memory=500 * 10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20, peak
