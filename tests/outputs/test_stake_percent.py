"""The match's winnings as a percentage of the stake: four decimals, taken from the fraction
where the match is exact, and never decimals a float does not hold. A payout of 10**15
(allowed: it fits in 64 bits) printed +7013596788025388.0000% under --exact, where the
fraction is ...387.2471...%, and ...384.0000% in floats. The sign is the winnings' (a loss
of 1/10**7 read "+0.0000%" exactly, "-0.0000%" in floats), a share that is not 0 is never
shown as 0, and a float's percentage past a float is said by its size, never ``inf%``. A
percentage past a float's digits is shown to those digits exactly as in floats: one number,
one form."""

import re
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mdp.shown import DIGITS, stake_percent


@given(st.fractions(max_denominator=10**12).filter(lambda f: abs(f) < 10**18))
def test_an_exact_value_is_its_percentage_to_four_decimals(value):
    text = stake_percent(value)
    assert text[0] == ("-" if value < 0 else "+"), text
    if value and abs(100 * value) < Fraction(1, 20000):  # four decimals would show 0
        assert text[1:] == "< 0.0001%", text
        return
    if abs(100 * value) >= 10 ** (DIGITS - 4):  # past a float's digits: shown as a float's are
        # (round 32, U32-05: +11111111111111111.1111% exactly, +1.11111111111111e+16% in floats)
        assert re.fullmatch(r"[+-]\d+(\.\d+)?(e\+\d+)?%", text) and len(text.split("e")[0].strip("+-.%").replace(".", "")) <= DIGITS
        assert abs(Fraction(text[1:-1]) - abs(100 * value)) <= abs(100 * value) / 10 ** (DIGITS - 1)
        as_float = stake_percent(float(value))
        assert ("e" in text) == ("e" in as_float) and abs(float(text[:-1]) / float(as_float[:-1]) - 1) < 1e-13
        return
    assert re.fullmatch(r"[+-]\d+\.\d{4}%", text), text
    shown = Fraction(text[:-1])
    assert abs(shown - 100 * value) <= Fraction(1, 20000)  # within half of the last decimal


@given(st.floats(allow_nan=False, allow_infinity=False))
@example(1.2679761312772245e+307).via("rounded twice, to 16 digits then 15: ...723, not ...722")
def test_a_float_shows_no_digit_it_does_not_hold(value):
    text = stake_percent(value)
    assert "inf" not in text and text[0] == ("-" if value < 0 else "+"), text
    if value and text[1:] == "< 0.0001%":
        assert abs(100 * value) < 5e-5
        return
    if abs(value) > 1e306:  # the percentage past a float: its size, from the digits of the value
        mantissa, exponent = text[1:-1].split("e")
        assert float(f"{mantissa}e{int(exponent) - 2}") == float(f"{abs(value):.{DIGITS}g}"), text
        return
    digits = re.sub(r"e.*", "", text[1:-1]).replace(".", "").lstrip("0")
    assert len(digits) <= DIGITS or set(digits[DIGITS:]) <= {"0"} and abs(100 * value) < 10**(DIGITS - 4), text
    assert abs(float(text[:-1]) - 100 * value) <= max(abs(100 * value) * 1e-14, 5e-5), text


def test_the_reported_case():
    value = Fraction(9541920999999999549415, 136048896)
    assert stake_percent(value) == stake_percent(float(value)) == "+7.01359678802539e+15%"


@pytest.mark.slow
def test_winnings_no_float_holds_are_said_by_their_size(capsys):
    # A face of chance 1e-200: player 1's exact winnings are about 4e-800, shown "+0
    # (+0.0000% of the stake)" as a fair match is, and 0.0 in --json (R19-N16).
    import json

    from mdp.program.cli import main

    weights = f"1/1{'0' * 200},{10**200 - 1}/{10**200}"
    argv = ["match", "shutbox", "--set", "faces=2", "--set", f"weights={weights}", "--set",
            "tiles=2,4", "--set", "one_die=never", "--exact"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()  # (the rules, the match's rules, the players)
    assert lines[2].startswith("player 1: +4.00e-800 (+< 0.0001% of the stake)  = "), lines[2]
    assert lines[3].startswith("player 2: -4.00e-800 (-< 0.0001% of the stake)  = -"), lines[3]
    assert main([*argv, "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["value"] for p in players] == [None, None]
    assert Fraction(players[0]["exact"]) > 0 > Fraction(players[1]["exact"])
