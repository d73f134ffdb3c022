"""mdp.solve_many: many sets of terminal values of one model, in one pass over the layers.

Each column must equal what mdp.solve gives for it alone, and the small models' columns the
values derived by hand in tests/models.py."""

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from models import gamble

import mdp


@pytest.fixture(scope="module")
def box():
    return mdp.compile(mdp.load_game("shutbox", tiles="1-5"))


def columns(model):
    """Win, minus the score, a threshold per score: sets of values with different policies."""
    score = model.terminals["open_sum"].to_numpy()
    return np.stack([score == 0, -score] + [score < t for t in range(1, 8)], axis=1).astype(np.int64)


@pytest.mark.parametrize("exact", [False, True])
def test_each_column_is_its_own_solve(box, exact):
    matrix = columns(box)
    many = mdp.solve_many(box, matrix, exact=exact, sense="max")
    alone = [mdp.solve(box, terminal=matrix[:, j], exact=exact, sense="max") for j in range(matrix.shape[1])]
    assert list(many.value) == [s.value for s in alone]
    assert many.n_columns == matrix.shape[1]
    np.testing.assert_array_equal(many.values, np.stack([s.values for s in alone], axis=1))
    column = many.column(3)
    assert column.value == alone[3].value
    assert column.action_values().optimal.tolist() == alone[3].action_values().optimal.tolist()


def test_hand_derived_fractions_and_other_inputs():
    model = mdp.compile(mdp.load_game(gamble()))
    # Rows of model.terminals: win, lose, three fifths, quarter (in some order): by name.
    names = model.terminals["state"].to_list()
    values = {"win": 1, "lose": 0, "three fifths": Fraction(3, 5), "quarter": Fraction(1, 4)}
    game_values = [values[n] for n in names]
    doubled = [2 * v for v in game_values]
    # By hand (tests/models.py): 2/3. Doubled: 4/3. Win only pays: risky, 1/3 + 2/3 * 1/2.
    win_only = [int(n == "win") for n in names]
    many = mdp.solve_many(model, [game_values, doubled, win_only], exact=True)
    assert many.value == [Fraction(2, 3), Fraction(4, 3), Fraction(2, 3)]
    frame = pl.DataFrame({"a": [float(v) for v in game_values], "b": [float(v) for v in doubled]})
    assert mdp.solve_many(model, frame).value == pytest.approx([2 / 3, 4 / 3])
    assert mdp.solve_many(model, np.array([game_values], dtype=object).T, exact=True).value == [Fraction(2, 3)]


def test_bad_matrices_refused(box):
    with pytest.raises(mdp.ParamError, match="one row per terminal state"):
        mdp.solve_many(box, np.zeros((3, 2)))
    bad = columns(box).astype(np.float64)
    bad[0, 1] = np.nan
    with pytest.raises(mdp.ParamError, match="not finite"):
        mdp.solve_many(box, bad)
    with pytest.raises(mdp.ParamError, match="is a float"):
        mdp.solve_many(box, columns(box) * 0.5, exact=True)


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("empty", ["array", "objects", "frame", "list"])
def test_a_matrix_of_no_columns_is_refused_before_the_work(box, exact, empty):
    """Every form a matrix takes, with no set of values in it: one ParamError naming the
    argument (a sweep over no columns once ended in an IndexError)."""
    rows = box.terminals.height
    matrix = {"array": np.zeros((rows, 0)), "objects": np.zeros((rows, 0), dtype=object),
              "frame": pl.DataFrame(), "list": []}[empty]
    with pytest.raises(mdp.ParamError, match="terminals is .*at least one"):
        mdp.solve_many(box, matrix, exact=exact)
