"""An exact number is written whole, however many digits it has: Python turns at most 4,300
digits of an int into text unless told otherwise (``PYTHONINTMAXSTRDIGITS``), and a command
whose exact answer had more ended in a ValueError's traceback (``mdp lengths pig --set goal=3
--exact --up-to 8000``)."""

import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

GAME = '''
from fractions import Fraction
import mdp
GAME_NAME = "tiny"
@mdp.hookimpl
def mdp_initial_state(): return 0
@mdp.hookimpl
def mdp_actions(state): return ["a"] if state == 0 else []
@mdp.hookimpl
def mdp_outcomes(state, action): return [(1, 1)]
@mdp.hookimpl
def mdp_terminal_value(state): return Fraction(1, 3**POWER)
'''


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1300, 3000))
@pytest.mark.slow
def test_an_exact_value_of_more_digits_than_python_writes_is_written_whole(tmp_path, capsys, power):
    game = tmp_path / "tiny.py"
    game.write_text(GAME.replace("POWER", str(power)))
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)  # as PYTHONINTMAXSTRDIGITS=640 sets it
    try:
        assert main(["solve", str(game), "--exact"]) == 0
        assert sys.get_int_max_str_digits() == 640  # the caller's limit, given back
    finally:
        sys.set_int_max_str_digits(before)
    exact = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("exact: "))
    assert Fraction(exact.removeprefix("exact: ")) == Fraction(1, 3**power)
