"""What a loaded game alone can tell is refused before it is compiled (round 18, P25: seconds
of compile before "--count turns: ... played by one player" and "is of one model ... within
applies to a game of rounds")."""

from pathlib import Path

import pytest

import mdp
from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("argv, said", [
    (["lengths", "shutbox", "--count", "turns"], "--count turns: game shutbox is played by one player"),
    (["policy", "shutbox", "--within", "all"], "game shutbox is of one model: its policy table"),
    (["policy", "pig", "--within", "all"], "game pig is of one model: its policy table"),
    # a game whose states give their columns one by one: the initial state's are every state's
    (["advise", REROLL, "bogus=1"], "unknown column bogus; name a state of reroll by its "
     "columns rolls_left, face (COLUMN=VALUE, e.g. the initial state: rolls_left=3)"),
    (["advise", REROLL, "rolls_left=1", "bogus=1"], "unknown column bogus;"),
    # round 19: a game of rounds where one model is read, --against in a game of one player
    (["lengths", "yahtzee", "--set", "card=yatzy", "--set", "boxes=ones"],
     "game yahtzee is played in rounds, and mdp lengths reads a game of one model"),
    (["export", "yahtzee", "--set", "card=yatzy", "--set", "boxes=ones", "--out", "{tmp}/y.prism"],
     "game yahtzee is played in rounds, and mdp export reads a game of one model"),
    *([[command, game, "--against", "optimal", *(state if command == "advise" else []),
                                                 *(["--games", "10"] if command == "simulate" else [])], "game two players take in turns; game "
       f"{game} is played by one player"]
      for command in ["distribution", "simulate", "lengths", "advise"]
      for game, state in [("shutbox", ["open=1"]), ("yahtzee", ["filled=", "upper=0"])]
      if command != "lengths" or game == "shutbox"),
])
def test_refused_before_the_compile(argv, said, capsys, monkeypatch, tmp_path):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    argv = [word.replace("{tmp}", str(tmp_path)) for word in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
