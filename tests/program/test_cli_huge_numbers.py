"""Exact numbers past what a float holds (a total of three rounds of 10**308, points of
10**200 whose spread's square is past a float, one model's values of 10**300): every exact
command shows them (inf, or null in JSON, in a float column, the exact number beside) and
writes every file asked for, with no traceback; simulating games whose results fit a float
gives their mean and spread, where a square of them would not fit."""

import json
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from models import COIN_ROUNDS

from mdp.program.cli import main

ONE_MODEL = '''
from fractions import Fraction
import mdp

@mdp.hookimpl
def mdp_initial_state():
    return "s"

@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state == "s" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction({heads}), "up"), (1 - Fraction({heads}), "down")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {{"up": {up}, "down": {down}}}[state]
'''

# The same with a choice: a sure "up" or "down" beside the coin, so that the regret of one
# against the other is up less down (past a float where the two are near its top).
CHOICES = ONE_MODEL.replace('["go"]', '["go", "up", "down"]').replace(
    "    return [(Fraction(", '    if action != "go":\n        return [(1, action)]\n    return [(Fraction(')

huge = st.builds(lambda sign, digits, lead: sign * lead * 10 ** digits,
                 st.sampled_from([1, -1]), st.integers(150, 308), st.integers(1, 9))
chance = st.sampled_from(["1/2", "1/3", "2/5", "1/7"])


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 0, err
    return out


def exact_commands(game, tmp_path, capsys, rounds):
    run(["solve", game, "--exact"], capsys)
    summary = json.loads(run(["solve", game, "--exact", "--json"], capsys))
    assert summary["value"] is None or abs(summary["value"]) < float("inf")
    policy = tmp_path / "policy.csv"
    run(["policy", game, "--exact", "--out", str(policy)], capsys)
    assert policy.exists()
    run(["policy", game, "--exact"], capsys)
    # The float beside the exact value as the solve line shows it (5e+199), not 200 digits
    # of a float's noise with ten decimals.
    for argv in (["strategies", game, "--exact"],
                 ["advise", game, *(["round_state=0", "state=start"] if rounds else ["state=s"]),
                  "--exact"]):
        assert not re.search(r"\d{30,}\.\d", run(argv, capsys))
    json.loads(run(["distribution", game, "--exact", "--json"], capsys))
    picture = tmp_path / "picture.svg"
    run(["distribution", game, "--exact", "--plot", str(picture)], capsys)
    assert picture.exists()


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.integers(0, 3), up=huge, down=st.one_of(huge, st.integers(-5, 5)), heads=chance)
@example(rounds=2, up=10 ** 308, down=0, heads="1/2")  # totals within a float, drawn: overflowed
@example(rounds=2, up=2 * 10 ** 308, down=0, heads="1/2")  # drawn: points past a float
# two values whose difference is past a float: exact solving overflowed in its float guide
@example(rounds=0, up=9 * 10 ** 307, down=-9 * 10 ** 307, heads="1/2")
def test_every_exact_command_of_huge_points_or_values(rounds, up, down, heads, tmp_path, capsys):
    """A game of 1 to 3 rounds of huge points (each within a float, as points must be; their
    totals may pass a float), or one model (``rounds`` 0) of huge values (each within a
    float, as one model's values must be)."""
    game = tmp_path / "huge.py"
    # Each number within a float (points past one are refused where the rule's answer
    # enters: tests/engine/test_rounds_properties.py); the totals of rounds may pass it.
    up, down = (v if abs(v) < 10 ** 308 else v // 10 for v in (up, down))
    if rounds:
        game.write_text(COIN_ROUNDS.format(up=up, down=down, heads=heads, rounds=rounds))
    else:
        game.write_text(CHOICES.format(up=up, down=down, heads=heads))
    exact_commands(str(game), tmp_path, capsys, rounds=bool(rounds))


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(up=st.integers(250, 307), heads=chance)
def test_simulated_games_of_huge_results_have_their_mean_and_spread(up, heads, tmp_path, capsys):
    """Games at 10**up or -10**up: a square of the spread passes a float, the mean and
    spread themselves do not."""
    _simulated(up, heads, tmp_path, capsys)


def test_simulated_games_of_results_of_1e300_have_their_spread(tmp_path, capsys):
    # Before: "overflow encountered in square ... solve exactly", which simulate cannot.
    _simulated(300, "1/2", tmp_path, capsys)


def _simulated(up, heads, tmp_path, capsys):
    game = tmp_path / "huge_simulated.py"
    game.write_text(ONE_MODEL.format(up=10 ** up, down=-10 ** up, heads=heads))
    found = json.loads(run(["simulate", str(game), "--games", "40", "--seed", "1", "--json"],
                           capsys))
    ups = round((found["mean"] / 10 ** up + 1) / 2 * 40)  # games that went up
    assert found["mean"] == pytest.approx((2 * ups - 40) / 40 * 10 ** up, rel=1e-9)
    expected_sd = (sum((x - Fraction(2 * ups - 40, 40)) ** 2 for x in [1] * ups + [-1] * (40 - ups))
                   / 39) ** 0.5 * 10 ** up
    assert found["sd"] == pytest.approx(float(expected_sd), rel=1e-9)
