"""Two states of a policy table whose own columns are alike (the same text, or ``1`` and
``"1"`` shown alike) are two blocks of rows no player can tell apart: the table is refused,
naming both, as mdp advise refuses to name either. Whether two collide is found here by
brute force over the columns given."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp


@settings(max_examples=40, deadline=None)
@given(shown=st.lists(st.sampled_from(["a", "b", "c", "1"]), min_size=1, max_size=4))
@pytest.mark.slow
def test_states_shown_alike_are_refused_by_the_policy_table(shown):
    # From "start", a chance move to each of the states 0.. (each then ends, worth its
    # number); state i is shown as shown[i], the start as "start".
    n = len(shown)
    game = Table({"start": {"go": [(Fraction(1, n), i) for i in range(n)]},
                  **{i: {"end": [(1, f"end{i}")]} for i in range(n)}},
                 {f"end{i}": i for i in range(n)})
    game.mdp_state_columns = mdp.hookimpl(
        lambda state: {"s": shown[state] if isinstance(state, int) else str(state)})
    game = mdp.load_game(game)
    solution = mdp.solve(mdp.compile(game))
    alike = len(set(shown)) < len(shown)
    if not alike:
        assert mdp.policy(solution, game).height == n + 1
        return
    with pytest.raises(mdp.ModelError) as raised:
        mdp.policy(solution, game)
    message = str(raised.value)
    assert message.startswith("game table: states ") and "have the same columns (s=" in message
    assert "no column of the game tells them apart" in message and "\n" not in message
