"""A column that no state of the game has is named as unknown by ``mdp advise``, whether or
not the round state is named too: of a game of rounds named by no round column, the refusal
asked for a round state and never said that ``bogus`` is no column at all."""

from pathlib import Path

import pytest

from mdp.program.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


@pytest.mark.parametrize("argv", [
    ["shutbox", "--set", "tiles=1-3", "bogus=1"],
    ["shutbox", "--set", "tiles=1-3", "open=1 2 3", "bogus=1"],
    [EXAMPLE, "bogus=1"],
    [EXAMPLE, "filled=", "bogus=1"],
    [EXAMPLE, "face=3", "bogus=1"],
])
def test_an_unknown_column_is_named(capsys, argv):
    assert main(["advise", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: unknown column bogus; ") and err.count("\n") == 1, err


def test_a_known_column_is_not_called_unknown(capsys):
    assert main(["advise", EXAMPLE, "face=3"]) == 2  # the round state is not named
    assert "unknown" not in capsys.readouterr().err
