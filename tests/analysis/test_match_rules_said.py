"""A match says the rules only a match reads, beside the game's (round 24: three matches of
Shut the Box under other shut_pays and shut_wins printed one header)."""

import pytest

from mdp.program.cli import main


@pytest.mark.parametrize("given, said", [
    ([], "match rules: shut_pays=1, shut_wins=yes"),
    (["--set", "shut_pays=3"], "match rules: shut_pays=3, shut_wins=yes"),
    (["--set", "shut_wins=no"], "match rules: shut_pays=1, shut_wins=no"),
])
def test_the_match_rules_are_in_the_lines_of_a_match(capsys, given, said):
    assert main(["match", "shutbox", "--set", "tiles=1-4", *given]) == 0
    assert capsys.readouterr().out.splitlines()[1] == said
