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
from typing import TYPE_CHECKING, Any

# Every name is imported on first use: numpy and Polars are not needed to list the commands
# (``mdp --help``), nor variants to solve a game, and start-up time counts; ``import mdp``
# itself imports nothing, so that the command catches a Ctrl-C from its first moments
# (mdp.program.main). This table is the one place where start-up laziness lives: name -> the
# module that defines it.
_LAZY = {
    "CycleError": "mdp.errors",
    "GameNotFound": "mdp.errors",
    "MdpError": "mdp.errors",
    "ModelError": "mdp.errors",
    "ParamError": "mdp.errors",
    "TooLarge": "mdp.errors",
    "did_you_mean": "mdp.checks",
    "DEFAULT_MAX_STATES": "mdp.limits",
    "Game": "mdp.game.load",
    "Objective": "mdp.game.load",
    "available_games": "mdp.game.load",
    "load_game": "mdp.game.load",
    "INT_LIST": "mdp.game.parsers",
    "Param": "mdp.game.params",
    "parse_choice": "mdp.game.parsers",
    "parse_int": "mdp.game.parsers",
    "parse_int_list": "mdp.game.parsers",
    "show_int_list": "mdp.game.parsers",
    "register_plugins": "mdp.game.plugins",
    "hookimpl": "mdp.hookspecs",
    "hookspec": "mdp.hookspecs",
    "Variant": "mdp.game.variants",
    "read_variants": "mdp.game.variants",
    "LazyColumn": "mdp.game.columns",
    "Expansion": "mdp.engine.expansion",
    "Turns": "mdp.engine.turns",
    "UnboundedWarning": "mdp.errors",
    "compile": "mdp.engine.compile",
    "CompiledModel": "mdp.engine.model",
    "RoundEnds": "mdp.engine.rounds",
    "Rounds": "mdp.engine.rounds",
    "RoundsSolution": "mdp.engine.rounds",
    "ModelInfo": "mdp.engine.model",
    "ragged_arange": "mdp.engine.groups",
    "offsets": "mdp.engine.groups",
    "slices": "mdp.engine.parallel",
    "on_cluster": "mdp.engine.cluster",
    "ActionValues": "mdp.engine.solution",
    "Solution": "mdp.engine.solution",
    "Solutions": "mdp.engine.solution",
    "solve": "mdp.engine.solve",
    "solve_many": "mdp.engine.solve",
    "Strategy": "mdp.analysis.strategy",
    "RoundsStrategy": "mdp.analysis.strategy",
    "Solved": "mdp.engine.solved",
    "choices": "mdp.engine.solution",
    "Policy": "mdp.engine.policy",
    "strategy_policy": "mdp.analysis.strategy",
    "evaluate": "mdp.analysis.strategy",
    "strategies": "mdp.analysis.strategy",
    "strategy_values": "mdp.analysis.strategy_table",
    "distribution": "mdp.analysis.distribution",
    "Simulation": "mdp.analysis.simulate",
    "Lengths": "mdp.analysis.lengths",
    "lengths": "mdp.analysis.lengths",
    "simulate": "mdp.analysis.simulate",
    "Advice": "mdp.analysis.advise",
    "advise": "mdp.analysis.advise",
    "Match": "mdp.analysis.match",
    "MatchRules": "mdp.analysis.match_rules",
    "match": "mdp.analysis.match",
    "match_rules": "mdp.analysis.match_rules",
    "later_player_values": "mdp.analysis.match",
    "match_table": "mdp.analysis.vary",
    "Reach": "mdp.analysis.targets",
    "at_least": "mdp.analysis.targets",
    "solve_table": "mdp.analysis.vary",
    "policy": "mdp.analysis.policy_table",
    "policy_pieces": "mdp.analysis.policy_table",
    "Pieces": "mdp.analysis.pieces",
    "action_labels": "mdp.analysis.labels",
    "Format": "mdp.outputs.formats",
    "Export": "mdp.outputs.exports",
    "report": "mdp.outputs.report",
    "Analysis": "mdp.analysis.registry",
    "Command": "mdp.program.registry",
    "analyse": "mdp.analysis.registry",
    "analyses": "mdp.analysis.registry",
    "commands": "mdp.program.registry",
    "exports": "mdp.outputs.registry",
    "formats": "mdp.outputs.registry",
    "write_table": "mdp.outputs.registry",
}

# What _LAZY serves, as a type checker sees it: the same names from the same modules
# (tests/test_types.py checks that the two agree).
if TYPE_CHECKING:
    from mdp.analysis.advise import Advice, advise
    from mdp.analysis.distribution import distribution
    from mdp.analysis.labels import action_labels
    from mdp.analysis.lengths import Lengths, lengths
    from mdp.analysis.match import Match, later_player_values, match
    from mdp.analysis.match_rules import MatchRules, match_rules
    from mdp.analysis.pieces import Pieces
    from mdp.analysis.policy_table import policy, policy_pieces
    from mdp.analysis.registry import Analysis, analyse, analyses
    from mdp.analysis.simulate import Simulation, simulate
    from mdp.analysis.strategy import RoundsStrategy, Strategy, evaluate, strategies, strategy_policy
    from mdp.analysis.strategy_table import strategy_values
    from mdp.analysis.targets import Reach, at_least
    from mdp.analysis.vary import match_table, solve_table
    from mdp.checks import did_you_mean
    from mdp.engine.cluster import on_cluster
    from mdp.engine.compile import compile
    from mdp.engine.expansion import Expansion
    from mdp.engine.groups import offsets, ragged_arange
    from mdp.engine.model import CompiledModel, ModelInfo
    from mdp.engine.parallel import slices
    from mdp.engine.policy import Policy
    from mdp.engine.rounds import RoundEnds, Rounds, RoundsSolution
    from mdp.engine.solution import ActionValues, Solution, Solutions, choices
    from mdp.engine.solve import solve, solve_many
    from mdp.engine.solved import Solved
    from mdp.engine.turns import Turns
    from mdp.errors import (
        CycleError,
        GameNotFound,
        MdpError,
        ModelError,
        ParamError,
        TooLarge,
        UnboundedWarning,
    )
    from mdp.game.columns import LazyColumn
    from mdp.game.load import Game, Objective, available_games, load_game
    from mdp.game.params import Param
    from mdp.game.parsers import INT_LIST, parse_choice, parse_int, parse_int_list, show_int_list
    from mdp.game.plugins import register_plugins
    from mdp.game.variants import Variant, read_variants
    from mdp.hookspecs import hookimpl, hookspec
    from mdp.limits import DEFAULT_MAX_STATES
    from mdp.outputs.exports import Export
    from mdp.outputs.formats import Format
    from mdp.outputs.registry import exports, formats, write_table
    from mdp.outputs.report import report
    from mdp.program.registry import Command, commands

    __version__: str

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
    "Lengths",
    "Policy",
    "RoundEnds",
    "Rounds",
    "RoundsSolution",
    "Reach",
    "Simulation",
    "Solution",
    "Solutions",
    "Strategy",
    "RoundsStrategy",
    "Solved",
    "TooLarge",
    "Turns",
    "UnboundedWarning",
    "Variant",
    "action_labels",
    "advise",
    "analyse",
    "analyses",
    "at_least",
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
    "lengths",
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
    "on_cluster",
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


def _lazy(name: str) -> Any:
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


if not TYPE_CHECKING:  # hidden from type checkers, which would take any name for one of mdp's
    __getattr__ = _lazy


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
