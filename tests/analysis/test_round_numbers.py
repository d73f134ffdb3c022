"""``mdp policy`` of a game of rounds numbers the round played from each round state, 1 for
the first, and none where the game is over there: a game of no rounds, over from the start,
was called "round 1". Over a coin played for 0 to 5 rounds (tests/models.py COIN_ROUNDS:
with ``rounds`` R, round states 0 to R - 1 follow one another, the last ending the game, so
R - 1 rounds are played, none for R of 0 or 1), whose round column and value are derived
here by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from models import COIN_ROUNDS

import mdp
from mdp.program.cli import main


@pytest.mark.parametrize("rounds", range(6))
def test_rounds_are_numbered_where_played_and_none_where_the_game_is_over(tmp_path, rounds):
    path = tmp_path / f"coin{rounds}.py"
    path.write_text(COIN_ROUNDS.format(heads="1/2", up=2, down=0, rounds=rounds))
    game = mdp.load_game(str(path))
    solution = mdp.solve(mdp.compile(game), exact=True)
    played = max(rounds - 1, 0)
    table = mdp.policy(solution, game)
    assert table["round"].to_list() == [*range(1, played + 1), None]
    # Each round played earns 2 with chance 1/2: 1 a round, to go.
    assert [Fraction(v) for v in table["value_exact"]] == [played - k for k in range(played + 1)]


def test_the_command_line_leaves_the_round_of_a_game_over_at_once_empty(tmp_path, capsys):
    path = tmp_path / "coin0.py"
    path.write_text(COIN_ROUNDS.format(heads="1/2", up=1, down=0, rounds=0))
    assert main(["policy", str(path), "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["round_state,round,value", "0,,0.0"]
