"""A chance of at least a total that floats make 0 in one step (two 6s at 1e-200 each: 4e-400,
past a float's least subnormal) is refused as one that comes to a subnormal is, sending to
exact numbers (U35-6: "0.0000% (0)" for a total some play reaches). Where some play comes to
every end of the round, no chance within a round state's vector is 0 (mdp/engine/rounds/
digits.py); where an end is reached only by an outcome of chance 0, a 0 may be the answer and
is not refused, nor where no product of the round's chances comes near a float's least (a
round state that forbids an end chance leads to has totals out of reach)."""

from fractions import Fraction
from pathlib import Path

import pytest

import mdp

TWO_BOXES = (Path(__file__).parents[2] / "docs" / "examples" / "two_boxes.py").read_text()
THROW = '        return [(Fraction(1, 6), ("face", state[1] - 1, f)) for f in range(1, 7)]\n'


def _boxes(tmp_path, six, name):
    """Two boxes whose die shows a 6 at the chance ``six`` (the others alike)."""
    assert THROW in TWO_BOXES
    game = tmp_path / f"{name}.py"
    game.write_text(TWO_BOXES.replace(THROW, f"        six = Fraction({six!r})\n        return "
                                      "[((1 - six) / 5 if f < 6 else six, (\"face\", state[1] - 1, f))"
                                      " for f in range(1, 7)]\n"), encoding="utf-8")
    return mdp.compile(mdp.load_game(str(game)))


@pytest.mark.parametrize("six", [f"1/{10**200}", f"1/{10**160}"], ids=["1e-200", "1e-160"])
def test_a_chance_floats_lose_is_refused_and_exact_numbers_hold_it(tmp_path, six):
    # By hand: FACE scores the face (6 at most), EVEN twice an even face (12 at most), so 18
    # is 6 + 12, a 6 in each round (of up to two throws): a chance of at least six**2, below
    # a float's least (about 5e-324) for both: 0 in one step, or a subnormal.
    model = _boxes(tmp_path, six, "tiny")
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: a chance from round state 0 "
                       r"came to \S+, below what a float holds with its digits"):
        mdp.at_least(model, total=18)
    exact = mdp.at_least(model, total=18, exact=True).chance(18)
    assert 0 < exact < Fraction(22, 10**309) and exact >= Fraction(six) ** 2


def test_a_total_only_a_chance_of_0_reaches_is_0_and_said_so(tmp_path):
    model = _boxes(tmp_path, "0", "never-six")  # the 6 is an end no play reaches
    assert mdp.at_least(model, total=18).chance(18) == 0
    assert mdp.at_least(model, total=18, exact=True).chance(18) == 0


FORBIDS_A_RISK = '''
from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "forbids-a-risk"
POINTS = {"safe": 1, "win": 5, "lose": 0}
WIN = Fraction(%r)


@mdp.hookimpl
def mdp_initial_state():
    return "choose"


@mdp.hookimpl
def mdp_actions(state):
    return ["safe", "risk"] if state == "choose" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "safe":
        return [(1, ("end", "safe"))]
    return [(WIN, ("end", "win")), (1 - WIN, ("end", "lose"))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return POINTS[state[1]]


@mdp.hookimpl
def mdp_round_start():
    return 0


@mdp.hookimpl
def mdp_round_rule(ends):
    points = np.array([POINTS[end[1]] for end in ends], dtype=np.int64)
    lose = np.array([end[1] == "lose" for end in ends])

    def rule(states):
        state = states[:, None]
        following = np.where(state == 0, 1, np.where((state == 1) & ~lose, 2, -1)) + np.zeros(len(ends), dtype=np.int64)
        return mdp.RoundEnds(following, np.broadcast_to(points, following.shape))
    return rule
'''


@pytest.mark.parametrize("win", ["1/2", "1/7"])
def test_a_total_out_of_reach_where_a_round_state_forbids_a_risk_is_0_in_floats(tmp_path, win):
    # Round 36, A36P-3: the second round may not end in a lost risk, so it plays safe (1
    # point): 7 or more is out of reach (by hand: a won risk, 5, then 1), a true 0 that
    # floats were refused for, as if lost past a float's least. Every total as exactly.
    path = tmp_path / f"forbids_{win.replace('/', '_')}.py"
    path.write_text(FORBIDS_A_RISK % win)
    model = mdp.compile(mdp.load_game(str(path)))
    floats, exact = mdp.at_least(model), mdp.at_least(model, exact=True)
    chances = [exact.chance(t) for t in range(12)]
    assert chances == [1, 1, 1] + [Fraction(win)] * 4 + [0] * 5
    assert [floats.chance(t) for t in range(12)] == [float(c) for c in chances]
