"""``mdp policy --within`` puts the round columns first, in the game's order (that of the
table of every round state's value), then the round's: a function of the game alone,
whichever round states are chosen. A round column empty at the first round state chosen
came last, after the round's columns. Checked over generated round columns of Two boxes
(tests/models.py two_boxes: round states 0, 1, 2 played from, 3 the end) and choices of
round states."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from models import two_boxes

import mdp

VALUES = st.one_of(st.none(), st.integers(0, 2))
NAMES = ("a", "b", "c")


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(VALUES, min_size=4, max_size=4), min_size=3, max_size=3),
       st.permutations(NAMES), st.data())
def test_the_column_order_is_the_games_whichever_round_states_are_chosen(values, order, data):
    table = dict(zip(order, values))  # each column's value at round states 0 to 3

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {name: [table[name][s] for s in states.tolist()] for name in order}

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    try:
        solution = mdp.solve(mdp.compile(game))
        rounds = [c for c in mdp.policy(solution, game).columns if c in NAMES]
    except mdp.ModelError:  # two round states alike: refused, as every table does
        assume(False)
    assert rounds == [n for n in order if any(v is not None for v in table[n])]
    named = [n for n in rounds if table[n][:3] != [None] * 3]
    assume(named)
    name = data.draw(st.sampled_from(named))
    value = data.draw(st.sampled_from([v for v in table[name][:3] if v is not None]))
    for within in ("all", {name: str(value)}):
        columns = mdp.policy(solution, game, within=within).columns
        assert columns[:len(rounds)] == rounds, within
        assert not set(columns[len(rounds):]) & set(NAMES)
