"""``mdp advise``: every action of one state, best first; toward a total (``--at-least``,
with :mod:`~mdp.analysis.builtins.targets`), or for a later player of a match (``--after``),
who plays for money: of a game of one model by its match rules, of a game of rounds the second
player, knowing the first's total (what differs by the model's kind is said once each, below)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import attrs

import mdp
from mdp.analysis.builtins import targets as toward
from mdp.analysis.builtins.against import AGAINST, against_check, matched
from mdp.analysis.builtins.options import as_given, column, first_total
from mdp.analysis.builtins.options import state as state_columns
from mdp.analysis.registry import Analysis
from mdp.errors import ParamError
from mdp.game.params import Param
from mdp.hookspecs import hookimpl
from mdp.outputs.readable import fixed, fixed_exact, readable, value_name, within
from mdp.shown import percent

if TYPE_CHECKING:
    import polars as pl

    from mdp.engine.solved import Solved


@attrs.frozen
class Advised:
    """What ``advise`` answers: the advice, and the solution it was drawn from (for a later
    player of a match, ``after`` the results of the players before, the one that plays for
    money)."""

    advice: mdp.Advice
    solution: Solved
    after: tuple[Any, ...] = ()
    at_least: int | None = None
    """Played toward a total: at least how many points in all."""
    points: int | None = None
    """The points so far of the player advised in a game of rounds (toward a total, or after
    the first player's)."""
    rounds: bool = False
    """Of a game of rounds: its values are the points still to score from the state on."""
    decided: str | None = None
    """Why the player advised after ``after`` does not play (the match rules'
    :attr:`~mdp.MatchRules.decided`); no action is advised then."""


def _advise(solution: Solved, game: mdp.Game, state: tuple[Any, ...],
            after: tuple[Any, ...], at_least: int | None = None, points: int = 0,
            against: str | None = None) -> Advised:
    columns = state_columns(state)
    if at_least is not None:
        toward.own_play(solution, after=after, against=against)
        _reached(solution.model, game, columns, (), points)
        advice = toward.advice_toward(solution, game, columns, at_least, points)
        return Advised(advice, solution, (), at_least, points)
    if points and not after:  # (the command line refuses it before any work)
        raise ParamError("points is the points earned so far toward at_least (or, advising, "
                         "to beat after's total); give at_least or after too")
    solution = matched(solution, game, against)
    if after and solution.strategy is not None:
        raise ParamError("after: a later player of a match plays for money, not by a "
                         "strategy; give the optimal solution")
    if after:
        from mdp.analysis.builtins.later import advised_after

        _reached(solution.model, game, columns, after, points)
        advice, solution, why = advised_after(solution.model, solution, game, columns, after, points)
        return Advised(advice, solution, after, points=points if game.in_rounds else None,
                       decided=why)
    return Advised(mdp.advise(solution, game, **columns), solution, after, rounds=game.in_rounds)


def _reached(model: Any, game: mdp.Game, columns: dict[str, Any], after: tuple[Any, ...],
             points: int) -> None:
    """In a game of rounds, what the command line checks before the solve
    (:func:`~mdp.analysis.builtins.later.check_reached`), checked for Python's."""
    if isinstance(model, mdp.Rounds):
        from mdp.analysis.builtins.later import check_reached

        check_reached(model, game, columns, after, points, command=False)


def _advise_check(args: argparse.Namespace) -> None:
    toward.check_toward(args, "--after")
    if args.after:
        from mdp.analysis.match import check_players  # here: listing the commands needs no NumPy

        check_players(len(args.after) + 1)
    if getattr(args, "at_least", None) is not None and args.against:
        raise ParamError("--at-least plays a game of rounds toward a total; --against is for "
                         "a game of two players: give one or the other")
    if args.after and (args.strategy or args.sense or args.against):
        raise ParamError("--after advises a player of a match, who plays for money: "
                         "--strategy, --against, --maximize and --minimize do not apply")


def _played_in_matches(game: mdp.Game, args: argparse.Namespace) -> None:
    """``--after`` advises a player of a match: the game has match rules; the columns name
    columns of the game's states. Before any work."""
    against_check(game, args)
    toward.check_toward_game(game, args)
    if args.after:
        check_after(game, args.after)
    from mdp.analysis.advise import check_columns  # here: listing the commands needs no NumPy

    check_columns(game, state_columns(args.state))


def _show_advice(advised: Advised, solution: Solved, game: mdp.Game) -> None:
    advice = advised.advice
    print(game.describe())
    if advised.after:
        from mdp.analysis.builtins.later import after_line

        print(after_line(advised.solution.model, advised.advice, advised.solution, advised.after, game,
                         advised.points))
    if advised.decided is not None:
        print(f"player {len(advised.after) + 1} does not play: {advised.decided}")
        return
    if advised.at_least is not None:
        print(f"toward at least {advised.at_least} points, {advised.points} so far: each "
              "action's value is its best chance")
    played = _played(advised)
    if played:  # not optimal play to the objective's own aim: said, as mdp solve says it
        print(f"values: {played['values']}")
    print("state: " + (", ".join(f"{k} {readable(v)}" for k, v in advice.state.items() if v is not None)
                       or "every column empty"))
    if not advice.actions.height:  # in a game of rounds, an end of the round: play goes on
        from mdp.analysis.builtins.later import ended

        print("no actions: the " + ("game is over here" if advice.over else ended(solution.model)))
        return
    if note := within(advised.solution, max(abs(v) for v in advice.actions["value"].to_list())):
        print("values" + note.removeprefix(","))
    from mdp.game.columns import TABLE_COLUMNS  # (NumPy: here, not for --help)

    names = [c for c in advice.actions.columns if c not in TABLE_COLUMNS]  # the game's
    shown = {n: [readable(v) for v in advice.actions[n].to_list()] for n in names}
    shown.update(_shown_values(advice.actions))
    # Each column as wide as its widest (at least 10, and 12 for the numbers: 0.5000000000).
    wide = {c: max(12 if c not in names else 10, len(c), *map(len, texts)) for c, texts in shown.items()}
    print("  ".join(f"{c:>{wide[c]}}" for c in shown))
    for at, row in enumerate(advice.actions.iter_rows(named=True)):
        mark = "  optimal" if row["optimal"] else ""
        chance = row.get("probability") or 0  # the strategy's own move, how often it plays it
        mark += ("  played" + ("" if chance == 1 else f" {percent(chance)}")) if chance else ""
        print("  ".join(f"{shown[c][at]:>{wide[c]}}" for c in shown) + mark)


def _shown_values(actions: pl.DataFrame) -> dict[str, list[str]]:
    """Each action's value and regret as people read them: exactly, from the fractions,
    where the solve was exact (one that no float holds by its size, by that size: never a
    float's 0 for a value or regret that is not 0); in floats, an action that ties with the
    best (optimal, within the floats' tie) with a regret of 0, what floats give there being
    their rounding (the table and JSON keep it as it is)."""
    if "value_exact" in actions.columns:
        from fractions import Fraction

        return {name: [fixed_exact(Fraction(text)) for text in actions[f"{name}_exact"].to_list()]
                for name in ("value", "regret")}
    tied = actions["optimal"].to_list()
    return {"value": [fixed(v) for v in actions["value"].to_list()],
            "regret": [fixed(0.0 if optimal else v) for v, optimal in zip(actions["regret"].to_list(), tied)]}


def _played(advised: Advised) -> dict[str, Any]:
    """What the values of advice are of, where not optimal play to the objective's own aim
    (``--strategy``, ``--against``, ``--minimize``) or in a game of rounds (the points still
    to score, not the total): in words (``values``, as the value line of mdp solve names it),
    and the strategy played, the other player's and the aim (``sense``), as ``--json`` gives
    them."""
    solution = advised.solution
    name = value_name(solution)
    if advised.after or advised.at_least is not None:
        return {}  # (a match, played for money; toward a total: said as such)
    if advised.rounds:
        return {"values": ROUNDS_VALUES + ("" if name == solution.objective.name else f"; {name}"),
                **_play(advised, name)}
    return {"values": name, **_play(advised, name)} if name != solution.objective.name else {}


ROUNDS_VALUES = "the points still to score from this state on, not those already scored"
"""What advice's values are of in a game of rounds, in words."""


def _play(advised: Advised, name: str) -> dict[str, Any]:
    """The strategy played, the other player's and the aim (``sense``), where not optimal play
    to the objective's own aim."""
    solution = advised.solution
    if name == solution.objective.name:
        return {}
    policy, opponent = getattr(solution, "policy", None), getattr(solution, "opponent", None)
    strategy = getattr(policy, "name", str(solution.strategy))
    return {**({} if solution.strategy is None else {"strategy": strategy}),
            **({} if opponent is None else {"against": opponent.name}),
            **({} if solution.sense == solution.objective.sense else {"sense": solution.sense})}


def _against(advised: Advised) -> dict[str, Any]:
    """What the values of advice are against, beside each action and in ``--json``: a later
    player of a match, each earlier player's result as given (``after_1``, ...); played toward
    a total, ``at_least`` as the table of ``mdp targets`` names the total; in a game of rounds,
    the ``points`` so far."""
    return {**{f"after_{k}": str(result) for k, result in enumerate(advised.after, 1)},
            **({} if advised.at_least is None else {"at_least": advised.at_least}),
            **({} if advised.points is None else {"points": advised.points})}


def _table(advised: Advised) -> pl.DataFrame:
    """The actions ``mdp advise`` advised, with what their values are against (:func:`_against`)
    beside each."""
    import polars as pl

    from mdp.game.names import one_name

    against = _against(advised)
    added = {one_name(name): name for name in against}
    clash = [(name, added[one_name(name)]) for name in advised.advice.actions.columns
             if one_name(name) in added]
    if clash:  # the game's own column would be replaced, or read as advice's beside it
        name, ours = clash[0]
        read = "" if name == ours else f" (read as {ours!r})"
        raise mdp.ModelError(f"game {advised.solution.model.info.game}: an action has a column "
                             f"{name!r}{read}, which advice adds beside each action "
                             f"({', '.join(against)}: what its values are against); name it otherwise")
    return advised.advice.actions.with_columns(**{
        name: pl.lit(value, dtype=pl.Int64 if isinstance(value, int) else pl.String)
        for name, value in against.items()})


ADVISE = Analysis(
    "advise", "every action of one state, best first", _advise,
    [Param("state", None, column, "the state, by its columns as the policy table shows them, e.g. "
           'open="1 2 3 5 8" roll=9',
           metavar="COLUMN=VALUE", repeat=True, positional=True),
     Param("after", (), as_given, "advise the next player of a match, who plays for money after a "
           "player whose result was RESULT (repeat for each earlier player)", metavar="RESULT",
           repeat=True), toward.AT_LEAST, toward.POINTS, AGAINST],
    "Name a state by its columns and print every action there, best first, with its value, its "
    "regret and whether it is optimal (for --strategy, of taking it and playing on so; in a game "
    "of rounds, the points still to score from that state on).",
    table=_table,
    check=_advise_check, check_game=_played_in_matches,
    check_model=lambda model, args: _advise_model(model, args, state_columns(args.state)),
    summary=lambda advised, solution: {
        **solution.model.info.summary(), **advised.advice.summary(), **_against(advised),
        **_played(advised),
        **({} if advised.decided is None else {"does_not_play": advised.decided}),
        **({} if getattr(solution, "residual", None) is None else {"residual": solution.residual})},
    show=_show_advice, rounds=True)


def check_after(game: mdp.Game, after: Any) -> None:
    """``--after`` advises a player of a match, before any work: of a game of rounds, the
    second, after the first's total; else a later one, by the game's match rules."""
    if game.in_rounds:
        first_total(after)
    else:
        mdp.match_rules(game)


def _advise_model(model: Any, args: argparse.Namespace, state: dict[str, Any]) -> None:
    """``mdp advise``'s checks once compiled: ``--at-least``, the results of ``--after``,
    and the state named."""
    from mdp.analysis.builtins import presolve
    from mdp.analysis.builtins.later import check_advised

    toward.check_toward_model(model, args)
    presolve.advice(model, args.loaded, state)
    check_advised(model, args.loaded, args, state)


@hookimpl
def mdp_analyses() -> list[Analysis]:
    return [ADVISE]
