"""A match that is exactly fair is shown fair in floats too: a value within the solve's float
error of 0 is 0 (no -4.7e-16, no "-0.0000% of the stake"), and mdp match --vary orders
exactly fair rule sets as given, not by their rounding noise (N9)."""

import json

import pytest

import mdp
from mdp.program.cli import main

# Yahtzee played on a card of one box: --exact finds each of these matches exactly fair
# (0/1), as the exact run below checks for each.
FAIR = ["ones", "twos", "threes"]


@pytest.mark.slow
def test_an_exactly_fair_match_is_shown_fair_in_floats(capsys):
    for box in FAIR:
        argv = ["match", "yahtzee", "--set", "card=yahtzee", "--set", f"boxes={box}", "--json"]
        assert main(argv + ["--exact"]) == 0
        assert [p["exact"] for p in json.loads(capsys.readouterr().out)["players"]] == ["0/1", "0/1"]
        assert main(argv[:-1]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[1:3] == ["player 1: +0 (+0.0000% of the stake)",
                            "player 2: +0 (+0.0000% of the stake)"], out


@pytest.mark.slow
def test_vary_keeps_fair_rule_sets_in_the_order_given():
    for order in (FAIR, FAIR[::-1]):
        table = mdp.match_table("yahtzee", {"boxes": order}, params={"card": "yahtzee"})
        assert table["boxes"].to_list() == order
        assert table["player_1_percent"].to_list() == [0.0] * 3
        assert all(str(v) == "0.0" for v in table["player_1"].to_list())  # no -0.0 either


def test_a_match_that_is_not_fair_keeps_its_value(capsys):
    # Shut the Box, tiles 1-3: the first player's edge, far from the float error, as --exact.
    assert main(["match", "shutbox", "--set", "tiles=1-3", "--exact", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["players"]
    assert main(["match", "shutbox", "--set", "tiles=1-3", "--json"]) == 0
    floats = json.loads(capsys.readouterr().out)["players"]
    from fractions import Fraction
    for e, f in zip(exact, floats):
        assert Fraction(e["exact"]) != 0
        assert f["value"] == pytest.approx(float(Fraction(e["exact"])), rel=1e-12)
