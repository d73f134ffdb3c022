"""An empty name among ``--set boxes=`` is no box of the card, said so, however many there are
(round 24: ``boxes=,`` was "a box is named twice", though no box was named)."""

import pytest

from mdp.program.cli import main


@pytest.mark.parametrize("boxes", [",", ",,", "ones,,twos", "ones,twos,", ",ones"])
@pytest.mark.slow
def test_an_empty_box_name_is_no_box_of_the_card(boxes, capsys):
    assert main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", f"boxes={boxes}"]) == 2
    assert capsys.readouterr().err.startswith("mdp: error: parameter boxes: '' is not a box of card yahtzee; ")


def test_a_box_named_twice_is_said_so(capsys):
    assert main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=ones,twos,ones"]) == 2
    assert capsys.readouterr().err == "mdp: error: parameter boxes=ones,twos,ones: a box is named twice\n"


@pytest.mark.parametrize(("card", "typed", "near"), [
    ("yahtzee", "fullhouse", "full-house"), ("yahtzee", "Yahtzee", "yahtzee"),
    ("yahtzee", "one", "ones"), ("yatzy", "yahtzee", "yatzy"), ("yatzy", "two-pair", "two-pairs")])
def test_a_misspelt_box_names_the_nearest(card, typed, near, capsys):
    """As a misspelt card, rule or command is: the box names are the ones most often typed
    otherwise (fullhouse, Yahtzee)."""
    assert main(["solve", "yahtzee", "--set", f"card={card}", "--set", f"boxes=ones,{typed}"]) == 2
    assert capsys.readouterr().err.startswith(
        f"mdp: error: parameter boxes: {typed!r} is not a box of card {card} (did you mean {near}?); ")
