"""Exact terminal values whose denominators are past what a float holds (1/10**309 and
smaller) are solved exactly: the exact solve carries any fraction, and the float shown beside
it is the fraction's own float (Python's correctly rounded one), 0 where it underflows."""

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp

TINY = st.builds(Fraction, st.integers(0, 10**6), st.integers(300, 420).map(lambda k: 10**k))


@settings(max_examples=30, deadline=None)
@given(won=TINY, lost=TINY, walked=TINY)
def test_tiny_fractions_solve_exactly(won, lost, walked):
    game = mdp.load_game(Table({"start": {"flip": [(Fraction(1, 2), "won"), (Fraction(1, 2), "lost")],
                                          "stay": [(1, "walked")]}},
                               {"won": won, "lost": lost, "walked": walked}))
    solution = mdp.solve(mdp.compile(game), exact=True)
    best = max((won + lost) / 2, walked)  # by hand: the better of the two actions
    assert solution.value == best
    shown = solution.values[solution.model.initial]
    assert math.isclose(shown, float(best), rel_tol=1e-12, abs_tol=1e-322)
    table = mdp.policy(solution, game)
    assert sorted(table["value_exact"].to_list()) == sorted(map(str, [(won + lost) / 2, walked]))
