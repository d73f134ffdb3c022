"""An outcome given as (next state, probability), the pair swapped, is blamed on
mdp_outcomes and its probability, before the next state meets any other hook (round 19,
F13: "mdp_actions raised TypeError ... (state Fraction(1, 6))", the probability explored
as a state, or a state column blamed for holding it)."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

NUMBER = itertools.count()
GAME = '''from fractions import Fraction
import mdp

GAME_NAME = "swapped"
LENGTH, SWAP, MAKE = {length!r}, {swap!r}, {make}


@mdp.hookimpl
def mdp_initial_state(params):
    return MAKE(0)


@mdp.hookimpl
def mdp_actions(params, state):
    return ["go"] if state != MAKE(LENGTH) else []


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    n = int(str(state).strip("(),'s"))
    pairs = [(Fraction(1, 2), MAKE(n + 1)), (Fraction(1, 2), MAKE(LENGTH))]
    return [(b, a) for a, b in pairs] if n == SWAP else pairs


@mdp.hookimpl
def mdp_terminal_value(params, state):
    return 1
{columns}'''
COLUMNS = '''

@mdp.hookimpl
def mdp_state_columns(params, state):
    return {"where": str(state)}
'''
MAKES = {"tuple": ("lambda n: (n,)", lambda n: (n,)), "text": ("lambda n: f's{n}'", lambda n: f"s{n}")}


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(length=st.integers(2, 5), data=st.data(), make=st.sampled_from(sorted(MAKES)), columns=st.booleans(),
       command=st.sampled_from(["solve", "policy"]))
def test_a_swapped_outcome_is_blamed_on_mdp_outcomes(tmp_path_factory, capsys, length, data, make, columns,
                                                     command):
    swap = data.draw(st.integers(0, length - 1))
    where = tmp_path_factory.mktemp("swapped")
    game = where / f"swapped{next(NUMBER)}.py"
    game.write_text(GAME.format(length=length, swap=swap, make=MAKES[make][0], columns=COLUMNS if columns else ""))
    assert main([command, str(game)]) == 2
    err = capsys.readouterr().err
    state, first = MAKES[make][1](swap), MAKES[make][1](swap + 1)
    assert err == (f"mdp: error: game swapped: mdp_outcomes: probability {first!r} is not a number "
                   f"(state {state!r}, action 'go')\n"), err
