"""How a game ends under a way of playing: the forward pass over the compiled model
(:func:`mdp.engine.sweep.forward`) gives the chance of reaching every state, then the chance
of every outcome (the terminal states grouped by the columns the game names,
:func:`~mdp.hookspecs.game.mdp_outcome_columns`)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import polars as pl

from mdp.analysis.totals import NotWhole, follow
from mdp.engine.arithmetic import objects
from mdp.engine.budget import size
from mdp.engine.model import CompiledModel
from mdp.engine.policy import Policy
from mdp.engine.rounds import Rounds, RoundsSolution, one_model
from mdp.engine.solution import Solution
from mdp.engine.sweep import forward
from mdp.errors import ModelError, TooLarge
from mdp.limits import default_max_memory

if TYPE_CHECKING:
    from mdp.game.load import Game


def playing(how: Solution | Policy, tie_break: Sequence[Any] = ()) -> Policy:
    """The policy that ``how`` stands for: a policy itself, or a solution's play (its
    policy, or optimal play with ties broken by ``tie_break``: :meth:`mdp.Solution.play`)."""
    if isinstance(how, Policy):
        if tie_break:
            raise ModelError("a tie-break applies to a solution's optimal play, not to a policy")
        return how
    return how.play(tie_break)


def reach(how: Solution | Policy, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The chance of reaching each state, in state order, playing as ``how`` says (a
    :class:`mdp.Policy`, or a solution's play): floats, or fractions in an object array when
    the policy is exact."""
    policy = playing(how, tie_break)
    model = policy.model
    if policy.exact:
        reached = objects([Fraction(0)] * model.n_states)
        table = objects([Fraction(x) for x in model.probabilities])
    else:
        reached = np.zeros(model.n_states)
        table = np.array([float(x) for x in model.probabilities])
    reached[model.initial] = 1
    chances = policy.probabilities
    return forward(model, lambda layer, a0, a1: chances[a0:a1], reached, table)


def outcome_columns(model: CompiledModel, game: Game | None = None) -> list[str]:
    """The columns of :attr:`model.terminals <mdp.CompiledModel.terminals>` that make an
    outcome: the game's (:func:`~mdp.hookspecs.game.mdp_outcome_columns`), else ``value``."""
    columns = list(game.call("mdp_outcome_columns") or []) if game is not None else []
    columns = columns or ["value"]
    missing = [c for c in columns if c not in model.terminals.columns]
    if missing:
        raise ModelError(f"game {model.info.game}: outcome columns {missing} are not columns of "
                         f"a terminal state ({', '.join(model.terminals.columns)})")
    return columns


def group(model: CompiledModel, columns: list[str], weights: np.ndarray) -> tuple[pl.DataFrame, np.ndarray]:
    """The distinct outcomes (sorted) and the sum of ``weights`` (one per terminal state)
    over each: floats, ints, or fractions in an object array."""
    keys = model.terminals.select(columns)
    outcomes = keys.unique().sort(columns, nulls_last=True)
    ids = (keys.with_row_index("row")
           .join(outcomes.with_row_index("group"), on=columns, how="left", nulls_equal=True)
           .sort("row")["group"].to_numpy())
    if weights.dtype == object:
        sums = objects([Fraction(0)] * outcomes.height)
        np.add.at(sums, ids, weights)
    else:
        sums = np.bincount(ids, weights=weights, minlength=outcomes.height)
        if weights.dtype.kind in "iu":
            sums = np.rint(sums).astype(np.int64)
    return outcomes.cast({c: pl.Int64 for c, t in outcomes.schema.items() if t.is_integer()}), sums


def distribution(how: Solution | Policy, game: Game | None = None, *,
                 tie_break: Sequence[Any] = (), progress: Callable[[str], None] | None = None,
                 max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of every outcome that can happen, as a Polars DataFrame: the outcome
    columns (those the game names; else ``value``), ``probability`` and, for an exact
    solution, ``exact`` (``"p/q"``). The probabilities sum to 1, exactly in exact mode. An
    outcome that this play never reaches (an end only other play leads to) is left out.

    Play is ``how``: a :class:`mdp.Policy`, or a solution's (a strategy's policy, or optimal
    play with its ties broken by ``tie_break`` and then the game's order: :func:`mdp.choices`).

    A game of rounds (a :class:`mdp.RoundsSolution`) ends with the points its rounds earned:
    the outcome is ``points``, the total, followed round by round through every round state
    (:func:`rounds_distribution`, which says how far it has got to ``progress`` and takes no
    more memory than ``max_memory``).

    >>> mdp.distribution(mdp.solve(model, exact=True), game)   # doctest: +SKIP
    """
    if isinstance(how, RoundsSolution):
        return rounds_distribution(how, tie_break, progress, max_memory)
    one_model("an exact outcome distribution", how)
    policy = playing(how, tie_break)
    model = policy.model
    columns = outcome_columns(model, game)
    outcomes, sums = group(model, columns, reach(policy)[: model.n_terminal])
    possible = np.array([s != 0 for s in sums], dtype=bool)
    outcomes, sums = outcomes.filter(pl.Series(possible)), sums[possible]
    frame = outcomes.with_columns(probability=pl.Series(np.asarray(sums, dtype=np.float64)))
    if policy.exact:
        frame = frame.with_columns(exact=pl.Series([f"{s.numerator}/{s.denominator}" for s in sums],
                                                   dtype=pl.String))
    return frame


MOST_ROUND_STATES = 5_000
"""Round states up to which a game of rounds is followed in exact numbers, or with a
tie-break: each round state's round solved and played forward on its own
(:func:`_one_by_one`)."""


def check_rounds(model: Rounds, *, exact: bool = False, tie_break: Sequence[Any] = (),
                 max_memory: int | None | Literal["default"] = "default") -> None:
    """Refuse (:class:`mdp.TooLarge`), before it is solved, a game of rounds whose chance of
    every total :func:`rounds_distribution` cannot follow: in exact numbers or with a
    tie-break, one of more than :data:`MOST_ROUND_STATES` round states; in floats, one whose
    totals of two rounds side by side, bounded by the least and the most points of each
    round, would take more than ``max_memory`` bytes (by default the share of the memory
    mdp may use that :func:`mdp.compile` allows a model)."""
    game = model.info.game
    if exact or tie_break:
        if model.n_round_states > MOST_ROUND_STATES:
            how = ("in exact numbers (at most {}); in floats they are followed a round at a time"
                   if exact else "with a tie-break (at most {}); without one, play takes the first "
                   "optimal action and they are followed a round at a time")
            raise TooLarge(f"game {game}: {model.n_round_states:,} round states, too many to "
                           "follow one by one for the chance of every total "
                           + how.format(f"{MOST_ROUND_STATES:,}"))
        return
    if max_memory == "default":
        max_memory = default_max_memory()
    need = _totals_bytes(model)
    if max_memory is not None and need > max_memory:
        raise TooLarge(f"game {game}: following the chance of every total may take up to "
                       f"{size(need)}, past the budget of {size(max_memory)}; raise it with "
                       "--max-memory (max_memory= in Python), or estimate the chances with mdp "
                       "simulate")


def _totals_bytes(model: Rounds) -> int:
    """A bound of the memory that the chances of every total take, two rounds side by side:
    each round state of a round with a float for every total from the least points of the
    rounds before it to the most."""
    low = high = 0
    sizes = [1]
    for (least, most), keys in zip(model.points(), model.keys[1:]):
        low, high = low + math.floor(least), high + math.ceil(most)
        sizes.append(len(keys) * (high - low + 1))
    return 8 * max(a + b for a, b in zip(sizes, sizes[1:] + [0]))


def rounds_distribution(solution: RoundsSolution, tie_break: Sequence[Any] = (),
                        progress: Callable[[str], None] | None = None,
                        max_memory: int | None | Literal["default"] = "default") -> pl.DataFrame:
    """The chance of every total of points of a game of rounds under optimal play. Columns
    ``points``, ``probability`` and, solved exactly, ``exact``; ties are broken by
    ``tie_break`` and then the game's order (the first optimal action, floats within
    :data:`~mdp.engine.policy.FLOAT_TIE` of the best tied).

    In floats without a tie-break, the round states of a round are followed many at a time,
    each carrying the chance of every total so far (:mod:`mdp.analysis.totals`): points in
    whole numbers. In exact numbers, with a tie-break, or where points are not whole, each
    round state is followed on its own (at most :data:`MOST_ROUND_STATES` of them).
    :func:`check_rounds` refuses, with ``max_memory``, what cannot be followed."""
    model = solution.model
    check_rounds(model, exact=solution.exact, tie_break=tie_break, max_memory=max_memory)
    if solution.exact or tie_break:
        return _one_by_one(solution, tie_break)
    try:
        low, chances = follow(solution, progress)
    except NotWhole as error:
        if model.n_round_states > MOST_ROUND_STATES:
            raise TooLarge(f"game {model.info.game}: {error}: the chance of every total is "
                           "followed a round at a time for whole points only, and each round "
                           f"state on its own for at most {MOST_ROUND_STATES:,} round states, "
                           f"not {model.n_round_states:,}; mdp simulate estimates it") from None
        return _one_by_one(solution)
    reached = np.flatnonzero(chances > 0)
    return pl.DataFrame({"points": reached + low, "probability": chances[reached]})


def _one_by_one(solution: RoundsSolution, tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """:func:`rounds_distribution` a round state at a time: each one's round solved
    (:meth:`mdp.RoundsSolution.at`) and its play pushed forward to the round's ends, each end
    passing on the chance of every total so far, moved by its points, to the round state it
    leads to; exact where the solution is."""
    model = solution.model
    one = Fraction(1) if solution.exact else 1.0
    now: dict[int, dict[Any, Any]] = {model.start: {0: one}}
    ended: dict[Any, Any] = defaultdict(lambda: one * 0)
    for _ in range(model.n_rounds + 1):
        after: dict[int, dict[Any, Any]] = defaultdict(lambda: defaultdict(lambda: one * 0))
        keys = np.array(sorted(now), dtype=np.int64)
        ends = model.ends(keys)
        for row, key in enumerate(keys.tolist()):
            totals = now[key]
            if ends.next[row].max() < 0:  # the game is over
                for total, chance in totals.items():
                    ended[total] += chance
                continue
            chances = reach(solution.at(key), tie_break)[: model.round.n_terminal]
            for end in np.flatnonzero(chances != 0).tolist():
                nxt, points = int(ends.next[row, end]), ends.points[row, end]
                points = Fraction(points.item()) if solution.exact else float(points)
                for total, chance in totals.items():
                    after[nxt][total + points] += chance * chances[end]
        now = after
    if now:  # round states still playing past the last round: cannot be, see compile_rounds
        raise ModelError(f"game {model.info.game}: games still playing after its last round")
    totals = sorted(ended)
    whole = all(t == int(t) for t in totals)  # points in whole numbers, as a rule
    frame = pl.DataFrame({"points": [int(t) if whole else float(t) for t in totals],
                          "probability": [float(ended[t]) for t in totals]})
    if solution.exact:
        frame = frame.with_columns(exact=pl.Series([f"{ended[t].numerator}/{ended[t].denominator}"
                                                    for t in totals], dtype=pl.String))
    return frame


PERCENTILES = (5, 25, 50, 75, 95)


def spread(frame: pl.DataFrame) -> dict[str, Any]:
    """The mean, the standard deviation and the percentiles of a distribution of points (a
    game of rounds' ``points`` and ``probability``): each percentile the least total whose
    chance up to it reaches the share, as :attr:`mdp.Simulation.percentiles` counts games."""
    points, chances = frame["points"].to_numpy().astype(np.float64), frame["probability"].to_numpy()
    mean = float(chances @ points)
    sd = math.sqrt(max(float(chances @ (points - mean) ** 2), 0.0))
    # Float chances may fall short of a share by the last bits: a margin of 1e-12.
    cumulative = np.cumsum(chances)
    at = [min(int(np.searchsorted(cumulative, p / 100 - 1e-12)), len(points) - 1) for p in PERCENTILES]
    return {"mean": mean, "sd": sd,
            "percentiles": {f"{p}%": frame["points"][i] for p, i in zip(PERCENTILES, at)}}
