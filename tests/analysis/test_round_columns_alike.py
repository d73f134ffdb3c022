"""Round columns that name two round states alike (the game's mistake): every command that
shows round states refuses it, whichever round states it happens to show (games played at
random end where they will), with the one line of the check of round columns; the commands
that show none (the value, the chance of each total, the best chances of totals, the
strategies, the match) answer. Generated: the game of rounds of
test_rounds_ends_by_chance, with round columns that tell apart its round states or not."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_rounds_ends_by_chance import push_your_luck

import mdp


def played(states):
    """Only the rounds played: a round state after a bust and one after none alike."""
    return {"played": (np.asarray(states) // 2).tolist()}


def apart(states):
    return {**played(states), "bust": (np.asarray(states) % 2 == 1).tolist()}


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.tuples(st.integers(2, 4), st.integers(0, 1), st.integers(1, 3)),
       alike=st.booleans(), games=st.integers(1, 50), seed=st.integers(0, 2**32 - 1))
def test_commands_that_show_round_states_give_one_verdict(rules, alike, games, seed):
    game = push_your_luck(*rules, bust=0, passed=0, barred=set(), named=played if alike else apart)
    model = mdp.compile(game)
    solution = mdp.solve(model)
    # Round states 2 and 3 (after one round, bust or not) are both reached.
    showing = [
        lambda: mdp.simulate(solution, game, games=games, seed=seed),
        lambda: mdp.policy(solution, game),
        lambda: mdp.policy(solution, game, within="all"),
        lambda: mdp.advise(solution, game, played=0, state=("throw", rules[1])),
    ]
    for show in showing:
        if alike:
            with pytest.raises(mdp.ModelError, match=r"^game luck: mdp_round_columns gives "
                               r"round states 2 and 3 the same columns \(played=1\); the "
                               "columns of a round state name it"):
                show()
        else:
            show()
    mdp.distribution(solution, game)
    mdp.at_least(model).chance(1)
    mdp.strategy_values(model, game)
    mdp.match(model, game)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.floats(1e-300, 1e300), sign=st.sampled_from([1, -1]), up=st.booleans())
def test_floats_that_differ_but_show_alike_are_refused_as_named_alike(base, sign, up):
    # Round states 2 and 3 get a float of 15 digits and the next float: different values
    # that a table shows alike (15 significant digits: the next float is within 1.5 units
    # of the 17th digit of the decimal, never half a unit of the 15th away), so that
    # neither could be named by what it shows.
    base = float(f"{sign * base:.15g}")
    other = float(np.nextafter(base, np.inf if up else -np.inf))
    assert other != base and f"{other:.15g}" == f"{base:.15g}"
    assume(base not in {k + 0.5 for k in range(10)})  # the other round states' own columns

    def close(states):
        states = np.asarray(states)
        return {"ratio": np.where(states == 3, other, np.where(states == 2, base, states + 0.5)).tolist()}

    game = push_your_luck(3, 0, 2, bust=0, passed=0, barred=set(), named=close)
    solution = mdp.solve(mdp.compile(game))
    for show in (lambda: mdp.policy(solution, game),
                 lambda: mdp.simulate(solution, game, games=3, seed=1)):
        with pytest.raises(mdp.ModelError, match=r"^game luck: mdp_round_columns gives round "
                           r"states 2 and 3 (the same columns|columns that tables show alike)"):
            show()
    # Apart in their first 15 digits, the same columns are shown apart, and accepted.
    wide = push_your_luck(3, 0, 2, bust=0, passed=0, barred=set(), named=lambda states: {
        "ratio": [0.3 if k == 3 else 0.1 * 3 + 1e-9 if k == 2 else k + 0.5 for k in np.asarray(states).tolist()]})
    mdp.policy(mdp.solve(mdp.compile(wide)), wide)
