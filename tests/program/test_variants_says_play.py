"""The text of ``mdp variants`` and ``mdp strategies`` says which play its values are of where
it is not the game's own aim (round 18, R18-N10: with --strategy random or --minimize the
table read as the best play's, and strategies' "optimal" row said "the best play" of the
worst)."""

import pytest

from mdp.program.cli import main


@pytest.mark.slow
@pytest.mark.parametrize("options, said", [
    (["--strategy", "random"], "chance of shutting the box playing random, under each variant:"),
    (["--minimize"], "chance of shutting the box (minimized), under each variant:"),
    ([], None),
])
def test_variants_say_the_play_first(options, said, capsys):
    assert main(["variants", "shutbox", "--set", "tiles=1-4", *options]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    if said is None:
        assert first.startswith("riddler ")  # the game's own aim: the rows alone
    else:
        assert first == said


def test_strategies_minimized_say_optimal_is_the_least(capsys):
    assert main(["strategies", "shutbox", "--set", "tiles=1-4", "--minimize"]) == 0
    optimal = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("optimal"))
    assert "the play of the least value (minimized" in optimal and "the best play" not in optimal
