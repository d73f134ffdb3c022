"""mdp: solve finite-horizon Markov decision processes exactly.

>>> import mdp
>>> game = mdp.load_game("games/shutbox")
>>> solution = mdp.solve(game, exact=True)
>>> solution.value
Fraction(956177159, 9795520512)
"""

from mdp.entrypoints import register_plugins
from mdp.errors import CycleError, GameNotFound, MdpError, ModelError, ParamError, TooLarge, did_you_mean
from mdp.game import Game, Objective, available_games, load_game
from mdp.hookspecs import hookimpl, hookspec
from mdp.params import INT_LIST, Param, parse_choice, parse_int, parse_int_list, show_int_list
from mdp.variants import Variant, read_variants
from mdp.explore import explore
from mdp.model import CompiledModel, ragged_arange
from mdp.batch import Expansion
from mdp.solve import Solution, solve

# Polars is imported on first use: solving needs only numpy, and start-up time counts.
_LAZY = {"policy_frame": "mdp.policy", "write_table": "mdp.export"}

__all__ = [
    "CompiledModel",
    "INT_LIST",
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
    "did_you_mean",
    "explore",
    "hookimpl",
    "hookspec",
    "load_game",
    "parse_choice",
    "parse_int",
    "parse_int_list",
    "policy_frame",
    "ragged_arange",
    "read_variants",
    "register_plugins",
    "show_int_list",
    "solve",
    "write_table",
]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mdp' has no attribute {name!r}")
