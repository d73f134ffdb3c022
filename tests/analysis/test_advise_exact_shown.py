"""`mdp advise --exact` shows each value and regret from the fractions: one that no float holds
by its size (not 0 but below about 2.2e-308) by that size, never as the
float's 0 (U35-7, U35-8: a best value of 2e-400 read 0.0000000000, and a losing action's regret
0.0000000000 though it was not optimal). A value or regret reads 0 exactly where it is 0."""

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

GAME = '''from fractions import Fraction
import mdp

WORTH = {worth!r}


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return list(WORTH) if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, action)]


@mdp.hookimpl
def mdp_terminal_value(state):
    return Fraction(WORTH[state])


@mdp.hookimpl
def mdp_state_columns(state):
    return {{"at": state}}
'''

WORTHS = st.builds(lambda top, down: Fraction(top, 10**down), st.integers(0, 999),
                   st.sampled_from([0, 1, 300, 310, 400, 1000]))
ZERO = re.compile(r"^-?0\.0+$")


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), WORTHS, min_size=2, max_size=3).map(
    lambda d: {k: str(v) for k, v in d.items()}))
def test_a_value_or_regret_reads_0_exactly_where_it_is(tmp_path_factory, capsys, worth):
    game = tmp_path_factory.mktemp("g") / "tiny.py"
    game.write_text(GAME.format(worth=worth), encoding="utf-8")
    assert main(["advise", str(game), "at=start", "--exact"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[-len(worth):]]
    best = max(map(Fraction, worth.values()))
    for action, value, regret, *mark in rows:
        exact = Fraction(worth[action])
        assert bool(ZERO.match(value)) == (exact == 0), (action, value, exact)
        assert bool(ZERO.match(regret)) == (exact == best), (action, regret, best - exact)
        assert (mark == ["optimal"]) == (exact == best)
        if 0 < exact < Fraction(22, 10**309):  # by its size: three digits at most, its exponent
            mantissa, exponent = re.fullmatch(r"(\d(?:\.\d+)?)e-(\d+)", value).groups()
            shown = Fraction(mantissa) / 10**int(exponent)
            assert abs(shown - exact) <= exact / 200, (value, exact)


def test_strategies_show_their_exact_values_by_size_too(tmp_path, capsys):
    # Worth 1e-400 or 0: the best play 1e-400 (by hand), where floats hold 0.
    game = tmp_path / "tiny.py"
    game.write_text(GAME.format(worth={"a": f"1/{10**400}", "b": "0"}), encoding="utf-8")
    assert main(["strategies", str(game), "--exact"]) == 0
    shown = {line.split()[0]: line.split()[1] for line in capsys.readouterr().out.splitlines()[1:]}
    assert shown["optimal"] == "1e-400"
