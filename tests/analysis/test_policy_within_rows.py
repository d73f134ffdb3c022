"""The rows of the policy within the round are known before the solve, from the ends each
round state allows: a Markdown table of more rows than it may have is refused before any
work (it was refused once 100,000 rows were made), and the count is the table's own."""

import functools
from pathlib import Path

import pytest

import mdp
from mdp.engine.rounds import table
from mdp.program.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@functools.cache
def _solved(game_name: str, card: str | None = None, boxes: str | None = None):
    """A game's game, model and solution: solved once for the tests of both tables."""
    game = mdp.load_game(game_name) if card is None else mdp.load_game(game_name, card=card, boxes=boxes)
    model = mdp.compile(game)
    return game, model, mdp.solve(model)


# The docs' example of two rounds (69 rows, 40 of the best: a tie adds one) and a Yahtzee card
# of two boxes: a plugin's game of rounds whose round state carries the upper total, 28,479 rows
# (3,531 of the best). The docs' three_dice (a card of five boxes, an upper bonus, ties) counts
# the same way, by the same code, 151,321 rows: 6 s of CPU a table to make, for nothing more.
@pytest.mark.parametrize("game", [
    (str(EXAMPLES / "two_boxes.py"),),
    pytest.param(("yahtzee", "yahtzee", "ones,twos"), marks=pytest.mark.slow),
], ids=["two-boxes", "yahtzee-ones-twos"])
@pytest.mark.parametrize("optimal_only", [False, True])
def test_the_rows_counted_before_the_solve_are_the_table_s(game, optimal_only):
    game, model, solution = _solved(*game)
    counted = model.policy_rows("all", optimal_only, most=10**12)
    made = sum(piece.height for piece in mdp.policy_pieces(solution, game,
                                                           optimal_only=optimal_only, within="all"))
    # Every allowed action a row; the best alone, a row per state at least (ties add rows).
    assert counted <= made if optimal_only else counted == made


def test_a_markdown_table_too_long_is_refused_before_the_solve(monkeypatch, capsys):
    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)
    game = str(EXAMPLES / "three_dice.py")  # 151,321 rows within the round at every round state
    assert main(["policy", game, "--within", "all", "--format", "markdown"]) == 3
    assert capsys.readouterr().err.startswith("mdp: error: the policy table has 100,")
    monkeypatch.setattr(table, "within_rows", lambda *a: 0)  # the check is this count's
    with pytest.raises(AssertionError, match="solved before the refusal"):
        main(["policy", game, "--within", "all", "--format", "markdown"])
