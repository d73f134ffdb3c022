"""A parameter's values given from Python in any container that holds them by position (a
list, a tuple, a numpy array, a Polars Series, a generator) are the same rules (round 24: a
numpy array of weights, boxes, a payout table or a dice schedule was numpy's "truth value of
an array is ambiguous" from mdp's own code, a Polars Series Polars' error, and a generator
of weights, used up by the first of the parser's two readings, "sums to 0"). A set, which
holds no order, is refused."""

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import mdp

GIVEN = [  # (game, other parameters, the parameter, its values as a list)
    ("shutbox", {}, "weights", [Fraction(1, 6)] * 6),
    ("shutbox", {}, "tiles", [1, 2, 3, 5]),
    ("shutbox", {"scoring": "payout"}, "payout", [[0, 0, 100], [1, 45, 0]]),
    ("shutbox", {}, "dice_schedule", [[0, 10, 2], [11, 45, 1]]),
    ("yahtzee", {"card": "yatzy"}, "boxes", ["ones", "chance"]),
    ("yahtzee", {}, "weights", [Fraction(1, 4), Fraction(1, 4)] + [Fraction(1, 8)] * 4),
]
CONTAINERS = {
    "tuple": tuple,
    "numpy": lambda values: np.array(values, dtype=object if isinstance(values[0], Fraction) else None),
    "polars": lambda values: pl.Series(values, dtype=pl.Object) if isinstance(values[0], (Fraction, list))
    else pl.Series(values),
    "generator": lambda values: (v for v in values),
}


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("game, others, name, values", GIVEN, ids=[f"{g}-{n}" for g, _, n, _ in GIVEN])
def test_values_in_any_container_are_the_rules_of_their_list(game, others, name, values, container):
    listed = mdp.load_game(game, **others, **{name: values})
    given = mdp.load_game(game, **others, **{name: CONTAINERS[container](values)})
    assert given.shown_params() == listed.shown_params()


@pytest.mark.parametrize("unordered", [set, frozenset])
@pytest.mark.parametrize("game, others, name, values", GIVEN, ids=[f"{g}-{n}" for g, _, n, _ in GIVEN])
def test_values_in_a_container_of_no_order_are_refused(game, others, name, values, unordered):
    """Round 25: weights given as a set were read in the set's own order (face 3 got face
    5's chance, another game solved, exit 0)."""
    try:
        given = unordered(values)
    except TypeError:  # lists of lists: no set holds them
        return
    with pytest.raises(mdp.ParamError, match=f"^parameter {name}=.*: a {unordered.__name__}, which "
                       "holds no order; give the values in order"):
        mdp.load_game(game, **others, **{name: given})


@pytest.mark.parametrize("call, said", [
    (lambda game: mdp.compile(game, max_states=np.array([100])),
     "mdp.compile: max_states is a numpy array of int64 [100]; expected a whole number of 1 or more"),
    (lambda game: mdp.solve(mdp.compile(game), exact=np.True_),
     "mdp.solve: exact is a numpy.bool; expected True or False"),
    (lambda game: mdp.simulate(mdp.solve(mdp.compile(game)), game, games=np.array([5])),
     "mdp.simulate: games is a numpy array of int64 [5]; expected a whole number of 1 or more"),
])
def test_an_array_where_one_number_is_asked_is_one_line(call, said):
    # Before: numpy's TypeError "only integer scalar arrays can be converted to a scalar
    # index" from mdp's own check, and numpy's bool called "a bool".
    with pytest.raises(mdp.ParamError) as error:
        call(mdp.load_game("shutbox", tiles="1-3"))
    assert str(error.value).startswith(said)
