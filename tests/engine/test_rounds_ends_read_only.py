"""The ends a round rule is handed are the round model's, in its order: the rule reads them
and never reorders them. They were a list, and a rule that sorted or swapped it in place was
built for other ends than the model's: advice named the wrong box best, while the solve's
value looked right. Whatever a rule does to its ends in place, it is refused in one line
naming mdp_round_rule, or its game solves as the untouched one does."""

import pytest
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp

MISDEEDS = ["ends.sort(key=lambda e: -e[2])", "ends.reverse()", "ends[0], ends[1] = ends[1], ends[0]",
            "ends.append(ends[0])", "ends.clear()", "ends.pop()", "ends.insert(0, ends[-1])",
            "del ends[0]", "ends += ends[:1]", "ends.extend([])", "ends *= 1", "ends.remove(ends[0])"]


@pytest.mark.parametrize("misdeed", MISDEEDS)
def test_a_rule_that_changes_its_ends_in_place_is_refused(misdeed):
    @mdp.hookimpl
    def mdp_round_rule(ends):
        exec(misdeed, {}, {"ends": ends})  # (in place, where the list was the model's)
        return lambda states: two_boxes_ends(ends, states)

    game = two_boxes(mdp_round_rule=mdp_round_rule)
    try:
        solution = mdp.solve(mdp.compile(game), exact=True)
    except mdp.ModelError as error:
        assert str(error).startswith("game two-boxes: mdp_round_rule raised "), error
        assert "\n" not in str(error)
        return
    assert solution.value == TWO_BOXES  # (what leaves the model's ends as they were)
