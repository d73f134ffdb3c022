"""How a game of one model ends under a way of playing: the chance of reaching every state
(the forward pass, :func:`mdp.engine.sweep.forward`), games played at random, and their
outcomes: the terminal states grouped by the columns the game names
(:func:`~mdp.hookspecs.game.mdp_outcome_columns`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import polars as pl

from mdp.engine.arithmetic import objects
from mdp.engine.cycles import MOST_EXACT
from mdp.engine.cycles_ending import check_ends
from mdp.engine.model import CompiledModel
from mdp.engine.parallel import side_by_side
from mdp.engine.policy import Policy
from mdp.engine.sweep import forward
from mdp.errors import ModelError, ParamError, TooLarge
from mdp.game.columns import TURNS_COLUMNS, free, unused

if TYPE_CHECKING:
    from mdp.game.load import Game

CHUNK = 1 << 20
"""Games played together: memory stays small and the arrays stay in cache. Fixed, so that the
same seed gives the same numbers."""


class Played(Protocol):
    """What a way of playing is read for here: a :class:`mdp.Solution` (its play, and the
    terminal values it was solved with), as this module needs nothing else of it."""

    @property
    def model(self) -> CompiledModel: ...

    @property
    def terminal_values(self) -> Any: ...

    @property
    def opponent(self) -> Policy | None: ...

    @property
    def exact(self) -> bool: ...

    def as_policy(self, tie_break: Sequence[Any] = ()) -> Policy: ...


def playing(how: Played | Policy, tie_break: Sequence[Any] = ()) -> tuple[Policy, Policy]:
    """The policies that ``how`` stands for, the first player's and the second's (the same
    one in a game of one player, or where both play alike): a policy itself, or a
    solution's play (its policy, or optimal play with ties broken by ``tie_break``:
    :meth:`mdp.Solution.as_policy`; in a game of two players, the other's play beside it,
    :attr:`mdp.Solution.opponent`)."""
    if isinstance(how, Policy):
        if tie_break:
            raise ModelError("a tie-break applies to a solution's optimal play, not to a policy")
        # A solution's play was checked as it was solved (optimal play ends by its rule).
        check_ends(how.model, how.probabilities, f"playing {how.name}")
        return how, how
    first = how.as_policy(tie_break)
    second = (how.opponent if how.model.turns is not None else None) or first
    if not how.exact:  # a solve in floats plays in floats, whatever policies it was given
        floats = {id(p): Policy(p.model, p.as_floats(), p.name) if p.exact else p
                  for p in (first, second)}
        first, second = floats[id(first)], floats[id(second)]
    return first, second


def reach(how: Played | Policy, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The chance of reaching each state, in state order, playing as ``how`` says (a
    :class:`mdp.Policy`, or a solution's play): floats, or fractions in an object array when
    the policy is exact."""
    policy = playing(how, tie_break)[0]
    model = policy.model
    if model.cyclic is not None or model.turns is not None:
        raise ParamError(f"game {model.info.game}: the chance of reaching each state is one "
                         f"pass only in a game of one player without cycles (this one is "
                         f"{_kind(model)}): reach_returning follows it")
    if policy.exact:
        reached = objects([Fraction(0)] * model.n_states)
        table = objects([Fraction(x) for x in model.probabilities])
    else:
        reached = np.zeros(model.n_states)
        table = np.array([float(x) for x in model.probabilities])
    reached[model.initial] = 1
    chances = policy.probabilities
    return forward(model, lambda layer, a0, a1: chances[a0:a1], reached, table)


def visits(how: Played | Policy, tie_break: Sequence[Any] = ()) -> np.ndarray:
    """The expected visits of each state playing as ``how`` says, whatever the kind of
    model: one column, or, in a game of two players, two (the first player to move there,
    the second); exact where the play is. For a terminal state, the chance of ending there."""
    from mdp.engine.flows import reach_returning  # here: few games have cycles

    first, second = playing(how, tie_break)
    model = first.model
    if model.one_pass:
        return reach(first)[:, None]
    if first.exact and model.n_states > MOST_EXACT:
        raise TooLarge(f"game {model.info.game}: the exact chance of reaching each state of a "
                       f"game {_kind(model)} is worked out for at most {MOST_EXACT:,} states, "
                       f"and this one has {model.n_states:,}: leave out exact")
    return reach_returning(model, first.probabilities, second=second.probabilities)


def _returning(model: CompiledModel, columns: list[str], ends: np.ndarray) -> pl.DataFrame:
    """The chance of every outcome of a game with cycles or two players from the chance of
    ending at each terminal state (a column, or two: :func:`visits`); in a game of two
    players, by who is to move at the end (``player``: ``first`` or ``second``), as
    :func:`simulated` counts them."""
    frames = []
    for c, player in enumerate(("first", "second")[:ends.shape[1]]):
        outcomes, sums = group(model, columns, ends[:, c])
        frame = outcomes.with_columns(probability=pl.Series(np.asarray(sums, dtype=np.float64)))
        if ends.dtype == object:
            frame = frame.with_columns(exact=pl.Series([f"{s.numerator}/{s.denominator}"
                                                        for s in sums], dtype=pl.String))
        if model.turns is not None:
            frame = frame.with_columns(player=pl.lit(player))
        frames.append(frame.filter(pl.col("probability") > 0))
    return pl.concat(frames)


def _kind(model: CompiledModel) -> str:
    return "that two players take in turns" if model.turns is not None \
        else "whose states may come back"


def _of_two_players(model: CompiledModel, columns: list[str],
                    ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, pl.DataFrame]:
    """The games of a game two players take in turns, by where they ended and who was to
    move there (``player``: ``first`` or ``second``), each end's value the first player's
    (the terminal value, or ``total`` less it where the second player is to move)."""
    assert model.turns is not None
    n = model.n_terminal
    value = np.asarray(model.terminal_values, dtype=np.float64)
    values = np.concatenate([value, float(model.turns.total) - value])
    frames = []
    for player, counts in (("first", ends[:n]), ("second", ends[n:])):
        outcomes, games = group(model, columns, counts)
        frames.append(outcomes.with_columns(player=pl.lit(player), games=pl.Series(games))
                      .filter(pl.col("games") > 0))
    return values[ends > 0], ends[ends > 0], pl.concat(frames)


def _drawn(first: Policy, second: Policy, states: np.ndarray, turned: np.ndarray,
           rng: np.random.Generator) -> np.ndarray:
    """An action for each of ``states``: the first player's policy draws it, or, where
    ``turned``, the second's (one draw of all where both play alike)."""
    if first is second:
        return first.draw(states, rng)
    actions = np.empty(len(states), dtype=np.int64)
    actions[~turned] = first.draw(states[~turned], rng)
    actions[turned] = second.draw(states[turned], rng)
    return actions


def outcome_columns(model: CompiledModel, game: Game | None = None) -> list[str]:
    """The columns of :attr:`model.terminals <mdp.CompiledModel.terminals>` that make an
    outcome: the game's (:func:`~mdp.hookspecs.game.mdp_outcome_columns`), else ``value``."""
    given = game.call("mdp_outcome_columns") if game is not None else None
    if given is not None and (not isinstance(given, (list, tuple)) or not given or
                              not all(isinstance(c, str) for c in given)):  # []: an outcome of nothing
        raise ModelError(f"game {model.info.game}: mdp_outcome_columns returned {given!r:.60}, "
                         "not a list of column names (one or more; None for the value alone)")
    columns = list(given) if given is not None else ["value"]
    if model.turns is not None:  # each end is counted by who is to move there too
        free(model.info.game, columns, "mdp_outcome_columns", TURNS_COLUMNS)
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise ModelError(f"game {model.info.game}: mdp_outcome_columns names {twice[0]!r} twice "
                         f"({columns}); name each column once")
    missing = [c for c in columns if c not in model.terminals.columns]
    if missing:
        raise ModelError(f"game {model.info.game}: outcome columns {missing} are not columns of "
                         f"a terminal state ({', '.join(model.terminals.columns)})")
    return columns


def group(model: CompiledModel, columns: list[str], weights: np.ndarray) -> tuple[pl.DataFrame, np.ndarray]:
    """The distinct outcomes (sorted) and the sum of ``weights`` (one per terminal state)
    over each: floats, ints, or fractions in an object array. Exact values that one float
    holds (``2**53`` and ``2**53 + 1``) are two outcomes, each with its ``value_exact``, in
    floats too (games simulated, chances in floats) where there are such."""
    keys = model.terminals.select(columns)
    exact = "value" in columns and "value_exact" in model.terminals.columns and (
        weights.dtype == object or _merged(model.terminal_values))
    if exact:  # grouped by the rank of the exact value, never by its float
        distinct = sorted(set(model.terminal_values))
        rank = {v: i for i, v in enumerate(distinct)}
        keys = keys.with_columns(pl.Series("value", [rank[v] for v in model.terminal_values]))
    outcomes = in_order(keys.unique(), columns)
    # Names of mdp's own for the row and its group, none of the game's columns (a column
    # named "group" made the join fail)
    row, group = (unused(name, columns) for name in ("row", "group"))
    ids = (keys.with_row_index(row)
           .join(outcomes.with_row_index(group), on=columns, how="left", nulls_equal=True)
           .sort(row)[group].to_numpy())
    if exact:
        values = [distinct[i] for i in outcomes["value"]]
        outcomes = outcomes.with_columns(
            pl.Series("value", [float(v) for v in values], dtype=pl.Float64),
            pl.Series("value_exact", [str(Fraction(v)) for v in values], dtype=pl.String))
    if weights.dtype == object:
        sums = objects([Fraction(0)] * outcomes.height)
        np.add.at(sums, ids, weights)
    else:
        sums = np.bincount(ids, weights=weights, minlength=outcomes.height)
        if weights.dtype.kind in "iu":
            sums = np.rint(sums).astype(np.int64)
    wide = (pl.UInt64, pl.Int128, pl.UInt128)  # integers past int64 kept as they are
    return outcomes.cast({c: pl.Int64 for c, t in outcomes.schema.items()
                          if t.is_integer() and t not in wide}), sums


EXACT_TEXT = r"^-?[0-9]+(/[0-9]+)?$"
"""The text of an exact number in a column (:func:`mdp.game.cells.fraction`: ``"10/3"``)."""


def in_order(frame: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """``frame`` sorted by ``columns``, an empty cell last; a column of exact numbers written
    as text (fractions, ``"2/3"``, ``"10/3"``) by the numbers' values, not by their text: a
    running sum of chances over the rows is the chance of at most each."""
    ranks = {}
    for column in columns:
        cells = frame[column]
        if cells.dtype == pl.String and cells.drop_nulls().str.contains(EXACT_TEXT).all():
            ranked = sorted(set(cells.drop_nulls().to_list()), key=Fraction)
            at = {text: i for i, text in enumerate(ranked)}
            ranks[column] = pl.Series([None if t is None else at[t] for t in cells.to_list()],
                                      dtype=pl.Int64)
    if not ranks:
        return frame.sort(columns, nulls_last=True)
    keys = [f"\0rank {c}" if c in ranks else c for c in columns]
    ranked_frame = frame.with_columns(*(s.alias(f"\0rank {c}") for c, s in ranks.items()))
    return ranked_frame.sort(keys, nulls_last=True).drop([f"\0rank {c}" for c in ranks])


def _merged(values: Any) -> bool:
    """Whether a float holds two of ``values`` (exact numbers) as one."""
    distinct = set(values)
    return len({float(v) for v in distinct}) < len(distinct)


def chances(how: Played | Policy, game: Game | None = None,
            tie_break: Sequence[Any] = ()) -> pl.DataFrame:
    """The chance of every outcome a game of one model can end at, playing as ``how``
    says: the outcome columns, ``probability`` and, exact, ``exact`` (``"p/q"``)."""
    policy = playing(how, tie_break)[0]
    model = policy.model
    columns = outcome_columns(model, game)
    if not model.one_pass:
        return _returning(model, columns, visits(how, tie_break)[: model.n_terminal])
    outcomes, sums = group(model, columns, reach(policy)[: model.n_terminal])
    possible = np.array([s != 0 for s in sums], dtype=bool)
    outcomes, sums = outcomes.filter(pl.Series(possible)), sums[possible]
    frame = outcomes.with_columns(probability=pl.Series(np.asarray(sums, dtype=np.float64)))
    if policy.exact:
        frame = frame.with_columns(exact=pl.Series([f"{s.numerator}/{s.denominator}" for s in sums],
                                                   dtype=pl.String))
    return frame


def simulated(how: Played | Policy, game: Game | None, games: int, seed: int | None,
              tie_break: Sequence[Any] = ()) -> tuple[np.ndarray, np.ndarray, pl.DataFrame]:
    """``games`` games of one model played at random, all advancing together, one move of
    every game still going at a time: the value of each outcome reached, how many games
    ended there, and the outcomes (outcome columns, ``games``). In a game two players take
    in turns, each end is counted by who is to move there (``player``), its value the first
    player's."""
    policy, other = playing(how, tie_break)
    model = policy.model
    sizes = [min(CHUNK, games - begin) for begin in range(0, games, CHUNK)]
    # A random stream per chunk, from the seed: the numbers do not depend on which thread
    # plays which chunk, and numpy lets go of the interpreter lock while a chunk is played.
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(sizes))]
    two = model.turns is not None  # then each end is counted by who is to move there

    def chunk(size: int, rng: np.random.Generator) -> np.ndarray:
        ends = np.zeros((2 if two else 1) * model.n_terminal, dtype=np.int64)
        state = np.full(size, model.initial, dtype=np.int64)
        second = np.zeros(size, dtype=bool)  # the second player to move (two players)
        while len(state) and model.initial >= model.n_terminal:
            state = model.sample(_drawn(policy, other, state, second, rng), rng,
                                 second if two else None)
            over = state < model.n_terminal
            ends += np.bincount(state[over] + second[over] * model.n_terminal, minlength=len(ends))
            state, second = state[~over], second[~over]
        if len(state):  # the initial state is terminal: every game is over before it starts
            ends[model.initial] += len(state)
        return ends

    # The tables of sampling and drawing, made once, not on every thread.
    none = np.zeros(0, dtype=np.int64)
    model.sample(_drawn(policy, other, none, none.astype(bool), streams[0]), streams[0])
    played: list[np.ndarray] = [np.zeros(0)] * len(sizes)

    def play(k: int) -> None:
        played[k] = chunk(sizes[k], streams[k])

    side_by_side(play, range(len(sizes)))
    ends = functools.reduce(np.add, played)
    if two:
        return _of_two_players(model, outcome_columns(model, game), ends)
    # The values it was solved with: a solution's own terminal values, where it has them.
    # Exact where a float cannot tell them apart (mdp.analysis.simulate measures from one).
    values = np.asarray(model.terminal_values if isinstance(how, Policy) else how.terminal_values,
                        dtype=object if "value_exact" in model.terminals.columns else np.float64)
    outcomes, counts = group(model, outcome_columns(model, game), ends)
    return values[ends > 0], ends[ends > 0], outcomes.with_columns(games=pl.Series(counts))
