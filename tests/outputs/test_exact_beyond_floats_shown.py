"""An exact value that no float holds by its size is shown to people by its size, never as
the float's 0, and a chance of one by ``< 0.0001%``, a running sum short of 1 by
``> 99.9999%``, from the fractions (round 18, R18-N4 and P10: ``0.0000%`` and ``100.0000%``
in distribution and lengths --exact; ``value 0`` for two outcomes of distinct exact values).
By hand: a table of one chance action to two ends, ``tiny`` and ``1 - tiny``, worth ``tiny``
and 0."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp
from mdp.outputs.readable import chances_shown, exactly, readable_table


def _solution(tiny):
    game = mdp.load_game(Table({"start": {"go": [(tiny, "won"), (1 - tiny, "lost")]}},
                               {"won": tiny, "lost": 0}))
    return game, mdp.solve(mdp.compile(game), exact=True)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 99), st.integers(310, 600))
def test_a_tiny_exact_chance_and_value_are_shown_by_their_size(top, digits):
    tiny = Fraction(top, 10**digits)
    game, solution = _solution(tiny)
    frame = mdp.distribution(solution, game)
    shown = chances_shown(frame)
    by_value = {e: s for e, s in zip(frame["value_exact"].to_list(), shown)}
    assert by_value[str(tiny)][0].strip() == "< 0.0001%"
    assert by_value["0"][0].strip() == "> 99.9999%"  # 1 - tiny
    assert shown[-1][1].strip() == "100.0000%" and shown[0][1].strip() == "> 99.9999%"
    # top / 10**digits to three digits (top has at most two), by hand: 70 -> 7e-309
    places = len(str(top)) - 1
    size = f"{top / 10**places:g}e-{digits - places}"
    assert exactly(0.0, str(tiny)) == size and exactly(-0.0, str(-tiny)) == "-" + size
    people = readable_table(frame)
    assert sorted(people["value"].to_list()) == sorted(["0", size])


@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_a_float_that_holds_its_value_is_shown_as_readable_shows_it(value):
    from mdp.shown import readable

    assert exactly(value, str(Fraction(value))) == readable(value)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 99), st.integers(310, 600))
def test_a_chance_beside_its_column_exact_is_shown_by_its_size(top, digits):
    # Round 19: the chance of distribution, lengths (probability) and the value of strategies
    # and --vary rows (value), each beside a column "exact", were shown 0 in Markdown, where
    # value beside value_exact was shown by its size: one rule for both.
    tiny = Fraction(top, 10**digits)
    game, solution = _solution(tiny)
    frame = mdp.distribution(solution, game)
    assert frame.columns.index("exact") == frame.columns.index("probability") + 1
    places = len(str(top)) - 1
    size = f"{top / 10**places:g}e-{digits - places}"
    people = readable_table(frame)
    # tiny, and 1 - tiny (the float 1), by hand
    assert sorted(people["probability"].to_list()) == sorted([size, "1"])
