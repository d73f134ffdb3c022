"""A decimal.Decimal is a number, but not one mdp computes with (neither exact, as a Fraction
is, nor a float): wherever a number enters (terminal values, the columns of solve_many, a
policy's weights, a game's values and chances) it is refused in one line that says it is a
Decimal and what to give instead, never "is not a number" (round 28, U28-7)."""

import re
from decimal import Decimal

import polars as pl
import pytest
from models import Table

import mdp

SAID = re.escape("is a decimal.Decimal, which mdp does not compute with: give Fraction(value)")


@pytest.fixture(scope="module")
def box():
    return mdp.compile(mdp.load_game("shutbox", tiles="1-3"))


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("door", ["terminal", "polars", "solve_many", "weights"])
def test_a_decimal_from_the_caller_is_said_to_be_one(box, exact, door):
    decimals = [Decimal(v) / 10 for v in box.terminals["open_sum"].to_list()]
    with pytest.raises(mdp.MdpError, match=SAID):
        if door == "terminal":
            mdp.solve(box, terminal=decimals, exact=exact)
        elif door == "polars":
            mdp.solve(box, terminal=pl.Series(decimals, dtype=pl.Decimal(10, 2)), exact=exact)
        elif door == "solve_many":
            mdp.solve_many(box, [decimals], exact=exact)
        else:
            mdp.evaluate(box, [Decimal(1)] * box.n_actions, exact=exact)


@pytest.mark.parametrize("where", ["value", "chance"])
def test_a_decimal_from_a_game_is_said_to_be_one(where):
    chance = Decimal("0.5") if where == "chance" else 0.5
    value = Decimal("2.5") if where == "value" else 2
    game = Table({"start": {"a": [(chance, "x"), (1 - chance, "y")]}}, {"x": value, "y": 0})
    with pytest.raises(mdp.ModelError, match=SAID):
        mdp.solve(mdp.compile(mdp.load_game(game)))
