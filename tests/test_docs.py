"""The documentation's claims: the example game's values, and a CLI page that lists it all."""

import re
from fractions import Fraction
from pathlib import Path

import pytest

import mdp
from mdp.cli import _parser

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(
    ("rolls", "expected"),
    # Derived by hand on docs/writing-a-game.rst: 7/2, then keep 4+ (17/4), then keep 5+ (14/3).
    [(1, Fraction(7, 2)), (2, Fraction(17, 4)), (3, Fraction(14, 3))],
)
def test_reroll_example_has_the_values_derived_by_hand(rolls, expected):
    game = mdp.load_game(DOCS / "examples" / "reroll.py", rolls=str(rolls))
    assert mdp.solve(game, exact=True).value == expected
    assert mdp.solve(game).value == pytest.approx(float(expected), rel=1e-15)


def test_reroll_policy_keeps_five_or_six_with_two_rolls_left():
    policy = mdp.solve(mdp.load_game(DOCS / "examples" / "reroll.py"), exact=True).policy
    kept = policy.filter((policy["rolls_left"] == 2) & (policy["action"] == "keep") & policy["optimal"])
    assert sorted(kept["face"].to_list()) == [5, 6]


def test_cli_page_lists_every_command_and_option():
    page = (DOCS / "cli.rst").read_text()
    parser = _parser()
    commands = parser._subparsers._group_actions[0].choices
    for name, command in commands.items():
        assert f"``mdp {name}" in page, name
        for action in command._actions:
            for option in action.option_strings:
                assert re.search(rf"``{re.escape(option)}[ `]", page), f"{name} {option}"
