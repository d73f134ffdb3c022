"""How long games last (mdp.lengths): each test against a distribution derived by hand, or
an independent count."""

from fractions import Fraction

import pytest
from models import Table

import mdp

SIXTH = Fraction(1, 6)


def until_a_six():
    """Roll a die until a 6 shows: the game's length in rolls is geometric, P(k) =
    (5/6)**(k - 1) / 6, its mean 6."""
    return Table({"start": {"roll": [(SIXTH, "six"), (1 - SIXTH, "start")]}}, {"six": 1})


def test_rolling_until_a_six_lasts_a_geometric_number_of_rolls():
    model = mdp.compile(mdp.load_game(until_a_six()))
    exact = mdp.lengths(mdp.solve(model, exact=True), up_to=30)
    assert exact.table["moves"].to_list() == list(range(1, 31))
    assert [Fraction(p) for p in exact.table["exact"]] == \
        [(1 - SIXTH) ** (k - 1) * SIXTH for k in range(1, 31)]
    assert exact.beyond == (1 - SIXTH) ** 30  # 30 rolls without a six
    assert exact.mean == 6  # by the expected visits, not by the lengths counted
    floats = mdp.lengths(mdp.solve(model))  # until less than 1e-9 of the games go on
    assert floats.beyond <= 1e-9 < floats.beyond / (1 - float(SIXTH))
    last = floats.table["moves"].max()
    assert floats.beyond == pytest.approx((5 / 6) ** last, rel=1e-9)
    assert floats.table["probability"].to_list() == pytest.approx(
        [(5 / 6) ** (k - 1) / 6 for k in range(1, last + 1)], rel=1e-12)
    assert floats.mean == pytest.approx(6, rel=1e-12)


def test_shut_the_box_lasts_no_longer_than_its_tiles_allow():
    # Each turn is a roll and a shut of one tile or more, and the game ends when no shut is
    # possible: at most two moves a tile. Exact: the chances add up to 1, and the mean of
    # the expected visits is the mean of the lengths.
    for tiles, dice in (("1-4", 1), ("1-6", 2)):
        game = mdp.load_game("shutbox", tiles=tiles, dice=dice)
        found = mdp.lengths(mdp.solve(mdp.compile(game), exact=True))
        chances = {k: Fraction(p) for k, p in zip(found.table["moves"], found.table["exact"])}
        assert max(chances) <= 2 * int(tiles[-1])
        assert sum(chances.values()) == 1 and found.beyond == 0
        assert found.mean == sum(k * p for k, p in chances.items())


def test_a_game_over_before_it_starts_lasts_no_move():
    found = mdp.lengths(mdp.solve(mdp.compile(mdp.load_game(Table({}, {"start": 3})))))
    assert found.table["moves"].to_list() == [0] and found.mean == 0


def test_what_cannot_be_counted_is_refused():
    model = mdp.compile(mdp.load_game(until_a_six()))
    with pytest.raises(mdp.ParamError, match="count them exactly up to a length"):
        mdp.lengths(mdp.solve(model, exact=True))
    with pytest.raises(mdp.ParamError, match="played by one player, whose every move is a turn"):
        mdp.lengths(mdp.solve(model), count="turns")
    with pytest.raises(mdp.ParamError, match="count"):
        mdp.lengths(mdp.solve(model), count="rolls")
