"""A compiled model and a solution are values: every array they hold or work out is
read-only, to the strategies and analyses they are handed to (round 25: a strategy wrote
into ``model.action_start``, and another strategy's value came out 0.27 where it is 3.5; an
analysis wrote 0 into ``solution.values``, and mdp printed the game's value as 0)."""

import numpy as np
import pytest
from models import two_boxes

import mdp

GAMES = {
    "shutbox": lambda: mdp.load_game("shutbox", tiles="1-4"),
    "pig": lambda: mdp.load_game("pig", goal=6),
    "two boxes": two_boxes,
}


def _arrays(subject):
    """Every array among ``subject``'s attributes, after what analyses use is worked out."""
    for name in dir(subject):
        if name.startswith("__"):
            continue
        try:
            value = getattr(subject, name)
        except Exception:  # noqa: BLE001  (a property that asks for something else)
            continue
        if isinstance(value, np.ndarray):
            yield name, value


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("exact", [False, True])
def test_no_array_of_a_model_or_its_solution_can_be_written(game, exact):
    game = GAMES[game]()
    model = mdp.compile(game)
    solution = mdp.solve(model, exact=exact)
    subjects = [model, solution]
    if isinstance(model, mdp.Rounds):
        subjects = [model.round, solution.at(model.start) if hasattr(solution, "at") else solution]
    found = 0
    for subject in subjects:
        for name, array in _arrays(subject):
            found += 1
            assert not array.flags.writeable, f"{type(subject).__name__}.{name} is writable"
    assert found >= 5
