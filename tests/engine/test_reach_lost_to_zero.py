"""A chance of at least a total that floats make 0 in one step (two 6s at 1e-200 each: 4e-400,
past a float's least subnormal) is refused as one that comes to a subnormal is, sending to
exact numbers (U35-6: "0.0000% (0)" for a total some play reaches). Where some play comes to
every end of the round, no chance within a round state's vector is 0 (mdp/engine/rounds/
digits.py); where an end is reached only by an outcome of chance 0, a 0 may be the answer and
is not refused."""

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
