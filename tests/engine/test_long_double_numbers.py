"""A game's long double (``np.longdouble``: 64 bits of mantissa on x86-64, where a float has
53) is taken by the number it holds, at the one door of every number (mdp.engine.numeric.plain
and plain_array): a float where a float holds it (a float's probability, within a float's
tolerance), else exactly, a whole number or a fraction, as a Fraction the game gave would be
(an array all of them exactly where one is not a float). It was rounded to a float on the
way in: points of 3 * 2**60 + 1 made totals no play reaches (…929 for …930), and terminal
values 2**60 + 1 and 2**60 + 2 one outcome (P35-13)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from models import Table
from test_rounds_properties import card_game

import mdp
from mdp.engine.numeric import plain, plain_array

pytestmark = pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                                reason="this machine's long double is no wider than a float")


def _long(top, shift):
    """``top / 2**shift`` as a long double, made without a float on the way (exact)."""
    return np.array([top], dtype=np.int64).astype(np.longdouble)[0] / np.longdouble(2**shift)


@given(st.lists(st.tuples(st.integers(-(2**63) + 1, 2**63 - 1), st.integers(0, 40)),
                min_size=1, max_size=6))
def test_a_long_double_is_the_number_it_holds(pairs):
    longs = [_long(top, shift) for top, shift in pairs]
    held = [Fraction(top, 2**shift) for top, shift in pairs]
    floats = [float(h) == h for h in held]  # a float holds it: a float, as a game's float is
    assert [plain(x) for x in longs] == held
    assert [type(plain(x)) is float for x in longs] == floats
    array = plain_array(np.array(longs, dtype=np.longdouble)).tolist()
    assert array == held  # each exactly, or all floats where a float holds each
    assert [type(x) is float for x in array] == [all(floats)] * len(held)


def test_one_not_finite_or_past_a_float_stays_for_its_fault_to_be_said():
    # (test_longdouble_past_float.py: "is not finite", "is past what a float holds")
    odd = [np.longdouble("inf"), np.longdouble("-inf"), np.longdouble("nan"), np.longdouble("1e4000")]
    assert all(type(plain(x)) is np.longdouble for x in odd)
    assert all(type(x) is np.longdouble for x in plain_array(np.array(odd)).tolist())


BIG = 2**60


def test_points_as_long_doubles_make_the_totals_whole_numbers_make():
    # One box of a two-faced die, thrown once: BIG + 1 or 3 * BIG + 1, half each (by hand).
    spread = {}
    for kind in (int, np.longdouble):
        points = [[_long(BIG + 1, 0) if kind is np.longdouble else BIG + 1,
                   _long(3 * BIG + 1, 0) if kind is np.longdouble else 3 * BIG + 1]]
        solution = mdp.solve(mdp.compile(card_game(points, 2, 1)), exact=True)
        frame = mdp.distribution(solution)
        spread[kind] = sorted(zip(frame["points"].to_list(), frame["exact"].to_list()))
    assert spread[np.longdouble] == spread[int] == [(BIG + 1, "1/2"), (3 * BIG + 1, "1/2")]


def test_terminal_values_as_long_doubles_stay_apart():
    game = Table({"start": {"go": [(Fraction(1, 2), "one"), (Fraction(1, 2), "two")]}},
                 {"one": _long(BIG + 1, 0), "two": _long(BIG + 2, 0)})
    solution = mdp.solve(mdp.compile(mdp.load_game(game)), exact=True)
    assert solution.value == BIG + Fraction(3, 2)
    frame = mdp.distribution(solution)
    assert sorted(frame["value_exact"].to_list()) == [str(BIG + 1), str(BIG + 2)]
