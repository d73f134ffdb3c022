"""A match compares the players' results by its rules alone: a parameter that only a game
alone reads (MatchRules.ignores: Shut the Box's scoring and payout) set otherwise than by its
default is refused, in mdp match and advise --after, before any work (round 18, R18-N13:
``match --vary scoring=win,score,digital`` gave three identical rows under headers naming
each scoring)."""

import pytest

import mdp
from mdp.program.cli import main


@pytest.mark.parametrize("scoring", ["score", "digital", "payout"])
@pytest.mark.parametrize("argv", [
    ["match", "shutbox", "--set", "tiles=1-4"],
    ["advise", "shutbox", "--set", "tiles=1-4", "open=1 2 3 4", "roll=7", "--after", "3"],
])
def test_a_scoring_the_match_does_not_read_is_refused(scoring, argv, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    more = ["--set", "payout=0:100,1-3:5"] if scoring == "payout" else []
    assert main([*argv, "--set", f"scoring={scoring}", *more]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"scoring={scoring}: a match of game shutbox compares" in err


def test_the_default_scoring_plays_the_match():
    game = mdp.load_game("shutbox", tiles="1-4")
    assert mdp.match_rules(game).ignores == ("scoring", "payout")
    assert mdp.match(mdp.compile(game), game).values[0] != 0
