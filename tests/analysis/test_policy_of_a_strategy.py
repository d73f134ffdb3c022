"""The policy table of a strategy (``mdp policy GAME --strategy NAME``): every action's value
when the strategy is followed after it, as the whole table of the same solution gives it."""

import polars as pl
import pytest

import mdp
from mdp.program.cli import main


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["random", "fewest-tiles"])
def test_the_table_of_a_strategy_is_made_a_piece_at_a_time_as_whole(tmp_path, strategy):
    game = mdp.load_game("shutbox", tiles="1-5")
    solution = mdp.evaluate(mdp.compile(game), strategy, game=game)
    every = solution.action_values()  # the whole table at once: the reference
    out = tmp_path / "policy.csv"
    assert main(["policy", "shutbox", "--set", "tiles=1-5", "--strategy", strategy, "--out", str(out)]) == 0
    table = pl.read_csv(out)
    assert table.height == solution.model.n_actions
    assert sorted(table["value"].round(12).to_list()) == sorted(every.value.round(12).tolist())
