"""mdp: solve finite-horizon Markov decision processes exactly.

>>> import mdp
>>> game = mdp.load_game("games/shutbox")
>>> solution = mdp.solve(game, exact=True)
>>> solution.value
Fraction(956177159, 9795520512)
"""

from mdp.entrypoints import register_plugins
from mdp.errors import CycleError, GameNotFound, MdpError, ModelError, ParamError, TooLarge
from mdp.game import Game, Objective, Variant, available_games, load_game
from mdp.hookspecs import hookimpl, hookspec
from mdp.params import Param
from mdp.explore import explore
from mdp.model import CompiledModel, ragged_arange
from mdp.batch import Expansion
from mdp.solve import Solution, solve

# Polars is imported on first use: solving needs only numpy, and start-up time counts.
_LAZY = {"policy_frame": "mdp.policy", "write_table": "mdp.export"}

__all__ = [
    "CompiledModel",
    "CycleError",
    "Expansion",
    "Game",
    "GameNotFound",
    "MdpError",
    "ModelError",
    "Objective",
    "Param",
    "ParamError",
    "Solution",
    "TooLarge",
    "Variant",
    "available_games",
    "explore",
    "hookimpl",
    "hookspec",
    "load_game",
    "policy_frame",
    "ragged_arange",
    "register_plugins",
    "solve",
    "write_table",
]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mdp' has no attribute {name!r}")
