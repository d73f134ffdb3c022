"""A round rule whose answer for one round state depends on the other round states asked
with it (their number, the first or the last of them, a total over them, their order, a
row's place in the batch) is refused at compile, so that every command gives the same
verdict: before, ``solve``, ``policy`` and ``strategies`` printed a value from such a rule,
which the commands that ask one round state at a time (``distribution``, ``match``,
``targets``) then refused (found by a plugin author's attack)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp

# How the points of each row change with the batch (``states``, one row per round state):
# each is zero for every batch exactly when ``change`` is, so that a pure rule is the control.
KINDS = {
    "number": lambda states: np.full(len(states), len(states)),
    "first": lambda states: np.full(len(states), states[0] + 1),
    "last": lambda states: np.full(len(states), states[-1] + 1),
    "largest": lambda states: states.max() - states,
    "smallest": lambda states: states - states.min(),
    "total": lambda states: np.full(len(states), states.sum() + 1) - states - 1,
    "place": lambda states: np.arange(len(states)),
}


def batch_dependent(kind, change, reverse=False):
    """Two boxes (:func:`models.two_boxes`) whose rule adds ``change`` times the ``kind`` of
    dependence to each row's points, or (``reverse``) answers the rows in reverse order."""

    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            ends_ = two_boxes_ends(ends, states[::-1] if reverse else states)
            extra = change * KINDS[kind](states)[:, None]
            return mdp.RoundEnds(ends_.next, ends_.points + extra)

        return rule

    return two_boxes(mdp_round_rule=mdp_round_rule)


COMMANDS = {
    "solve": lambda game, exact: mdp.solve(mdp.compile(game), exact=exact),
    "policy": lambda game, exact: mdp.policy(mdp.solve(mdp.compile(game), exact=exact), game),
    "distribution": lambda game, exact: mdp.distribution(
        mdp.solve(mdp.compile(game), exact=exact), game),
}


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(KINDS)), st.integers(-5, 5).filter(bool), st.booleans(),
       st.booleans())
def test_a_rule_that_depends_on_its_batch_is_refused_by_every_command(kind, change, reverse,
                                                                       exact):
    pattern = (r"game two-boxes: mdp_round_rule's function gave round state \d+ other ends than "
               r"it gave before \(asked (alone|twice in one batch), after a batch of \d+\); it "
               r"must be a pure function of the round states")
    for command in COMMANDS.values():
        game = batch_dependent(kind, change, reverse)  # a game compiled afresh by each
        with pytest.raises(mdp.ModelError, match=pattern):
            command(game, exact)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_same_rule_with_no_change_is_accepted(kind):
    # The control: the rule's arithmetic alone is not refused; by hand, two boxes is 37/4
    # (models.TWO_BOXES).
    game = batch_dependent(kind, 0)
    assert mdp.solve(mdp.compile(game), exact=True).value == TWO_BOXES
    shares = mdp.distribution(mdp.solve(mdp.compile(game), exact=True), game)
    assert sum(p * Fraction(q) for p, q in shares.select("points", "exact").iter_rows()) == \
        TWO_BOXES


def test_a_rule_of_one_round_state_a_round_is_asked_it_twice():
    # A batch of one round state (the start) is asked again as that state twice: a rule that
    # adds one where it is asked more than one round state at once is refused at compile.
    game = batch_dependent("number", 1)
    with pytest.raises(mdp.ModelError, match=r"gave round state 0 other ends than it gave "
                       r"before \(asked twice in one batch, after a batch of 1\)"):
        mdp.compile(game)


class _Between:
    """Adds 5 points to every row of a batch but its first and its last (round 18, P30: such
    a rule passed the compile, which asked those two alone, and solve answered for it)."""

    @mdp.hookimpl(wrapper=True)
    def mdp_round_rule(self, ends):
        rule = yield

        def changed(states):
            found = rule(states)
            points = np.array(found.points, dtype=object)
            if len(states) >= 3:
                points[1:-1] += 5
            return mdp.RoundEnds(found.next, points)

        return changed


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_rule_that_changes_the_rows_between_first_and_last_is_refused(command):
    from test_rounds_properties import card_game

    game = card_game([[1, 2], [0, 3], [2, 2]], 2, 1)  # three boxes: round 2 asks 3 at once
    game.plugins.register(_Between(), name="between")
    with pytest.raises(mdp.ModelError, match=r"mdp_round_rule's function gave round state \d+ "
                       r"other ends than it gave before \(asked alone, after a batch of 3\)"):
        COMMANDS[command](game, True)
