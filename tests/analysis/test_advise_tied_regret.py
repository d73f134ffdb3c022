"""An action that ties with the best (marked optimal: within the floats' tie, 1e-12 of the
best's size) shows a regret of 0 in `mdp advise` and on the report's page alike: what floats
give there is their rounding, which ten digits in scientific notation made read as a loss
(U35-1: two boxes worth exactly the same, one "6.938893904e-17" behind). The table and JSON
keep the float as it came; an action past the tie still shows its regret, never 0."""

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

GAME = '''
import mdp
from fractions import Fraction

VALUES = [Fraction(v) for v in {values!r}]
MEAN = sum(VALUES) / len(VALUES)


@mdp.hookimpl
def mdp_initial_state():
    return ("start",)


@mdp.hookimpl
def mdp_actions(state):
    return ["spread", "sure", "worse"] if state == ("start",) else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "spread":  # each value alike: worth their mean, exactly as "sure" is
        return [(Fraction(1, len(VALUES)), ("value", i)) for i in range(len(VALUES))]
    return [(1, (action,))]


@mdp.hookimpl
def mdp_terminal_value(state):
    if state[0] == "value":
        return VALUES[state[1]]
    return MEAN if state == ("sure",) else MEAN - 1


@mdp.hookimpl
def mdp_state_columns(state):
    return {{"at": state[0]}}
'''

FRACTIONS = st.fractions(min_value=-10, max_value=10, max_denominator=20).map(str)


def _advise(tmp_path, capsys, values, *more):
    game = tmp_path / "tie.py"
    game.write_text(GAME.format(values=values), encoding="utf-8")
    assert main(["advise", str(game), "at=start", *more]) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FRACTIONS, min_size=2, max_size=7))
@example(["1/10", "2/10", "3/10"])  # the floats' mean of these is 2.8e-17 below 1/5
def test_a_tie_reads_0_and_a_loss_does_not(tmp_path_factory, capsys, values):
    folder = tmp_path_factory.mktemp("g")
    rows = {line.split()[0]: line.split()[1:] for line in
            _advise(folder, capsys, values).splitlines()[-3:]}
    assert rows["spread"][1:] == ["0.0000000000", "optimal"]
    assert rows["sure"][1:] == ["0.0000000000", "optimal"]
    assert rows["worse"][2:] == [] and abs(float(rows["worse"][1]) - 1) < 1e-9
    kept = json.loads(_advise(folder, capsys, values, "--json"))["actions"]
    best = max(a["value"] for a in kept)  # the JSON keeps each regret as the floats give it
    assert all(a["regret"] == best - a["value"] for a in kept), kept
