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

import importlib
import sys
import types

from mdp.entrypoints import register_plugins
from mdp.errors import CycleError, GameNotFound, MdpError, ModelError, ParamError, TooLarge, did_you_mean
from mdp.game import Game, Objective, available_games, load_game
from mdp.hookspecs import hookimpl, hookspec
from mdp.limits import DEFAULT_MAX_STATES
from mdp.params import INT_LIST, Param, parse_choice, parse_int, parse_int_list, show_int_list

# The rest is imported on first use: numpy and Polars are not needed to list the commands
# (``mdp --help``), nor variants to solve a game, and start-up time counts.
# name -> the module that defines it.
_LAZY = {
    "Variant": "mdp.variants",
    "read_variants": "mdp.variants",
    "Expansion": "mdp.discover",
    "CompiledModel": "mdp.model",
    "ModelInfo": "mdp.model",
    "ragged_arange": "mdp.model",
    "compile": "mdp.compile",
    "ActionValues": "mdp.solve",
    "Solution": "mdp.solve",
    "Solutions": "mdp.solve",
    "solve": "mdp.solve",
    "solve_many": "mdp.solve",
    "Strategy": "mdp.strategy",
    "choices": "mdp.strategy",
    "evaluate": "mdp.strategy",
    "strategies": "mdp.strategy",
    "strategy_values": "mdp.strategy",
    "distribution": "mdp.distribution",
    "Simulation": "mdp.simulate",
    "simulate": "mdp.simulate",
    "Advice": "mdp.advise",
    "advise": "mdp.advise",
    "Match": "mdp.match",
    "MatchRules": "mdp.match",
    "match": "mdp.match",
    "match_rules": "mdp.match",
    "later_player_values": "mdp.match",
    "report": "mdp.report",
    "policy": "mdp.policy_table",
    "action_labels": "mdp.labels",
    "LazyColumn": "mdp.columns",
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

# Modules named as their function (mdp.compile, mdp.solve, ...): the name is the function.
_FUNCTIONS = {name for name, module in _LAZY.items() if module == f"mdp.{name}"}


class _Package(types.ModuleType):
    """The package, whose submodules named as their function leave the name to the function:
    Python binds each submodule on its package as it is imported."""

    def __setattr__(self, name, value):
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "ActionValues",
    "Advice",
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
    "LazyColumn",
    "Match",
    "MatchRules",
    "MdpError",
    "ModelError",
    "ModelInfo",
    "Objective",
    "Param",
    "ParamError",
    "Simulation",
    "Solution",
    "Solutions",
    "Strategy",
    "TooLarge",
    "Variant",
    "action_labels",
    "advise",
    "analyse",
    "analyses",
    "available_games",
    "choices",
    "commands",
    "compile",
    "did_you_mean",
    "distribution",
    "evaluate",
    "formats",
    "hookimpl",
    "hookspec",
    "later_player_values",
    "load_game",
    "match",
    "match_rules",
    "match_table",
    "parse_choice",
    "parse_int",
    "parse_int_list",
    "policy",
    "ragged_arange",
    "read_variants",
    "register_plugins",
    "report",
    "show_int_list",
    "simulate",
    "solve",
    "solve_many",
    "strategies",
    "strategy_values",
    "sweep",
    "write_table",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
