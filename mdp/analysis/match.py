"""Matches: players take turns at the same one-player game, and money changes hands.

Each player plays a whole game in turn, knowing the results of the players before, and
plays for money under the rules the game gives (:func:`mdp.hookspecs.game.mdp_match_rules`).
Every player's problem is the one compiled model solved with other terminal values, one set
per possible list of earlier results (:func:`mdp.solve_many`): a match costs solves, never
a new exploration.

Working back from the last player: the last player's terminal value is the payoff given
the earlier results and their own; an earlier player's is what they can expect given their
result and the later players' optimal answers to it. With two players and a zero-sum
payoff that is minus the second player's value; otherwise it takes the distribution of
each later player's result under their optimal play (:func:`optimal_outcome_distribution`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Literal

import attrs
import numpy as np
import polars as pl

from mdp.analysis.match_payoff import payoff_alone
from mdp.analysis.match_rules import MatchRules, match_rules
from mdp.checks import CALLBACK, FLAG, GAME, LIST, MAX_MEMORY, MODEL, arguments, first, rule_plugins
from mdp.engine.checks import shown
from mdp.engine.model import CompiledModel
from mdp.engine.numeric import (
    below_floats,
    first_fault,
    first_float,
    first_past_float,
    float_or_none,
    numbers_array,
    plain,
    quoted,
)
from mdp.engine.policy import FLOAT_TIE
from mdp.engine.rounds import Rounds
from mdp.engine.solution import Solutions
from mdp.engine.solve import solve, solve_many
from mdp.engine.sweep import forward
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, TooLarge, fault
from mdp.game.load import Game
from mdp.game.parsers import written_number
from mdp.handed import read_only
from mdp.limits import MAX_PLAYERS

MAX_PROFILES = 1_000_000
"""The most lists of results a match solves for (results ** (players - 1) of them)."""


def check_players(players: Any) -> int:
    """The number of players, an int (NumPy's whole numbers too), refused before any work
    where it is not a whole number from 2 to :data:`~mdp.limits.MAX_PLAYERS` (past it:
    :class:`mdp.TooLarge`)."""
    if not isinstance(players, (int, np.integer)) or isinstance(players, (bool, np.bool_)) or \
            players < 2:
        raise ParamError(f"players={quoted(players)}: a match needs a whole number of 2 players or more")
    players = int(players)
    if players > MAX_PLAYERS:
        raise TooLarge(f"{players:,} players: at most {MAX_PLAYERS} (with two results or "
                       f"more, more players mean more than {MAX_PROFILES:,} lists of earlier "
                       "results to solve for)")
    return players


def _no_negative_zero(values: Any) -> tuple[float | Fraction, ...]:
    """The values with a float's -0.0 made 0.0 (+ 0), shown "+0" as the other player's is."""
    return tuple(value + 0 for value in values)


@attrs.frozen
class Match:
    """Each player's expected winnings in a match, the first player first."""

    game: str
    params: Mapping[str, Any]
    rules: str
    values: tuple[float | Fraction, ...] = attrs.field(converter=_no_negative_zero)
    """Each player's expected winnings: fractions in exact mode, else floats."""
    exact: bool
    seconds: float = attrs.field(default=0.0, repr=False)
    wins: tuple[float | Fraction, ...] | None = None
    """A game of rounds: each player's chance of the better total, and last the chance of a
    tie (the winnings are 1 from the loser, nothing at a tie)."""
    plugins: tuple[str, ...] = ()
    """The game's rule plugins (:func:`mdp.checks.rule_plugins`)."""
    variant: str | None = None
    """The game's named variant, if any."""

    @property
    def players(self) -> int:
        return len(self.values)

    def summary(self) -> dict[str, Any]:
        """The match as ``mdp match --json`` prints it: the game, variant, parameters, rule
        plugins and rules (as every summary begins), and ``players``, a list of
        ``{"player": k, "value": float}`` (null past a float; with
        ``"exact": "p/q"`` in exact mode), and the seconds spent."""
        players = []
        for k, value in enumerate(self.values, start=1):
            entry: dict[str, Any] = {"player": k, "value": float_or_none(value)}
            if self.exact:  # a whole number too (a game over from the start wins 0)
                value = Fraction(value)
                entry["exact"] = f"{value.numerator}/{value.denominator}"
            if self.wins is not None:
                entry.update(_chance("wins", self.wins[k - 1]))
            players.append(entry)
        ties = {} if self.wins is None else _chance("ties", self.wins[-1])
        return {"game": self.game, "variant": self.variant, "params": dict(self.params),
                "plugins": list(self.plugins), "rules": self.rules, "players": players, **ties,
                "seconds": round(self.seconds, 6)}


def _chance(name: str, value: float | Fraction) -> dict[str, Any]:
    """A chance in a match's summary: ``name``, and ``name_exact`` in exact mode."""
    exact = {f"{name}_exact": f"{value.numerator}/{value.denominator}"} if isinstance(value, Fraction) else {}
    return {name: float_or_none(value), **exact}  # below a float: null beside its fraction


def _outcomes(game: Game, model: CompiledModel, rules: MatchRules) -> np.ndarray:
    """Each terminal state's result, from the column the rules name."""
    if rules.outcome not in model.terminals.columns:
        raise ModelError(f"game {game.name}: mdp_match_rules gave the outcome {rules.outcome!r}, "
                         "not a column of the terminal states "
                         f"({', '.join(model.terminals.columns)})")
    column = model.terminals[rules.outcome]
    where = f"game {game.name}: mdp_match_rules's outcome column {rules.outcome!r}"
    if not column.dtype.is_integer():
        held: dict[Any, str] = {
            pl.String: "text (a table keeps fractions and integers past 128 bits as text)",
            pl.Boolean: "true/false", pl.Float64: "floats", pl.Null: "no values"}
        raise ModelError(f"{where} holds {held.get(column.dtype, str(column.dtype))}; a player's "
                         "result is an integer at every terminal state (the payoff is given an "
                         "integer array)")
    if column.null_count():
        state = model.terminals.filter(column.is_null()).drop(rules.outcome).row(0, named=True)
        shown = ", ".join(f"{name} {value}" for name, value in state.items())
        raise ModelError(f"{where} has no value at a terminal state ({shown}); a player's "
                         "result is an integer at every terminal state")
    if column.dtype in (pl.UInt64, pl.Int128, pl.UInt128):  # past int64: Python ints, exact
        return np.array(column.to_list(), dtype=object)
    return column.to_numpy()


def match(model: CompiledModel | Rounds, game: Game, *, players: int = 2, exact: bool = False,
          progress: Callable[[str], None] | None = None,
          max_memory: int | None | Literal["default"] = "default") -> Match:
    """Each player's expected winnings when ``players`` players take turns at ``game``,
    each playing optimally for money knowing the earlier players' results.

    ``model`` is the game compiled (``mdp.compile(game)``); ``exact=True`` gives fractions.
    A game of rounds is played by two, the better total (the higher, or the lower where the
    game minimizes) winning one stake: each plays for money, the second knowing the first's
    total, and :attr:`Match.wins` holds the chance that each wins and of a tie
    (:func:`mdp.analysis.targets.rounds_match`; its vectors within ``max_memory`` bytes)."""
    arguments("match", model=(model, first(MODEL, "match(model, game)")), game=(game, GAME),
              exact=(exact, FLAG), progress=(progress, CALLBACK), max_memory=(max_memory, MAX_MEMORY))
    start = time.perf_counter()
    players = check_players(players)
    if not hasattr(model, "single"):
        raise ParamError("match takes the game's compiled model (mdp.compile(game)), "
                         f"not {type(model).__name__}")
    values, wins = _played(model, game, players, exact, progress, max_memory)
    return Match(game.name, game.shown_params(), game.describe(), values, exact,
                 time.perf_counter() - start, wins, rule_plugins(game), game.variant)


@functools.singledispatch
def results_made(model: CompiledModel | Rounds) -> None:
    """Make what a match of ``model`` compares (a game of one model: its terminal states'
    columns, some made only when asked), so that what the game reads to make it is read now:
    :func:`mdp.analysis.vary.match_table` compiles once for every value of a parameter the
    match alone reads. A game of rounds compares totals, which its compile made."""
    model.single("a match").terminals  # noqa: B018  (a game of rounds below)


@results_made.register(Rounds)
def _(model: Rounds) -> None:
    return None


@functools.singledispatch
def _played(model: CompiledModel | Rounds, game: Game, players: int, exact: bool,
            progress: Callable[[str], None] | None, max_memory: Any) -> tuple[tuple[Any, ...], Any]:
    """Each player's expected winnings in a match of a game of one model, by the game's
    :func:`~mdp.hookspecs.game.mdp_match_rules`; no chances of winning beside them."""
    model = model.single("a match")  # only a game of one model comes here (Rounds below)
    rules = match_rules(game)
    results, index = np.unique(_outcomes(game, model, rules), return_inverse=True)
    m = len(results)
    if m ** (players - 1) > MAX_PROFILES:
        raise TooLarge(f"{players} players with {m} possible results means "
                       f"{m ** (players - 1):,} lists of earlier results to solve for; "
                       f"at most {MAX_PROFILES:,}: fewer players")
    money = _payoffs(game, rules, results, players, exact)  # shape (m,) * players + (players,)
    scale = 0.0 if exact or not money.size else float(np.abs(money).max())
    for k in range(players - 1, 0, -1):  # the last player first
        if progress:
            progress(f"solving player {k + 1} of {players}")
        money = _earlier(model, money, index, k, exact)
    return _settled(_first(model, money, index, exact), scale, exact), None


@_played.register(Rounds)
def _(model: Rounds, game: Game, players: int, exact: bool,
      progress: Callable[[str], None] | None, max_memory: Any) -> tuple[tuple[Any, ...], Any]:
    """A game of rounds: the better total wins, the second player knowing the first's."""
    from mdp.analysis.targets import rounds_match

    if players != 2:
        raise ParamError(f"a match of a game of rounds is of 2 players, not {players}: the "
                         "second plays knowing the first's total")
    value, wins = rounds_match(model, exact=exact, progress=progress, max_memory=max_memory)
    value = Fraction(value) if exact else float(value)
    return _settled((value, -value), 1.0, exact), wins


def _settled(values: tuple[Any, ...], scale: float, exact: bool) -> tuple[Any, ...]:
    """In floats, each value within the solve's float error of 0 made 0: a value of
    :data:`~mdp.engine.policy.FLOAT_TIE` of ``scale`` (the largest payoff in size, a stake
    in a game of rounds) or less in size, as a tie of values is decided
    (:func:`~mdp.engine.policy.tie_margin`), where a fair match came out as -4.7e-16 and
    "-0.0000% of the stake", and --vary ranked fair rule sets by that noise. Exact values
    as they are."""
    if exact:
        return values
    margin = FLOAT_TIE * scale
    return tuple(0.0 if abs(value) <= margin else value for value in values)


def later_player_values(model: CompiledModel, game: Game, earlier: list[Any], *,
                        exact: bool = False) -> np.ndarray:
    """What the next player of a match receives at each terminal state of ``model``, once
    the players before have the results ``earlier`` (in playing order; as text or values):
    terminal values for :func:`mdp.solve`, to play or be advised as that player.

    With more players to come this is what the last player receives; a player followed by
    others needs :func:`match`'s backward pass instead, and is refused here.
    """
    arguments("later_player_values",
              model=(model, first(MODEL, "later_player_values(model, game, earlier)")),
              game=(game, GAME), earlier=(earlier, LIST), exact=(exact, FLAG))
    if not earlier:
        raise ParamError("later_player_values: earlier is []; give the results of the players "
                         "before (the first player's at least)")
    check_players(len(earlier) + 1)
    rules = match_rules(game)
    results, index = np.unique(_outcomes(game, model, rules), return_inverse=True)
    positions = _positions(rules, results, earlier)
    money = _payoffs(game, rules, results, len(earlier) + 1, exact)
    return money[tuple(positions)][:, -1][index]


def _positions(rules: MatchRules, results: np.ndarray, earlier: list[Any]) -> list[int]:
    """Where each of the ``earlier`` results (text or values) is among the possible ``results``."""
    positions = []
    for k, result in enumerate(earlier, start=1):
        found = np.flatnonzero(results.astype(str) == str(result))
        if not len(found) and written_number(result) is not None:  # 03 or 3.0 for 3, as --set reads
            found = np.flatnonzero([written_number(r) == written_number(result) for r in results.tolist()])
        if not len(found):
            shown = ", ".join(map(str, results[:12])) + (", ..." if len(results) > 12 else "")
            raise ParamError(f"player {k}'s result {result!r} is not a possible {rules.outcome} "
                             f"(possible: {shown})")
        positions.append(int(found[0]))
    return positions



def check_results(model: CompiledModel, game: Game, earlier: list[Any]) -> None:
    """Refuse, once compiled and before any solve, ``earlier`` results that are no possible
    result of a player (as :func:`later_player_values` would after the solve)."""
    rules = match_rules(game)
    _positions(rules, np.unique(_outcomes(game, model, rules)), earlier)


def not_playing(model: CompiledModel, game: Game, earlier: list[Any]) -> str | None:
    """Why the next player of a match does not play once the players before have the results
    ``earlier`` (:attr:`MatchRules.decided`), in the game's words; ``None`` where they play."""
    rules = match_rules(game)
    if rules.decided is None:
        return None
    results = np.unique(_outcomes(game, model, rules))
    given = tuple(int(results[at]) for at in _positions(rules, results, earlier))
    return game.checked("mdp_match_rules", rules, lambda rules: _decided(game, rules, given),
                        " of mdp_match_rules")


def _decided(game: Game, rules: MatchRules, given: tuple[int, ...]) -> str | None:
    said = f"game {game.name}: the decided of mdp_match_rules"
    if rules.decided is None:  # (another plugin's rules, asked again: every player plays)
        return None
    try:
        why = rules.decided(given)
    except PLUGIN_FAULTS as error:
        raise ModelError(f"{said} raised {fault(error)} (results {list(given)})") from error
    if why is not None and (not isinstance(why, str) or not why.isprintable() or not why.strip()):
        raise ModelError(f"{said} gave {shown(why)} for the results {list(given)}; expected "
                         "one line of text saying why the next player does not play, or None")
    return why


def _payoffs(game: Game, rules: MatchRules, results: np.ndarray, players: int,
             exact: bool) -> np.ndarray:
    """What each player receives for every list of results, as an array indexed by each
    player's result (its position among ``results``), then by player; refused naming the
    rule plugin whose wrapper made the payoff wrong."""
    return game.checked("mdp_match_rules", rules, lambda rules: _paid(game, rules, results, players, exact),
                        " of mdp_match_rules")


def _paid(game: Game, rules: MatchRules, results: np.ndarray, players: int,
          exact: bool) -> np.ndarray:
    m = len(results)
    grid = np.indices((m,) * players).reshape(players, -1).T
    said = f"game {game.name}: the payoff of mdp_match_rules"
    try:
        paid = rules.payoff(read_only(results[grid]))
        paid = numbers_array(paid)
    except PLUGIN_FAULTS as error:
        raise ModelError(f"{said} raised {fault(error)}") from error
    if paid.shape != grid.shape:
        raise ModelError(f"{said} gave {shown(paid)} of shape {paid.shape} for {grid.shape[0]:,} "
                         f"matches of {players} players; expected an array of shape {grid.shape}")
    if paid.dtype.kind == "b" or (paid.dtype.kind not in "iuf" and paid.dtype != object):
        raise ModelError(f"{said} gave values of type {paid.dtype}; expected numbers")
    if paid.dtype.kind not in "iuf":
        paid = paid.astype(object)
    flat = paid.ravel()
    bad = first_fault(flat if paid.dtype.kind in "iuf" else flat.tolist())
    if bad is not None:
        raise ModelError(f"{said} gave {quoted(bad[1])}, which {bad[2]}; expected finite numbers")
    if exact and first_float(flat.tolist() if paid.dtype == object else flat) is not None:
        raise ModelError(f"{said} gave floats; exact values need integers or fractions")
    if first_past_float(flat.tolist() if paid.dtype == object else flat):  # shown in floats too
        raise ModelError(f"{said} gave a number past what a float holds (about 1.8e308); "
                         "winnings are numbers a float holds, exact or not")
    tiny = next((v for v in flat.tolist() if below_floats(v)), None) if paid.dtype == object else None
    if tiny is not None:  # a float would make it 0: both players' winnings shown +0
        raise ModelError(f"{said} gave {quoted(tiny)}, not 0 but below what a float holds (about "
                         "2.2e-308); winnings are numbers a float holds, exact or not")
    payoff_alone(rules.payoff, results, grid, paid, said)
    sums = (paid.astype(object) if paid.dtype.kind in "iu" else paid).sum(axis=1)  # ints exact: no wrap
    off = np.flatnonzero(sums != 0 if exact or paid.dtype != np.float64 else
                         np.abs(sums.astype(np.float64)) > 1e-9 * np.abs(paid).max(axis=1, initial=1.0))
    if len(off):  # money changes hands among the players: what one wins, others pay
        row = int(off[0])
        raise ModelError(f"{said} gave {shown(paid[row].tolist())} for the results "
                         f"{shown(results[grid[row]].tolist())}, adding up to {shown(plain(sums[row]))}: "
                         "in a match money changes hands among the players, so what each row "
                         "pays adds up to 0")
    return paid.reshape((m,) * players + (players,))


def _earlier(model: CompiledModel, money: np.ndarray, index: np.ndarray, k: int,
             exact: bool) -> np.ndarray:
    """Player ``k`` (from 0) plays optimally, once per list of earlier results: what every
    player can expect given the first ``k`` results."""
    m, players = money.shape[0], money.shape[-1]
    flat = money.reshape(m ** k, m, players)  # earlier results, player k's result, player
    terminals = flat[:, :, k].T[index]  # one row per terminal state, one column per list
    solutions = solve_many(model, terminals, exact=exact, sense="max")
    if players == 2 and _zero_sum(flat):
        # Whatever the second player wins, the first loses: no distribution needed.
        mine = _column_values(solutions, exact)
        expected = np.stack([-mine, mine], axis=1)
    else:
        shares = optimal_outcome_distribution(model, solutions, index, m, exact)
        expected = np.einsum("co,cop->cp", shares, flat) if not exact else \
            (shares[:, :, None] * flat).sum(axis=1)
    return expected.reshape((m,) * k + (players,))


def _first(model: CompiledModel, money: np.ndarray, index: np.ndarray,
           exact: bool) -> tuple[Any, ...]:
    """The first player plays: each player's expected winnings."""
    players = money.shape[-1]
    solution = solve(model, terminal=money[:, 0][index], exact=exact, sense="max")
    if players == 2 and _zero_sum(money):
        return solution.value, -solution.value
    solutions = solve_many(model, money[:, :1][index], exact=exact, sense="max")
    shares = optimal_outcome_distribution(model, solutions, index, money.shape[0], exact)[0]
    expected = (shares[:, None] * money).sum(axis=0)
    return tuple(expected.tolist()) if exact else tuple(float(v) for v in expected)


def _zero_sum(money: np.ndarray) -> bool:
    return bool(np.all(money.sum(axis=-1) == 0))


def _column_values(solutions: Solutions[Any], exact: bool) -> np.ndarray:
    value = solutions.value
    if exact:
        array = np.empty(len(value), dtype=object)
        array[:] = value
        return array
    return np.asarray(value, dtype=np.float64)


def optimal_outcome_distribution(model: CompiledModel, solutions: Solutions[Any],
                                 index: np.ndarray, m: int, exact: bool) -> np.ndarray:
    """For each column of ``solutions``, the probability of each result (``index`` numbers
    the result of each terminal state, from 0 to ``m - 1``) when its player plays the
    column's optimal policy, the first optimal action of each state in action order:
    a matrix, one row per column. Fractions in exact mode. One forward pass pushes every
    column at once (:func:`mdp.engine.sweep.forward`)."""
    k = solutions.n_columns
    zero: Any = Fraction(0) if exact else 0.0
    reach = np.full((model.n_states, k), zero, dtype=object if exact else np.float64)
    reach[model.initial] = Fraction(1) if exact else 1.0
    table = np.array(model.probabilities, dtype=object) if exact else \
        np.array([float(p) for p in model.probabilities], dtype=np.float64)
    forward(model, solutions.first_optimal, reach, table)
    terminal = reach[: model.n_terminal]
    shares = np.full((m, k), zero, dtype=reach.dtype)
    np.add.at(shares, index, terminal)
    return shares.T
