"""What a loaded game alone can tell is refused before it is compiled (round 18, P25: seconds
of compile before "--count turns: ... played by one player" and "is of one model ... within
applies to a game of rounds")."""

from pathlib import Path

import pytest

import mdp
from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")


@pytest.mark.parametrize("argv, said", [
    (["lengths", "shutbox", "--count", "turns"], "--count turns: game shutbox is played by one player"),
    (["policy", "shutbox", "--within", "all"], "game shutbox is of one model: its policy table"),
    (["policy", "pig", "--within", "all"], "game pig is of one model: its policy table"),
    # a game whose states give their columns one by one: the initial state's are every state's
    (["advise", REROLL, "bogus=1"], "unknown column bogus; name a state of reroll by its "
     "columns rolls_left, face (COLUMN=VALUE, e.g. the initial state: rolls_left=3)"),
    (["advise", REROLL, "rolls_left=1", "bogus=1"], "unknown column bogus;"),
])
def test_refused_before_the_compile(argv, said, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
