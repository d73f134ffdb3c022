"""Which of a game's hooks its play calls: a rule plugin's implementation of one that no
solve calls (or whose answer none reads) is refused as the game loads, where it would change
nothing, with no word. What is never called follows from the kind of game alone
(:func:`never_called`): played a stage at a time or a state at a time, in rounds or not."""

from __future__ import annotations

from collections.abc import Callable

import pluggy

from mdp.errors import ModelError
from mdp.hookspecs import game as specs

STATE_BY_STATE = ("mdp_actions", "mdp_outcomes", "mdp_terminal_value")
"""The hooks of a game played a state at a time (:mod:`mdp.hookspecs.game`)."""

STAGE_AT_A_TIME = ("mdp_stage", "mdp_expand")
"""The hooks of a game played a stage at a time, many states at once."""

ROUNDS = tuple(sorted(name for name in vars(specs)
                      if name.startswith("mdp_round_") and name != "mdp_round_start"))
"""The hooks of a game of rounds, all of the hookspecs' but the one that makes it one
(``mdp_round_start``, which answers ``None`` in a game that is not)."""

IN_ONE_MODEL = ("mdp_match_rules", "mdp_outcome_columns")
"""The hooks of a game of one model that a game of rounds never asks: its match compares
totals, and its outcomes are totals."""

ROW_BY_ROW = ("mdp_state_columns", "mdp_action_columns")
"""The hooks that name a table's rows one at a time, never asked where ``mdp_columns``
names them many at once."""

RULES = "docs/rule-plugins.rst"


def never_called(stages: bool, rounds: bool, batch_columns: bool = False) -> dict[str, str]:
    """The hooks that the play of a game of this kind never calls, or never reads the answer
    of, each with why: a game played a stage at a time (``stages``: its own modules give
    ``mdp_expand``) or a state at a time, in ``rounds`` or not, its rows named many at once
    (``batch_columns``: ``mdp_columns`` given) or one at a time."""
    never: dict[str, str] = {}
    if batch_columns:
        never |= dict.fromkeys(ROW_BY_ROW, "the game's rows are named by mdp_columns, many "
                               "states at once, and a rule plugin of it changes what that gives")
    if stages:
        never |= dict.fromkeys(STATE_BY_STATE, "the game is played a stage at a time "
                               "(mdp_expand), and a rule plugin of it changes what mdp_expand gives")
    else:
        never |= dict.fromkeys(STAGE_AT_A_TIME, "the game is played a state at a time "
                               "(mdp_actions, mdp_outcomes), and a rule plugin of it changes "
                               "what those give")
    if rounds:
        never["mdp_terminal_value"] = ("the game is played in rounds, where a round's end is "
                                       "worth mdp_round_rule's points, never this hook's answer")
        never |= dict.fromkeys(IN_ONE_MODEL, "the game is played in rounds, whose match compares "
                               "totals and whose outcomes are totals (docs/matches.rst)")
    else:
        never |= dict.fromkeys(ROUNDS, "the game is not played in rounds with these "
                               "settings (mdp_round_start gives None)")
    return never


def check_played(game: str, plugins: pluggy.PluginManager, own: Callable[[str], bool],
                 rounds: Callable[[], bool]) -> None:
    """Refuse a rule plugin's hook that the play of this game never calls
    (:func:`never_called`): a Shut the Box plugin that doubled the terminal value printed the
    plain game's value, and its rules line said the house rule was in force. The kind of
    game is its own modules' (:meth:`mdp.Game.own` of a plugin's name), which may give
    every hook; ``rounds`` says whether it is played in rounds, asked only where a plugin
    gives a hook that it decides. A plugin that wraps ``mdp_expand`` may give the hooks of a
    state at a time too (``mdp.compile(batch=False)`` calls them)."""
    def theirs(hook: str) -> list[str]:
        return [impl.plugin_name for impl in getattr(plugins.hook, hook).get_hookimpls()
                if not own(impl.plugin_name)]

    expanders = {impl.plugin_name for impl in plugins.hook.mdp_expand.get_hookimpls()}
    stages = any(map(own, expanders))
    given = {hook: names for hook in (*STATE_BY_STATE, *STAGE_AT_A_TIME, *ROUNDS, *IN_ONE_MODEL,
                                      *ROW_BY_ROW) if (names := theirs(hook))}
    if not given:
        return
    deciding = {"mdp_terminal_value", *ROUNDS, *IN_ONE_MODEL}
    never = never_called(stages, rounds() if deciding & set(given) else False,
                         bool(plugins.hook.mdp_columns.get_hookimpls()))
    for hook, names in given.items():
        for name in names:
            if hook in never and not (stages and hook in STATE_BY_STATE and name in expanders):
                raise ModelError(f"game {game}: plugin {name}'s {hook} would never be called: "
                                 f"{never[hook]} ({RULES})")
