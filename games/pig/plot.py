"""The hold boundary of optimal Pig, drawn as Neller and Presser draw it: for each pair of
scores, the least turn total at which the player to move holds.

    python -m mdp_games.pig.plot pig-hold.png [goal]
"""

from __future__ import annotations

import sys

import polars as pl

import mdp
from mdp.outputs.plot import plot_grid


def hold_boundary(solution: mdp.Solution, game: mdp.Game) -> pl.DataFrame:
    """``me``, ``opponent`` and ``hold_at``: the least turn total at which holding is the
    optimal play (the first optimal action, rolling where both are), for each pair of scores
    where the player to move ever holds."""
    table = mdp.policy(solution, game)
    first = table.filter(pl.col("optimal")).group_by(["me", "opponent", "turn"],
                                                    maintain_order=True).first()
    return (first.filter(pl.col("action") == "hold")
            .group_by(["me", "opponent"]).agg(hold_at=pl.col("turn").min())
            .sort(["me", "opponent"]))


def main(argv: list[str]) -> None:
    path, goal = argv[0], int(argv[1]) if len(argv) > 1 else 100
    game = mdp.load_game("pig", goal=goal)
    solution = mdp.solve(mdp.compile(game))
    frame = hold_boundary(solution, game)
    plot_grid(frame, path, f"Optimal Pig to {goal}: the least turn total at which to hold "
                           f"(first player wins {solution.value:.4%})", "me", "opponent", "hold_at")


if __name__ == "__main__":
    main(sys.argv[1:])
