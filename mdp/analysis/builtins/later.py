"""What ``mdp advise`` does that differs by the kind of the game's model, once each: a later
player of a match (``--after``) of a game of one model plays for money by the game's match
rules; of a game of rounds, the second player plays knowing the first's total. Imported when
advice is made, not as the commands are listed (it reads the engine's models)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs

import mdp
from mdp.analysis.builtins.options import first_total
from mdp.errors import ParamError
from mdp.shown import shown_float

if TYPE_CHECKING:
    from mdp.engine.solved import Solved


@functools.singledispatch
def check_advised(model: Any, game: mdp.Game, args: Any, columns: dict[str, Any]) -> None:
    """Refuse, before the solve, results of the players before that none can have
    (``--after``), and ``--points``, which is for a game of rounds."""
    from mdp.analysis.match import check_results, not_playing

    if args.points:
        raise ParamError(f"--points: the points so far in a game of rounds; game {game.name} is "
                         "of one model, whose state holds all there is")
    if args.after:
        check_results(model, game, list(args.after))
        for k in range(1, len(args.after)):  # a result of a player who never played
            why = not_playing(model, game, list(args.after[:k]))
            if why is not None:
                raise ParamError(f"--after {args.after[k]}: player {k + 1} does not play after "
                                 f"{', '.join(map(str, args.after[:k]))} ({why}); give --after "
                                 "for the players who played")


@check_advised.register(mdp.Rounds)
def _(model: mdp.Rounds, game: mdp.Game, args: Any, columns: dict[str, Any]) -> None:
    """The first player's total (``--after``) one a game ends with, and the points so far
    (``--points``) ones the round state named is reached with, toward a total or after."""
    if args.after or args.at_least is not None:
        check_reached(model, game, columns, args.after, args.points)


def check_reached(model: mdp.Rounds, game: mdp.Game, columns: dict[str, Any],
                  after: Any, points: int, *, command: bool = True) -> None:
    """The first's total ``after`` (if given) one a game ends with, and ``points`` so far
    ones the round state ``columns`` name is reached with: on the command line before the
    solve (:func:`check_advised`), and as the advice is made, for Python's (not
    ``command``: the options named as Python's)."""
    from mdp.analysis.targets import check_earned
    from mdp.engine.rounds.payoff import beating

    check_earned(model, game, first=first_total(after, command=command) if after else None,
                 columns=columns, points=points,
                 payoff=beating(model.info.objective.sense) if after else None, command=command)


@functools.singledispatch
def advised_after(model: Any, solution: Solved, game: mdp.Game, columns: dict[str, Any],
                  after: tuple[Any, ...], points: int) -> tuple[mdp.Advice, Solved, str | None]:
    """The advice for the player after the results ``after``, playing for money by the
    game's match rules, the solution it is drawn from, and why they do not play where the
    match is decided before (no action is advised then; else ``None``)."""
    from mdp.analysis.match import not_playing

    money = mdp.later_player_values(model, game, list(after), exact=solution.exact)
    solution = mdp.solve(model, terminal=money, exact=solution.exact, sense="max")
    why = not_playing(model, game, list(after))  # the match is decided: no move to advise
    advice = mdp.advise(solution, game, **columns)
    return (advice if why is None else attrs.evolve(advice, actions=advice.actions.clear()),
            solution, why)


@advised_after.register(mdp.Rounds)
def _(model: mdp.Rounds, solution: Solved, game: mdp.Game, columns: dict[str, Any],
      after: tuple[Any, ...], points: int) -> tuple[mdp.Advice, Solved, str | None]:
    """The advice for the second player, the first's total ``after``, with ``points``
    earned so far: played as :func:`mdp.match` plays them
    (:func:`~mdp.analysis.targets.rounds_match`), for the best expected winnings, 1 past that
    total, 0 at it, -1 short of it; each action's value is those winnings."""
    from mdp.analysis.advise import advice_at
    from mdp.engine.rounds.payoff import beating
    from mdp.engine.rounds.reach import solve_reach
    from mdp.engine.rounds.toward import located

    reach = solve_reach(model, exact=solution.exact, payoff=beating(model.info.objective.sense))
    return advice_at(located(reach, game, columns, first_total(after) - points), game), solution, None


@functools.singledispatch
def after_line(model: Any, advice: mdp.Advice, solution: Solved, after: tuple[Any, ...],
               game: mdp.Game, points: Any = 0) -> str:
    """The line that says whom ``mdp advise --after`` advised (in a game of rounds, with the
    ``points`` so far), and what the values are."""
    outcome = mdp.match_rules(game).outcome
    return (f"player {len(after) + 1}, the last of a match of {len(after) + 1}, after "
            + ", ".join(f"player {k}'s {outcome} {r}" for k, r in enumerate(after, start=1))
            + f": expected winnings {shown_float(solution.value):.6g}")


@after_line.register(mdp.Rounds)
def _(model: mdp.Rounds, advice: mdp.Advice, solution: Solved, after: tuple[Any, ...],
      game: mdp.Game, points: Any = 0) -> str:
    actions = advice.actions
    best = f", {shown_float(actions['value'][0]):.6g} at best" if actions.height else ""
    beyond, short = ("below", "above") if model.info.objective.sense == "min" else ("past", "short of")
    return (f"player 2 of a match, after player 1's total {first_total(after)}, with {points} "
            f"points so far, plays to beat it (1 stake {beyond} it, 0 at it, -1 {short} it; as "
            f"mdp match): each action's value is the expected winnings{best}")


@functools.singledispatch
def ended(model: Any) -> str:
    """What a state with no actions is, where the game is not over at the round state."""
    return "game is over"


@ended.register(mdp.Rounds)
def _(model: mdp.Rounds) -> str:
    return "round ends here"  # an end of the round: play goes on
