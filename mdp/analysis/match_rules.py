"""The rules of a match of a one-player game (:class:`MatchRules`, from the game's
:func:`~mdp.hookspecs.game.mdp_match_rules`), checked as they enter (:func:`match_rules`):
what a player's result is, what each player receives, and the parameters the match alone
reads, or that it does not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from mdp.checks import GAME, arguments
from mdp.engine.checks import shown
from mdp.errors import ModelError, ParamError
from mdp.game.load import Game
from mdp.game.params import check_default


def _names(names: Any) -> Any:
    """Names of parameters as a tuple; one text kept as it is, to be refused where the rules
    enter (:func:`_checked_rules`), not read letter by letter."""
    return names if isinstance(names, str) else tuple(names)


@attrs.frozen
class MatchRules:
    """How a match of a one-player game is scored (see :func:`~mdp.hookspecs.game.mdp_match_rules`)."""

    outcome: str
    """The column of :attr:`mdp.CompiledModel.terminals` that is a player's result."""
    payoff: Callable[[np.ndarray], Any] = attrs.field(repr=False)
    """Results (one row per match, one column per player, in playing order) -> what each
    player receives, the same shape: integers or fractions (exact), each a size a float holds
    (0, or 2.2e-308 to 1.8e308), each row's by that row alone (some rows are asked alone)."""
    params: tuple[str, ...] = attrs.field(default=(), converter=_names)
    """The parameters that only the match reads (what a winner is paid, say): they change
    no state, so a table over them compiles the game once (one that a hook making the
    states reads, ``params["bonus"]`` or ``game.params["bonus"]``, is refused as the table
    compiles it; a value a hook kept from another call is not seen: hooks read what they
    are handed)."""
    decided: Callable[[tuple[int, ...]], str | None] | None = attrs.field(default=None, repr=False)
    """The results of the players so far (in playing order) -> why the players after them
    do not play, in words (``"player 1 ... won at once"``), or ``None`` where they play on;
    left out, every player plays. ``mdp advise --after`` says so instead of advising."""
    ignores: tuple[str, ...] = attrs.field(default=(), converter=_names, kw_only=True)
    """The parameters that the game alone reads and the match does not (how a game alone is
    scored, where the match compares the ``outcome``): a match with one set otherwise than
    by its default is refused, as it is not the match the parameter names."""



def _checked_rules(game: Game) -> MatchRules:
    """The game's match rules, as they enter: :class:`mdp.ModelError` if it has none, or
    they are not rules."""
    arguments("match_rules", game=(game, GAME))
    rules = game.call("mdp_match_rules")
    if rules is None and game.in_rounds:
        raise ParamError(f"game {game.name} is played in rounds: its match compares the players' "
                         "totals (mdp match, mdp.match), and it has no match rules "
                         "(mdp_match_rules) to score the results of earlier players by")
    if rules is None and game.implements("mdp_round_start"):  # rounds under other parameters
        raise ParamError(f"game {game.name} is not played in matches: it has no match rules "
                         "(mdp_match_rules), and under these parameters it is not played in "
                         "rounds, whose match compares the players' totals")
    if rules is None:
        raise ModelError(f"game {game.name} is not played in matches "
                         "(it does not implement mdp_match_rules)")
    problem = None
    if not isinstance(rules, MatchRules):
        problem = f"returned {shown(rules)}; expected an mdp.MatchRules"
    elif not isinstance(rules.outcome, str):
        problem = f"gave the outcome {shown(rules.outcome)}; expected the name of a column (a str)"
    elif not callable(rules.payoff):
        problem = f"gave the payoff {shown(rules.payoff)}; expected a function of the results"
    elif isinstance(rules.params, str) or isinstance(rules.ignores, str):  # read letter by letter
        which = "params" if isinstance(rules.params, str) else "ignores"
        problem = (f"gave the {which} {shown(getattr(rules, which))}, one text; expected a tuple of "
                   f"names of parameters ({(getattr(rules, which),)!r})")
    elif not all(isinstance(name, str) for name in (*rules.params, *rules.ignores)):
        problem = (f"gave the params {shown(rules.params)} and ignores {shown(rules.ignores)}; "
                   "expected names of parameters (str)")
    elif rules.decided is not None and not callable(rules.decided):
        problem = f"gave decided {shown(rules.decided)}; expected a function of the results or None"
    elif not set(rules.params) <= {p.name for p in game.declared} or \
            len(set(rules.params)) != len(rules.params):
        problem = f"gave the params {shown(rules.params)}; expected names of the game's parameters, each once"
    elif not set(rules.ignores) <= {p.name for p in game.declared}:
        problem = f"gave ignores {shown(rules.ignores)}; expected names of the game's parameters"
    elif set(rules.ignores) & set(rules.params):
        both = sorted(set(rules.ignores) & set(rules.params))
        problem = (f"names {', '.join(both)} in params (read by the match alone) and in ignores "
                   "(not read by it); one or the other")
    if problem:
        raise ModelError(f"game {game.name}: mdp_match_rules {problem}")
    return rules


def match_rules(game: Game) -> MatchRules:
    """The game's match rules, checked (:class:`mdp.ModelError` if it has none, or they are
    not rules; :class:`mdp.ParamError` where a parameter that the match does not read is
    set); what their payoff gives is checked where it is called (:func:`_payoffs`)."""
    rules = _checked_rules(game)
    for param in (p for p in game.declared if p.name in rules.ignores):
        default = None if param.default is None else check_default(f"game {game.name}", param)
        if game.params[param.name] != default:
            variant = next((v for v in game.variants() if v.name == game.variant), None)
            ours = variant is not None and param.name in variant.params  # not the user's
            shown = "" if default is None else game.shown(param, default)
            raise ParamError(f"{param.name}={game.shown(param, game.params[param.name])}"
                             f"{f', which --variant {game.variant} sets' if ours else ''}: a match "
                             f"of game {game.name} compares the players' {rules.outcome} and "
                             f"does not read {param.name}, which scores a game alone; "
                             + (f"set it back with --set {param.name}={shown}" if ours else "leave it out"))
    return rules


def match_params(game: Game) -> tuple[str, ...]:
    """The parameters that only a match of ``game`` reads (they change no state): its match
    rules' (:attr:`MatchRules.params`); none for a game of rounds, whose match compares
    totals."""
    return () if game.in_rounds else _checked_rules(game).params
