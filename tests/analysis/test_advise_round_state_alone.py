"""A round state named alone, in a game of rounds whose states within the round have
columns: the line says the round state was understood and the state within its round is
missing (round ten: "name a state of neg by its columns state", as if the round state were
wrong), from Python and from the command line, before the solve."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mdp
from mdp.engine.rounds.table import round_frame
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["two_boxes.py", pytest.param("three_dice.py", marks=pytest.mark.slow)]  # three dice: 2 s


@pytest.mark.parametrize("name", GAMES)
def test_a_round_state_alone_is_understood_and_the_state_within_it_asked_for(name, capsys):
    path = str(ROOT / "docs" / "examples" / name)
    game = mdp.load_game(path)
    model = mdp.compile(game)
    solution = mdp.solve(model)
    keys = np.concatenate(model.keys)
    table = round_frame(model, game, keys)
    asked = 0
    for key, row in zip(keys.tolist(), table.iter_rows(named=True)):
        if model.rule(np.array([key])).over[0]:  # no round played: the round state alone is enough
            continue
        named = " ".join(f'{c}="{v}"' if v == "" or " " in str(v) else f"{c}={v}" for c, v in row.items())
        said = f"{named} names the round state; the state within its round is missing: name a state of "
        with pytest.raises(mdp.ParamError) as refused:
            mdp.advise(solution, game, **row)
        assert str(refused.value).startswith(said), refused.value
        if asked < 2:  # on the command line too: refused before the solve
            assert main(["advise", path, *(f"{c}={v}" for c, v in row.items())]) == 2
            err = capsys.readouterr().err
            assert err.startswith(f"mdp: error: {said}") and len(err.splitlines()) == 1, err
        asked += 1
    assert asked >= 3
