"""An empty name among ``--set boxes=`` is no box of the card, said so, however many there are
(round 24: ``boxes=,`` was "a box is named twice", though no box was named)."""

import pytest

from mdp.program.cli import main


@pytest.mark.parametrize("boxes", [",", ",,", "ones,,twos", "ones,twos,", ",ones"])
def test_an_empty_box_name_is_no_box_of_the_card(boxes, capsys):
    assert main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", f"boxes={boxes}"]) == 2
    assert capsys.readouterr().err.startswith("mdp: error: parameter boxes: '' is not a box of card yahtzee; ")


def test_a_box_named_twice_is_said_so(capsys):
    assert main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=ones,twos,ones"]) == 2
    assert capsys.readouterr().err == "mdp: error: parameter boxes=ones,twos,ones: a box is named twice\n"
