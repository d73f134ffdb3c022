"""A strategy of a game whose states come back is valued to the residual it promises
(1e-12, docs/cli.rst): value iteration stops on the error still left (the rest of the
geometric series), each layer to its share, not on the last change (Pig to 30, hold-at-20,
was 7e-12 off). Against an exact solve of the same chain in rationals, written here."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from models import Table

import mdp


def exact_values(stay, win):
    """The chance of a win from each state of a ring: state i goes on to i + 1 with chance
    ``stay[i]``, wins with ``win[i]``, loses otherwise; Gaussian elimination in rationals."""
    n = len(stay)
    rows = [[Fraction(int(i == j)) - (stay[i] if j == (i + 1) % n else 0) for j in range(n)] + [win[i]]
            for i in range(n)]
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c])
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(n):
            if r != c and rows[r][c]:
                f = rows[r][c] / rows[c][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def ring(stay, win):
    n = len(stay)
    table = {i: {"go": [(stay[i], (i + 1) % n), (win[i], "won"), (1 - stay[i] - win[i], "lost")]}
             for i in range(n)}
    game = Table(table, {"won": 1, "lost": 0}, initial=0)

    @mdp.hookimpl
    def mdp_strategies():
        return [mdp.Strategy("go", "always go", lambda game, model: np.ones(model.n_actions, dtype=np.int64))]

    game.mdp_strategies = mdp_strategies
    return mdp.load_game(game)


SLOW = st.integers(900, 999).map(lambda k: Fraction(k, 1000))  # chains that end slowly


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(SLOW, st.integers(0, 10)), min_size=1, max_size=6))
# Drawn: stopped at the values' rounding (8 units in the last place), 1.1e-12 off.
@example([(Fraction(999, 1000), 0), (Fraction(999, 1000), 1), (Fraction(999, 1000), 1)])
@pytest.mark.slow  # half a second or more of CPU
def test_a_strategy_of_a_slow_chain_is_valued_to_the_residual(chain):
    stay = [s for s, _ in chain]
    win = [(1 - s) * w / 10 for s, w in chain]
    game = ring(stay, win)
    model = mdp.compile(game)
    value = mdp.evaluate(model, "go", game=game).value
    expected = exact_values(stay, win)[0]
    assert abs(Fraction(value) - expected) <= Fraction(1, 10**12)
