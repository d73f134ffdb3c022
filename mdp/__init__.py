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

from mdp.errors import CycleError, GameNotFound, MdpError, ModelError, ParamError, TooLarge, did_you_mean
from mdp.game.load import Game, Objective, available_games, load_game
from mdp.game.params import INT_LIST, Param, parse_choice, parse_int, parse_int_list, show_int_list
from mdp.game.plugins import register_plugins
from mdp.hookspecs import hookimpl, hookspec
from mdp.limits import DEFAULT_MAX_STATES

# The rest is imported on first use: numpy and Polars are not needed to list the commands
# (``mdp --help``), nor variants to solve a game, and start-up time counts. This table is the
# one place where start-up laziness lives: name -> the module that defines it.
_LAZY = {
    "Variant": "mdp.game.variants",
    "read_variants": "mdp.game.variants",
    "LazyColumn": "mdp.game.columns",
    "Expansion": "mdp.engine.expansion",
    "UnboundedWarning": "mdp.engine.budget",
    "compile": "mdp.engine.compile",
    "CompiledModel": "mdp.engine.model",
    "RoundEnds": "mdp.engine.rounds",
    "Rounds": "mdp.engine.rounds",
    "RoundsSolution": "mdp.engine.rounds",
    "ModelInfo": "mdp.engine.model",
    "ragged_arange": "mdp.engine.groups",
    "offsets": "mdp.engine.groups",
    "slices": "mdp.engine.parallel",
    "ActionValues": "mdp.engine.solution",
    "Solution": "mdp.engine.solution",
    "Solutions": "mdp.engine.solution",
    "solve": "mdp.engine.solve",
    "solve_many": "mdp.engine.solve",
    "Strategy": "mdp.analysis.strategy",
    "choices": "mdp.engine.solution",
    "Policy": "mdp.engine.policy",
    "strategy_policy": "mdp.analysis.strategy",
    "evaluate": "mdp.analysis.strategy",
    "strategies": "mdp.analysis.strategy",
    "strategy_values": "mdp.analysis.strategy",
    "distribution": "mdp.analysis.distribution",
    "Simulation": "mdp.analysis.simulate",
    "simulate": "mdp.analysis.simulate",
    "Advice": "mdp.analysis.advise",
    "advise": "mdp.analysis.advise",
    "Match": "mdp.analysis.match",
    "MatchRules": "mdp.analysis.match",
    "match": "mdp.analysis.match",
    "match_rules": "mdp.analysis.match",
    "later_player_values": "mdp.analysis.match",
    "match_table": "mdp.analysis.vary",
    "solve_table": "mdp.analysis.vary",
    "policy": "mdp.analysis.policy_table",
    "policy_pieces": "mdp.analysis.policy_table",
    "Pieces": "mdp.analysis.pieces",
    "action_labels": "mdp.analysis.labels",
    "Format": "mdp.outputs.formats",
    "Export": "mdp.outputs.exports",
    "report": "mdp.outputs.report",
    "Analysis": "mdp.program.registry",
    "Command": "mdp.program.registry",
    "analyse": "mdp.program.registry",
    "analyses": "mdp.program.registry",
    "commands": "mdp.program.registry",
    "exports": "mdp.program.registry",
    "formats": "mdp.program.registry",
    "write_table": "mdp.program.registry",
}

__all__ = [
    "ActionValues",
    "Advice",
    "Analysis",
    "Command",
    "CompiledModel",
    "CycleError",
    "DEFAULT_MAX_STATES",
    "Expansion",
    "Export",
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
    "Pieces",
    "ParamError",
    "Policy",
    "Simulation",
    "Solution",
    "Solutions",
    "Strategy",
    "TooLarge",
    "UnboundedWarning",
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
    "exports",
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
    "policy_pieces",
    "offsets",
    "ragged_arange",
    "read_variants",
    "register_plugins",
    "report",
    "show_int_list",
    "simulate",
    "slices",
    "solve",
    "solve_many",
    "solve_table",
    "strategies",
    "strategy_policy",
    "strategy_values",
    "write_table",
]


def __getattr__(name: str):
    if name == "__version__":  # from the installed distribution, when asked: its metadata is slow to read
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("exact-mdp")
        except PackageNotFoundError:
            return "0+unknown"
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
