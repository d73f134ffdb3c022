"""The best chance of a total is never below best-mean play's chance of it (best-mean play
is one of the plays it is the best of), in floats too, where the two are summed apart and
round a few units of the last place either way: on one box of ones, exactly the same play
for every total, the floats put the best chance of at least 5 below (0.013272056011374642
against 0.01327205601137465)."""

import json
from fractions import Fraction

import pytest

import mdp
from mdp.analysis.targets import targets
from mdp.program import main

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("boxes", ["ones", "fives", "chance", "ones,twos"])
def test_every_total_s_best_chance_is_at_least_best_mean_play_s(boxes):
    model = mdp.compile(mdp.load_game("yahtzee", card="yahtzee", boxes=boxes))
    frame = targets(model)
    below = frame.filter(frame["chance"] < frame["chance_best_mean"])
    assert below.is_empty(), below
    exact = targets(model, exact=True)
    best, mean = ([Fraction(t) for t in exact[f"{name}_exact"]] for name in ("chance", "chance_best_mean"))
    # Exactly, the two are ordered by themselves; the floats' rows are the exact ones within
    # the rounding of the steps that sum them (up to 2.6e-15 here, measured).
    assert all(b >= m for b, m in zip(best, mean))
    assert all(abs(f - b) <= 1e-14 for f, b in zip(frame["chance"], best))


def test_the_command_s_best_chance_is_at_least_best_mean_play_s(capsys):
    for total in range(1, 6):
        main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=ones",
              "--at-least", str(total), "--json"])
        record = json.loads(capsys.readouterr().out)
        assert record["value"] >= record["chance_best_mean"], (total, record)
