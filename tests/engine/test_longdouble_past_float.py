"""A NumPy long double past what a float holds is said to be so, not "not finite" (round 19,
F9: np.longdouble('1e4000'), finite in its own type, was called not finite, where a Python
int 10**400 gets the line about a float's range); one that is infinite or NaN is not finite."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdp.engine.numeric import fault
from mdp.program.cli import main

WIDE = np.finfo(np.longdouble).max > np.finfo(np.float64).max
PAST = "is past what a float holds (about 1.8e308)"


@pytest.mark.skipif(not WIDE, reason="a long double here is a float")
@given(exponent=st.integers(300, 4900), sign=st.sampled_from([1, -1]), odd=st.sampled_from([None, "inf", "nan"]))
def test_a_long_double_past_a_float_is_said_so(exponent, sign, odd):
    value = np.longdouble(f"{sign}e{exponent}") if odd is None else np.longdouble(sign * float(odd))
    with np.errstate(over="ignore"):
        as_float = float(value)
    expected = "is not finite" if not np.isfinite(value) else None if np.isfinite(as_float) else PAST
    assert fault(value) == expected


@pytest.mark.skipif(not WIDE, reason="a long double here is a float")
def test_the_game_s_terminal_value_is_named_past_a_float(tmp_path, capsys):
    game = tmp_path / "wide.py"
    game.write_text("import numpy as np\nimport mdp\n\nGAME_NAME = 'wide'\n\n\n"
                    "@mdp.hookimpl\ndef mdp_initial_state():\n    return 0\n\n\n"
                    "@mdp.hookimpl\ndef mdp_actions(state):\n    return ['go'] if state == 0 else []\n\n\n"
                    "@mdp.hookimpl\ndef mdp_outcomes(state, action):\n    return [(1, 1)]\n\n\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state):\n    return np.longdouble('1e4000')\n")
    assert main(["solve", str(game)]) == 2
    assert capsys.readouterr().err == ("mdp: error: game wide: mdp_terminal_value: terminal value "
                                       f"np.longdouble('1e+4000') {PAST} (state 1)\n")
