"""Every number option reads a plain whole number by one parser: its digits, ``-`` first
where less than 0 is allowed, a count or a total grouped by thousands (``1_000``,
``1,000``); not ``+10`` nor ``1_0`` (read as 10 by Python's ``int``). ``--at-least`` says a
bad value in one wording whatever the command, and takes a total less than 0 (a game's
totals may be): ``mdp solve`` said "a whole number of 0 or more" in words of its own."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.game.parsers import parse_int
from mdp.program.cli import main

EXAMPLE = str(Path(__file__).parents[2] / "docs" / "examples" / "two_boxes.py")


def plain(text):
    """The whole number ``text`` is, written plainly or grouped by thousands; else None."""
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    for mark in "_,":
        if re.fullmatch(rf"-?[0-9]{{1,3}}(\{mark}[0-9]{{3}})+", text):
            return int(text.replace(mark, ""))
    return None


TEXTS = st.one_of(st.integers(-10**7, 10**7).map(str),
                  st.integers(0, 10**7).map(lambda n: f"{n:_}"), st.integers(0, 10**7).map(lambda n: f"{n:,}"),
                  st.integers(0, 10**7).map(lambda n: f"+{n}"),
                  st.text("0123456789_,+-", min_size=1, max_size=7))


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.sampled_from([-(2**63 - 1), 0, 1]))
def test_a_number_option_reads_plain_whole_numbers_alone(text, minimum):
    expected = plain(text)
    read = parse_int(minimum, grouped=True)
    if expected is None or expected < minimum:
        with pytest.raises(ValueError, match="^expected a whole number"):
            read(text)
    else:
        assert read(text) == expected


def code(argv):
    """The exit code of the command line (argparse's own refusals exit)."""
    try:
        return main(argv)
    except SystemExit as leaving:
        return leaving.code


@pytest.mark.parametrize("text", ["1_0", "+5", "x", "2.5"])
def test_at_least_says_a_bad_value_alike_in_every_command(capsys, text):
    said = set()
    for command in (["solve"], ["distribution"], ["simulate", "--games", "10"]):
        assert code([command[0], EXAMPLE, *command[1:], "--at-least", text]) == 2
        said.add(capsys.readouterr().err)
    assert said == {f"mdp: error: --at-least {text}: expected a whole number\n"}


def test_at_least_takes_a_total_less_than_0(capsys):
    # Two boxes earn 0 or more: at least -3 is sure, in every command.
    assert main(["solve", EXAMPLE, "--at-least", "-3", "--exact"]) == 0
    assert "best chance of at least -3 points: 100.0000% (1)\nexact: 1/1\n" in capsys.readouterr().out
