"""A chance that is not exactly 0 or 1 is never shown as if it were: one rule
(mdp/shown.py percent) wherever a chance is shown, checked over floats and fractions near 0
and 1, and on the command line's lines of a game of one chance of 9,999,999 in 10,000,000."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.program.cli import main
from mdp.shown import percent, readable

NEAR = st.one_of(
    st.floats(0, 1e-5), st.floats(1 - 1e-5, 1), st.floats(0, 1),
    st.fractions(0, Fraction(1, 10**6), max_denominator=10**12),
    st.fractions(1 - Fraction(1, 10**6), 1, max_denominator=10**12),
    st.sampled_from((0, 1, 0.0, 1.0, Fraction(0), Fraction(1), 5e-324, 1 - 2**-53, 1 - 1e-14)),
)


@settings(max_examples=60)
@given(NEAR)
def test_a_chance_is_never_shown_as_0_or_1_unless_it_is(chance):
    """Unless it is, or is a float that the 15 digits shown beside it show as 0 or 1."""
    text = percent(chance)
    if isinstance(chance, float):
        chance = float(readable(chance))
    assert (text == "100.0000%") == (chance == 1)
    assert (text == "0.0000%") == (chance == 0)
    if text.startswith("<"):
        # at the half exactly, as the float of 100 times it rounds (1/2,000,000: 4.99...e-05)
        assert 0 < chance <= Fraction(5, 10**7) and text == "< 0.0001%"
    elif text.startswith(">"):
        assert 1 - Fraction(5, 10**7) <= chance < 1 and text == "> 99.9999%"
    else:  # four decimals, rounded: within half the last digit of the chance
        assert abs(Fraction(text[:-1]) / 100 - Fraction(chance)) <= Fraction(5, 10**7)




@pytest.mark.slow
def test_the_value_line_and_the_distribution_say_it(tmp_path, capsys):
    path = tmp_path / "near.py"
    path.write_text("import mdp\nfrom fractions import Fraction\nGAME_NAME = 'near'\n"
                    "P = Fraction(9999999, 10000000)\n"
                    "@mdp.hookimpl\ndef mdp_objective():\n"
                    "    return mdp.Objective('chance of a win', probability=True)\n"
                    "@mdp.hookimpl\ndef mdp_initial_state():\n    return 'start'\n"
                    "@mdp.hookimpl\ndef mdp_actions(state):\n"
                    "    return ['go'] if state == 'start' else []\n"
                    "@mdp.hookimpl\ndef mdp_outcomes(state, action):\n"
                    "    return [(P, 'won'), (1 - P, 'lost')]\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state):\n"
                    "    return 1 if state == 'won' else 0\n")
    assert main(["solve", str(path)]) == 0
    assert "chance of a win: > 99.9999% (0.9999999)" in capsys.readouterr().out
    assert main(["distribution", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split() == ["0", "<", "0.0001%", "<", "0.0001%"] for line in lines)
    assert any(line.split()[:3] == ["1", ">", "99.9999%"] for line in lines)
