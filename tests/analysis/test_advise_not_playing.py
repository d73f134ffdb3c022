"""mdp advise --after: a later player of a match who does not play after the results before
(the match rules' ``decided``: in Shut the Box with shut_wins=yes, once a player shut the
box) is told so, with no table of moves, where every move was shown "optimal" (N3)."""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

TILES = "1-4"  # open sums 0 to 10


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(earlier=st.lists(st.integers(0, 10), min_size=1, max_size=3), shut_wins=st.booleans())
@example(earlier=[0, 1, 2], shut_wins=True).via("round 25: players 2 and 3 never played")
def test_a_player_who_does_not_play_is_told_so(capsys, earlier, shut_wins):
    wins = "yes" if shut_wins else "no"
    argv = ["advise", "games/shutbox", "--set", f"tiles={TILES}", "--set", f"shut_wins={wins}",
            "open=1 2 3 4", "--json"] + [w for r in earlier for w in ("--after", str(r))]
    shut = next((k for k, r in enumerate(earlier, start=1) if r == 0), None)
    if shut_wins and shut is not None and shut < len(earlier):  # a result of one who never played
        assert main(argv) == 2  # (round 25: taken, and said as a fact)
        assert capsys.readouterr().err.startswith(
            f"mdp: error: --after {earlier[shut]}: player {shut + 1} does not play after ")
        return
    assert main(argv) == 0
    said = json.loads(capsys.readouterr().out)
    if shut_wins and shut is not None:  # docs/matches.rst: the players after do not play
        assert said["does_not_play"] == f"player {shut} shut the box and won at once"
        assert said["actions"] == []
        # ... and indeed nothing they do changes what they receive (the payoff alone).
        game = mdp.load_game("shutbox", tiles=TILES, shut_wins=wins)
        money = mdp.later_player_values(mdp.compile(game), game, earlier)
        assert np.unique(money).size == 1
    else:
        assert "does_not_play" not in said and said["actions"]


def test_the_words_a_person_reads(capsys):
    assert main(["advise", "games/shutbox", "--set", "tiles=1-5", "open=1 2 3 4 5", "--after", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "player 2, the last of a match of 2, after player 1's open_sum 0: expected winnings -1",  # loses the stake
        "player 2 does not play: player 1 shut the box and won at once"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(result=st.sampled_from(["11", "999", "-1", "x"]), at=st.integers(0, 1))
@pytest.mark.slow
def test_a_result_no_player_can_have_is_refused_before_the_solve(capsys, monkeypatch, result, at):
    # Before: the game was solved first, then later_player_values refused it. Tiles 1-4:
    # the open sums are 0 to 10.
    monkeypatch.setattr(mdp, "solve", lambda *a, **k: pytest.fail("solved before the refusal"))
    after = ["3", result] if at else [result]
    argv = ["advise", "games/shutbox", "--set", "tiles=1-4", "open=1 2"]
    assert main(argv + [w for r in after for w in ("--after", r)]) == 2
    assert capsys.readouterr().err == (f"mdp: error: player {len(after)}'s result {result!r} is "
                                       "not a possible open_sum (possible: 0, 1, 2, 3, 4, 5, 6, 7, "
                                       "8, 9, 10)\n")


@pytest.mark.parametrize("written", ["03", "3.0", " 3"])
@pytest.mark.slow
def test_a_result_written_otherwise_is_read_as_its_number(capsys, written):
    """Round 27: "03" and "3.0" were "not a possible open_sum (possible: 0, 1, 2, 3, ...)"."""
    argv = ["advise", "games/shutbox", "--set", "tiles=1-3", "open=1 2 3", "roll=3", "--json", "--after"]
    assert main([*argv, "3"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, written]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == plain["actions"]


def test_no_earlier_result_is_said_as_such():
    game = mdp.load_game("shutbox", tiles="1-3")
    with pytest.raises(mdp.ParamError, match=r"^later_player_values: earlier is \[\]"):
        mdp.later_player_values(mdp.compile(game), game, [])
