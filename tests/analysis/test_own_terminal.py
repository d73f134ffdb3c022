"""A solution solved with terminal values of its own (``terminal=``) is not of the game's
objective: it says so (its summary, its value line), and everything that reads it uses its
terminal values and its sense (the strategies it is compared with, the games it plays), or
refuses it (the report, a page on the game's objective). Cases are generated: terminal
values as a function of the outcome, either sense."""

import functools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.engine.terminal import OWN_TERMINAL
from mdp.outputs.readable import value_line

GAME = mdp.load_game("shutbox", tiles="1-4")
MODEL = mdp.compile(GAME)
OPEN_SUMS = sorted(set(MODEL.terminals["open_sum"].to_list()))

# Terminal values: a whole number for each sum of the tiles left open, so that what a game
# ended at says what it is worth.
worths = st.lists(st.integers(-5, 9), min_size=len(OPEN_SUMS), max_size=len(OPEN_SUMS)).map(
    lambda values: dict(zip(OPEN_SUMS, values)))


def _terminal(worth):
    return [worth[o] for o in MODEL.terminals["open_sum"].to_list()]


def _is_games(worth):
    return _terminal(worth) == [int(v) for v in MODEL.terminal_values]


@settings(max_examples=25, deadline=None)
@given(worth=worths, sense=st.sampled_from(["max", "min"]))
def test_it_says_its_objective_is_not_the_games(worth, sense):
    solution = mdp.solve(MODEL, terminal=_terminal(worth), sense=sense, exact=True)
    mine = not _is_games(worth)
    assert (solution.terminal is not None) == mine
    name = OWN_TERMINAL if mine else "chance of shutting the box"
    assert solution.summary()["objective"] == name
    assert solution.objective.probability == (not mine)
    assert value_line(solution).startswith(name)
    assert "%" not in value_line(solution) or not mine  # no chance over 100%


@functools.cache  # the same for every case: solved once a strategy
def _ends(strategy):
    """The chance that ``strategy`` ends the game at each terminal state, each solved alone
    as a 0/1 value."""
    chance = mdp.evaluate(MODEL, strategy, game=GAME, exact=True)
    return [mdp.evaluate(MODEL, chance.policy, exact=True,
                         terminal=[int(i == j) for j in range(MODEL.n_terminal)]).value
            for i in range(MODEL.n_terminal)]


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(worth=worths, sense=st.sampled_from(["max", "min"]))
def test_strategies_are_valued_on_its_terminal_values(worth, sense):
    terminal = _terminal(worth)
    optimal = mdp.solve(MODEL, terminal=terminal, sense=sense, exact=True)
    table = mdp.strategy_values(MODEL, GAME, exact=True, optimal=optimal)
    # Independently: a strategy's value is the sum over terminal states of the chance it
    # ends there (each solved alone, as a 0/1 value) times the worth there.
    sign = 1 if sense == "max" else -1
    for row in table.iter_rows(named=True):
        if row["strategy"] == "optimal":
            assert Fraction(row["exact"]) == optimal.value
            continue
        value = sum((e * t for e, t in zip(_ends(row["strategy"]), terminal)), Fraction(0))
        assert Fraction(row["exact"]) == value
        assert row["regret"] == float(sign * (optimal.value - value))
        assert row["regret"] >= 0  # the optimum is optimal for what it was solved on


@settings(max_examples=15, deadline=None)
@given(worth=worths, sense=st.sampled_from(["max", "min"]), seed=st.integers(0, 2**32))
def test_games_played_are_worth_its_terminal_values(worth, sense, seed):
    solution = mdp.solve(MODEL, terminal=_terminal(worth), sense=sense)
    games = 500
    result = mdp.simulate(solution, GAME, games=games, seed=seed)
    by_sum = result.outcomes.group_by("open_sum").agg(pl.col("games").sum())
    expected = sum(worth[o] * n for o, n in by_sum.iter_rows()) / games
    assert result.mean == pytest.approx(expected, abs=1e-12)
    assert result.low <= result.mean <= result.high


def test_the_report_refuses_it_and_takes_the_games_own():
    own = mdp.solve(MODEL, terminal=MODEL.terminals["open_sum"], sense="min")
    with pytest.raises(mdp.ParamError, match="terminal values of its own"):
        mdp.report(own, GAME)
    games = mdp.solve(MODEL, terminal=np.asarray(MODEL.terminal_values))  # the game's, given
    assert games.terminal is None
    assert "chance of shutting the box" in mdp.report(games, GAME)


def test_each_column_of_many_carries_its_terminal_values():
    win = np.asarray(MODEL.terminal_values, dtype=np.int64)
    left = MODEL.terminals["open_sum"].to_numpy()
    both = mdp.solve_many(MODEL, np.stack([win, left], axis=1), exact=True)
    assert both.column(0).objective.name == "chance of shutting the box"
    assert both.column(1).objective.name == OWN_TERMINAL
    assert list(both.column(1).terminal) == left.tolist()
