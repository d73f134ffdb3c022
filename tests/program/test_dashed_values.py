"""A value that starts with ``-`` and is no option is its option's value, refused for what it
is: ``--max-memory -1G`` was "expected one argument" (argparse takes only what looks like a
negative number so), while ``--max-states -5`` was told what a whole number is. And a number
refused is quoted as typed: ``--residual 1e-400`` was told "residual=0.0"."""

import argparse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program import argtypes
from mdp.program.cli import main


def _run(argv: list[str]) -> int:
    """The exit code of ``mdp ARGV`` run here (argparse's refusal is its SystemExit)."""
    try:
        return main(argv)
    except SystemExit as exited:
        return int(exited.code or 0)


VALUED = ["--max-memory", "--max-states", "--residual", "--seed", "--out", "--set"]


@pytest.mark.slow  # some are solved
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(VALUED),
       value=st.from_regex(r"-[0-9.][0-9a-zA-Z.]{0,4}", fullmatch=True))  # no short option
def test_a_dashed_value_is_the_options_value(capsys, option, value):
    code = _run(["solve", "shutbox", option, value, "--json"])
    said = capsys.readouterr().err
    assert "expected one argument" not in said
    if code != 0:  # refused as the option's value, or named as what it is for the command
        assert option in said or value in said, said


def test_a_size_below_zero_is_told_what_a_size_is(capsys):
    assert _run(["solve", "shutbox", "--max-memory", "-1G"]) == 2
    said = capsys.readouterr().err
    assert "expected a size like 4G" in said and "'-1G'" in said


def test_a_word_of_two_dashes_is_an_option_still(capsys):
    assert _run(["solve", "shutbox", "--max-memory", "--jsn"]) == 2
    assert "expected one argument" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["1e-400", "2", "-1", "1e-16", "nan"])
def test_a_residual_refused_is_quoted_as_typed(text):
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        argtypes.residual(text)
    assert str(raised.value).startswith(f"residual={text!r}:")
