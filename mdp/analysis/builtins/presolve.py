"""What the policy and advice commands refuse once the game is compiled, before it is solved:
a table that cannot be written, a state the game does not have. (Apart from the analyses'
module, which the program imports to list the commands: these import NumPy when called.)"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel
    from mdp.engine.rounds import Rounds
    from mdp.game.load import Game


def policy(model: CompiledModel | Rounds, args: argparse.Namespace, within: Any) -> None:
    """A policy table that cannot be written: within the round, more rows than a table may
    have; a Markdown table of more rows than it may have (:func:`check_policy`)."""
    from mdp.analysis.policy_table import check_policy
    from mdp.outputs.formats import most_rows

    check_policy(model, args.loaded, within, args.optimal_only, most_rows(args.written))


def within(game: Game, within: Any) -> None:
    """``--within`` columns that are no round columns, once the game is loaded and before it
    is compiled (:func:`check_within`)."""
    from mdp.analysis.policy_table import check_within

    check_within(game, within)


def advice(model: CompiledModel | Rounds, game: Game, state: dict[str, Any]) -> None:
    """A state the model does not have, or several (:func:`check_advice`)."""
    from mdp.analysis.advise import check_advice

    check_advice(model, game, state)
