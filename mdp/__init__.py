"""mdp: solve finite-horizon Markov decision processes exactly.

The flow runs one way: game -> model -> solution -> outputs.

>>> import mdp
>>> game = mdp.load_game("games/shutbox")
>>> model = mdp.compile(game)
>>> solution = mdp.solve(model, exact=True)
>>> solution.value
Fraction(956177159, 9795520512)
>>> mdp.policy(solution, game)   # a Polars DataFrame    # doctest: +SKIP
"""

from mdp.entrypoints import register_plugins
from mdp.errors import CycleError, GameNotFound, MdpError, ModelError, ParamError, TooLarge, did_you_mean
from mdp.game import Game, Objective, available_games, load_game
from mdp.hookspecs import hookimpl, hookspec
from mdp.params import INT_LIST, Param, parse_choice, parse_int, parse_int_list, show_int_list
from mdp.variants import Variant, read_variants
from mdp.discover import Expansion
from mdp.model import CompiledModel, ModelInfo, ragged_arange
from mdp.compile import DEFAULT_MAX_STATES, compile
from mdp.solve import ActionValues, Solution, Solutions, solve, solve_many
from mdp.strategy import Strategy, choices, evaluate, strategies, strategy_values
# Modules named as their function (as mdp.compile): imported here, so the name is the function.
from mdp.distribution import distribution
from mdp.simulate import Simulation, simulate
from mdp.advise import Advice, advise
from mdp.match import Match, MatchRules, later_player_values, match, match_rules
from mdp.report import report

# Polars is imported on first use: solving needs only numpy, and start-up time counts.
_LAZY = {
    "policy": "mdp.policy_table",
    "Analysis": "mdp.extensions",
    "Command": "mdp.extensions",
    "Format": "mdp.extensions",
    "analyse": "mdp.extensions",
    "analyses": "mdp.extensions",
    "commands": "mdp.extensions",
    "formats": "mdp.extensions",
    "write_table": "mdp.extensions",
    "match_table": "mdp.vary",
    "sweep": "mdp.vary",
}

__all__ = [
    "Advice",
    "Simulation",
    "advise",
    "distribution",
    "simulate",
    "strategy_values",
    "ActionValues",
    "Analysis",
    "Command",
    "CompiledModel",
    "CycleError",
    "DEFAULT_MAX_STATES",
    "Expansion",
    "Format",
    "Game",
    "GameNotFound",
    "INT_LIST",
    "Match",
    "MatchRules",
    "MdpError",
    "ModelError",
    "ModelInfo",
    "Objective",
    "Param",
    "ParamError",
    "Solution",
    "Strategy",
    "Solutions",
    "TooLarge",
    "Variant",
    "analyse",
    "analyses",
    "available_games",
    "choices",
    "commands",
    "compile",
    "did_you_mean",
    "evaluate",
    "formats",
    "hookimpl",
    "hookspec",
    "later_player_values",
    "load_game",
    "match_rules",
    "match",
    "match_table",
    "parse_choice",
    "parse_int",
    "parse_int_list",
    "policy",
    "ragged_arange",
    "read_variants",
    "report",
    "register_plugins",
    "show_int_list",
    "solve",
    "strategies",
    "solve_many",
    "sweep",
    "write_table",
]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mdp' has no attribute {name!r}")
