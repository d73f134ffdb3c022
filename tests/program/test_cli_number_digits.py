"""The number options that read decimals or sizes, and the first player's total of a game of
rounds, take the digits 0 to 9 alone, as every number mdp reads (docs/cli.rst): Arabic-Indic,
full-width or other decimal digits (Unicode category Nd), ``1_0`` and ``+3`` are refused in
one line, exit 2, where ``--residual``, ``--max-memory`` and ``--after`` read them through
Python's float() and int() (round 17, R17-N2)."""

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")

# Each option, a value it takes, and the command around it.
OPTIONS = {
    "--residual": ("1e-5", ["solve", "pig", "--set", "goal=5"]),
    "--max-memory": ("3G", ["solve", "shutbox", "--set", "tiles=1-3"]),
    "--after": ("3", ["advise", TWO_BOXES, "filled=", "throws_left=2"]),
}


def _in_other_digits(text: str, digit: str) -> str:
    """``text`` with each of its digits written in ``digit``'s script."""
    zero = ord(digit) - unicodedata.digit(digit)
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in text)


def _code(argv: list[str]) -> int:
    """The exit code of ``mdp ARGV`` run in this process (argparse's refusals exit)."""
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code)


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_each_number_option_takes_its_value_in_ascii_digits(capsys, option):
    value, command = OPTIONS[option]
    assert _code([*command, option, value]) == 0, capsys.readouterr().err  # so a refusal below is the digits'


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(sorted(OPTIONS)),
       digit=st.characters(categories=["Nd"]).filter(lambda c: not c.isascii()),
       how=st.sampled_from(["script", "underscore", "plus"]))
def test_a_number_option_takes_ascii_digits_alone(capsys, option, digit, how):
    value, command = OPTIONS[option]
    odd = {"script": _in_other_digits(value, digit), "underscore": value[0] + "_0" + value[1:],
           "plus": "+" + value}[how]
    assert _code([*command, option, odd]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err and "Traceback" not in err, err
