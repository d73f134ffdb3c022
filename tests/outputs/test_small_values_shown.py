"""The values and regrets of mdp advise and mdp strategies, shown to people to ten decimals,
never read 0 where they are not, nor two that differ alike for want of digits (round 33,
U33-10: with a payout of 1e-21 every action read "0.0000000000 ... regret 0.0000000000",
one of them marked optimal; with 1e-5, five digits were left). Generated: any float is
shown within its last digit, and one that is not 0 never as 0; the report's page shows it
as mdp advise does."""

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.program.cli import main
from mdp.shown import fixed

FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e14, max_value=1e14)


@given(FLOATS)
def test_a_float_is_shown_within_its_last_digit_and_never_as_0_unless_it_is(value):
    text = fixed(value)
    back = float(text)
    assert (back == 0) == (value == 0), text
    digits = 10 - math.floor(math.log10(abs(value))) - 1 if "e" in text else 10  # decimals shown
    assert abs(back - value) <= 0.5 * 10.0 ** -digits * (1 + 1e-9) + abs(value) * 1e-15, text
    if value != 0 and "e" not in text:  # ten decimals of one of 1e-4 or more: 7 digits at least
        assert abs(value) >= 1e-4


def test_a_tiny_payout_is_advised_with_its_digits(capsys):
    # Shut the Box paying 1e-21 for a shut box: every value is the chance times 1e-21; the
    # chances of 1 8 and 1 3 5 at open 1 2 3 5 8, roll 9, are 0.1741255144 and 0.1103395062
    # (as mdp advise shows them for the chance itself, docs/cli.rst).
    assert main(["advise", "shutbox", "--set", "scoring=payout", "--set",
                 "payout=0:1/1000000000000000000000", "open=1 2 3 5 8", "roll=9"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[-2:]]
    assert rows[0][:4] == ["1", "8", "1.741255144e-22", "0.0000000000"] and rows[0][-1] == "optimal"
    assert rows[1][:5] == ["1", "3", "5", "1.103395062e-22", "6.378600823e-23"]
    assert Fraction(rows[1][4]) > 0 and len(rows[1]) == 5  # a regret not 0, and not optimal


def _ties(value):
    """Whether ``value`` lies exactly halfway between two texts of its last digit shown
    (Python rounds such a tie to even, JavaScript up: an odd number of 2048ths, say)."""
    if value == 0:
        return False
    last = 10 - math.floor(math.log10(abs(value))) - 1 if abs(value) < 1e-4 else 10
    return (Fraction(value) * Fraction(10) ** last).denominator == 2


@settings(max_examples=200, deadline=None)
@given(st.lists(FLOATS.filter(lambda v: not _ties(v)), min_size=1, max_size=30))
@pytest.mark.slow
def test_the_report_s_page_shows_a_value_as_mdp_advise_does(values):
    from py_mini_racer import MiniRacer

    page = (Path(__file__).resolve().parents[2] / "mdp" / "outputs" / "report.html").read_text()
    source = re.search(r"\n  function fixed\(x\) \{.*?\n  \}\n", page, re.S).group(0)
    shown = json.loads(MiniRacer().eval(f"{source}; JSON.stringify({json.dumps(values)}.map(fixed))"))
    assert shown == [fixed(v) for v in values]
