"""A count is said with its noun in the singular for one: "1 game: mean ...", "reached
after 1 round". It was "1 games" and "after 1 rounds"."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main
from mdp.shown import counted


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**7), st.sampled_from(["game", "round", "round state"]))
def test_a_count_has_its_noun_in_the_singular_for_one_only(n, what):
    assert counted(n, what) == f"{n:,} {what}" + ("" if n == 1 else "s")


@pytest.mark.parametrize("games", [1, 2])
def test_simulate_says_one_game_in_the_singular(capsys, games):
    assert main(["simulate", "shutbox", "--set", "tiles=1-3", "--games", str(games), "--seed", "1"]) == 0
    assert f"\n{games} game{'s' * (games != 1)}: mean " in capsys.readouterr().out


def test_a_round_state_met_again_after_one_round_is_said_in_the_singular():
    # The rule leads round state 0 back to itself: met after 1 round and after 0.
    @mdp.hookimpl
    def mdp_round_rule(ends):
        return lambda states: mdp.RoundEnds(np.zeros((len(states), len(ends)), dtype=np.int64),
                                            np.zeros((len(states), len(ends)), dtype=np.int64))

    game = mdp.load_game(SimpleNamespace(
        GAME_NAME="again", mdp_initial_state=mdp.hookimpl(lambda: "s"),
        mdp_actions=mdp.hookimpl(lambda state: ["go"] if state == "s" else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(Fraction(1), "end")]),
        mdp_terminal_value=mdp.hookimpl(lambda state: 0),
        mdp_round_start=mdp.hookimpl(lambda: 0), mdp_round_rule=mdp_round_rule))
    with pytest.raises(mdp.ModelError, match=r"round state 0 is reached after 1 round and after fewer"):
        mdp.compile(game)
