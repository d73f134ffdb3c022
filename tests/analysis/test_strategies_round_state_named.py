"""A strategy that cannot be valued names the round state it went wrong at with its round
columns in the table of ``mdp strategies`` (its ``problem``, and the lines it prints), as
every other error does: ``round state 1 (filled=FACE)``, which ``mdp advise`` takes, where
it said ``round state 1``."""

import json
from pathlib import Path

import numpy as np
from edited import edited

import mdp
from mdp.analysis.strategy_table import strategy_values
from mdp.program import main

TWO_BOXES = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py").read_text()
NAN_AT_ONE = '''
def _nan(game, rounds, states, ends):
    aims = np.array(ends.points, dtype=float)
    aims[states == 1] = np.nan
    return aims


@mdp.hookimpl
def mdp_strategies():
    return [mdp.RoundsStrategy("nan", "no aim at round state 1", _nan)]
'''


def test_the_round_state_a_strategy_fails_at_is_named_with_its_columns(tmp_path, capsys):
    path = edited(TWO_BOXES, "nanstrategy", tmp_path, NAN_AT_ONE)
    game = mdp.load_game(path)
    table = strategy_values(mdp.compile(game), game)
    problem = table.filter(table["strategy"] == "nan")["problem"][0]
    assert "(round state 1 (filled=FACE))" in problem, problem
    assert main(["strategies", path, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["problem"] for row in rows if row["strategy"] == "nan"] == [problem]
    assert np.isfinite(table["value"][0])  # optimal play still valued
