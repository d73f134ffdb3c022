"""What a loaded game alone can tell is refused before it is compiled (round 18, P25: seconds
of compile before "--count turns: ... played by one player" and "is of one model ... within
applies to a game of rounds")."""

import pytest

import mdp
from mdp.program.cli import main


@pytest.mark.parametrize("argv, said", [
    (["lengths", "shutbox", "--count", "turns"], "--count turns: game shutbox is played by one player"),
    (["policy", "shutbox", "--within", "all"], "game shutbox is of one model: its policy table"),
    (["policy", "pig", "--within", "all"], "game pig is of one model: its policy table"),
])
def test_refused_before_the_compile(argv, said, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
