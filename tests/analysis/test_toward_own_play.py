"""The play toward a total is its own: in Python, mdp.analyse with at_least beside what
would have play go otherwise (a strategy's solution, one of the least points, a tie_break)
refuses it, as advise and the command line do. distribution and simulate played toward the
total without a word, the greedy play or the tie-break asked for dropped."""

from pathlib import Path

import pytest

import mdp

ROOT = Path(__file__).resolve().parents[2]
GAME = mdp.load_game(ROOT / "docs" / "examples" / "two_boxes.py")
MODEL = mdp.compile(GAME)
SOLUTIONS = {"optimal": mdp.solve(MODEL), "greedy": mdp.evaluate(MODEL, "greedy", game=GAME),
             "least": mdp.solve(MODEL, sense="min")}
ASKED = {"distribution": {}, "simulate": {"games": 20, "seed": 1},
         "advise": {"state": ["filled=", "throws_left=1", "face=3"]}}


@pytest.mark.parametrize("analysis", sorted(ASKED))
@pytest.mark.parametrize("solved", sorted(SOLUTIONS))
@pytest.mark.parametrize("tie_break", [(), ("face",)])
def test_at_least_is_refused_beside_another_play(analysis, solved, tie_break):
    more = {**ASKED[analysis], **({"tie_break": list(tie_break)} if analysis != "advise" else {})}
    other = solved != "optimal" or (tie_break and analysis != "advise")
    if not other:
        toward = mdp.analyse(SOLUTIONS[solved], analysis, GAME, at_least=14, **more)
        assert toward.height  # (its figures: tests/analysis/test_toward*.py)
        return
    with pytest.raises(mdp.ParamError, match=r"^at_least: the play toward a total is its own; give "
                       r"the optimal solution of the most points, without a strategy, "):
        mdp.analyse(SOLUTIONS[solved], analysis, GAME, at_least=14, **more)
