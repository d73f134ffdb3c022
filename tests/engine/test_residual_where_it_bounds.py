"""``mdp.solve(..., residual=R)`` bounds the error of value iteration in floats: where there
is none to bound (an exact solve, a game whose states never come back, a game of rounds) it
is refused in one line, as ``--residual`` is, rather than dropped without a word (round 33,
U33-11). Left out, every solve is as before."""

from pathlib import Path

import pytest

import mdp

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


@pytest.mark.parametrize("game, exact, refused", [
    (("shutbox", {"tiles": "1-3"}), False, "game shutbox's states do not come back"),
    (("shutbox", {"tiles": "1-3"}), True, "exact=True solves by policy iteration"),
    ((TWO_BOXES, {}), False, "a game of rounds is solved in one pass of its rounds"),
    (("pig", {"goal": 5}), True, "exact=True solves by policy iteration"),
    (("pig", {"goal": 5}), False, None),
])
def test_a_residual_acts_where_there_is_an_error_to_bound(game, exact, refused):
    model = mdp.compile(mdp.load_game(game[0], **game[1]))
    if refused is None:
        loose, tight = mdp.solve(model, residual=1e-3), mdp.solve(model)
        assert loose.residual is not None and loose.value == pytest.approx(tight.value, abs=1e-2)
        return
    with pytest.raises(mdp.ParamError, match=rf"^mdp\.solve: residual=0\.001 bounds the error of value "
                                             rf"iteration in floats; {refused}"):
        mdp.solve(model, exact=exact, residual=1e-3)
    assert mdp.solve(model, exact=exact).value is not None  # left out: solved
