"""Sweeps over rule sets: every combination of some parameters' values, one row each.

``vary`` maps parameter names to the values to try, ``{"mode": ["fast", "safe"],
"rounds": [2, 3]}``; the rows follow the order of the product, the first parameter slowest.
:func:`solve_table` solves each combination; :func:`match_table` plays a match under each.
On the command line, ``--vary mode=fast,safe`` names the values of one parameter.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import polars as pl

from mdp.analysis.match import check_players, match, results_made
from mdp.analysis.match_rules import match_params
from mdp.analysis.targets import fraction_text
from mdp.checks import (
    CALLBACK,
    FLAG,
    MAX_MEMORY,
    MAX_STATES,
    OPTIONAL_NAME,
    PARAMS,
    PLUGINS,
    SENSE,
    SPEC,
    VARY,
    arguments,
)
from mdp.engine.compile import check_size, compile
from mdp.engine.policy import Sense
from mdp.engine.solve import solve
from mdp.errors import ModelError, ParamError, TooLarge
from mdp.game.kept import reading
from mdp.game.load import Game, load_game
from mdp.game.params import check_settable
from mdp.limits import DEFAULT_MAX_STATES, MAX_COMBINATIONS


def parse_vary(items: Iterable[str]) -> dict[str, list[str]]:
    """``--vary`` texts as a dict: ``"mode=fast,safe"`` -> ``{"mode": ["fast", "safe"]}``.
    Values that hold commas themselves are separated by ``;`` instead
    (``"rounds=1-9;1,3,5"``)."""
    vary: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise ParamError(f"--vary {item!r}: expected KEY=VALUE,VALUE,...")
        if key in vary:
            raise ParamError(f"--vary {key} is given twice; list all its values in one --vary")
        vary[key] = [v.strip() for v in values.split(";" if ";" in values else ",")]
    return vary


def combinations(vary: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the values of ``vary``, the first parameter varying slowest."""
    for name, values in vary.items():
        if isinstance(values, (str, bytes)) or not len(values):
            raise ParamError(f"vary {name}: expected a list of values, not {values!r}")
    count = math.prod(len(values) for values in vary.values())
    if count > MAX_COMBINATIONS:
        raise TooLarge(f"vary: {count:,} combinations of values, at most {MAX_COMBINATIONS:,} "
                       "(each is a game solved); vary fewer values")
    names = list(vary)
    return [dict(zip(names, chosen)) for chosen in itertools.product(*vary.values())]


def games(spec: Any, vary: Mapping[str, Sequence[Any]], *, variant: str | None = None,
          params: Mapping[str, Any] | None = None, plugins: Sequence[Any] = ()) -> list[Game]:
    """The game loaded once per combination of ``vary``, on top of ``params``, with the rule
    ``plugins`` of :func:`mdp.load_game`; every combination is checked before any is solved."""
    given = dict(params or {})
    check_settable([*given, *vary])
    overlap = sorted(set(given) & set(vary))
    if overlap:
        raise ParamError(f"parameter {overlap[0]} is both set and varied; vary it alone")
    loaded: list[Game] = []
    seen: dict[tuple[str, ...], dict[str, Any]] = {}  # by values, and by what they show
    for combination in combinations(vary):
        try:
            game = load_game(spec, variant=variant, plugins=plugins, **given, **combination)
        except ParamError as error:  # the rules of one row refused: which row, where several vary
            if len(vary) < 2:
                raise
            row = ", ".join(f"{name}={combination[name]}" for name in vary)
            raise ParamError(f"vary: the row {row}: {error}") from None
        same = seen.setdefault(tuple(repr(game.params[name]) for name in vary), combination)
        if same is not combination:  # "1" and "01", or "2" twice: one rule set, solved twice
            first, again = (" ".join(f"{name}={c[name]}" for name in vary) for c in (same, combination))
            said = f"{first} is given twice" if first == again else f"{first} and {again} are the same rules"
            raise ParamError(f"vary: {said}; give each value once")
        shown = game.shown_params()
        alike = seen.setdefault(("shown", *(repr(shown[name]) for name in vary)), combination)
        if alike is not combination:  # two rule sets whose rows would read the same
            name = next(n for n in vary if alike[n] != combination[n])
            raise ModelError(f"parameter {name}: {name}={alike[name]} and {name}={combination[name]} "
                             f"are shown alike, as {shown[name]!r}, and the rows of --vary could "
                             "not be told apart; a parameter shows each value as a text of its own")
        loaded.append(game)
    return loaded


def solve_table(spec: Any, vary: Mapping[str, Sequence[Any]], *, variant: str | None = None,
          params: Mapping[str, Any] | None = None, plugins: Sequence[Any] = (), exact: bool = False,
          sense: Sense | None = None, max_states: int = DEFAULT_MAX_STATES,
          max_memory: Any = "default",
          progress: Callable[[str], None] | None = None) -> pl.DataFrame:
    """Solve the game once per combination of ``vary``: a Polars DataFrame with one column
    per varied parameter (as ``--set`` shows it), ``value``, ``exact`` (``"p/q"``, with
    ``exact=True``) and ``states``, one row per combination in order. ``max_states`` and
    ``max_memory`` bound each compile, as in :func:`mdp.compile`; ``plugins`` are the rule
    plugins of :func:`mdp.load_game`."""
    arguments("solve_table", spec=(spec, SPEC), vary=(vary, VARY), variant=(variant, OPTIONAL_NAME),
              params=(params, PARAMS), plugins=(plugins, PLUGINS), exact=(exact, FLAG), sense=(sense, SENSE),
              max_states=(max_states, MAX_STATES), max_memory=(max_memory, MAX_MEMORY),
              progress=(progress, CALLBACK))
    loaded = _checked(games(spec, vary, variant=variant, params=params, plugins=plugins),
                      max_states, max_memory)
    alone = [name for name in _match_alone(loaded[0]) if name in vary]
    if alone:  # every row one game, solved again, if the match rules say true
        with reading(loaded[0]) as read:
            results_made(compile(loaded[0], max_states=max_states, max_memory=max_memory,
                                 progress=progress))
        _read_alone(loaded[0], read)
        raise ParamError(f"parameter {alone[0]} is read by a match alone (game {loaded[0].name}'s "
                         "match rules say so): solved, every value is one game; vary it in a "
                         "match (mdp match --vary, mdp.match_table)")
    rows: list[dict[str, Any]] = []
    for game, row in zip(loaded, _varied(loaded, vary)):
        model = compile(game, max_states=max_states, max_memory=max_memory, progress=progress)
        solution = solve(model, exact=exact, sense=sense, progress=progress)
        row["value"] = float(solution.value)
        if exact:
            row["exact"] = fraction_text(solution.value)
        row["states"] = solution.summary()["states"]
        rows.append(row)
    return pl.DataFrame(rows)


def match_table(spec: Any, vary: Mapping[str, Sequence[Any]], *, players: int = 2,
                variant: str | None = None, params: Mapping[str, Any] | None = None,
                plugins: Sequence[Any] = (), exact: bool = False, max_states: int = DEFAULT_MAX_STATES,
                max_memory: Any = "default",
                progress: Callable[[str], None] | None = None) -> pl.DataFrame:
    """Play a match (:func:`mdp.match`) under each combination of ``vary``: a Polars
    DataFrame, one row per combination, fairest first (by the largest expected winnings of
    any player, in absolute value), with one column per varied parameter,
    ``player_1_percent`` (player 1's expected winnings in percent of the stake, to four
    decimals, as fairness tables print them; null past what a float holds), then
    ``player_K`` for each player (and ``player_K_exact``, ``"p/q"``, with ``exact=True``);
    ``plugins`` are the rule plugins of :func:`mdp.load_game`."""
    arguments("match_table", spec=(spec, SPEC), vary=(vary, VARY), variant=(variant, OPTIONAL_NAME),
              params=(params, PARAMS), plugins=(plugins, PLUGINS), exact=(exact, FLAG),
              max_states=(max_states, MAX_STATES), max_memory=(max_memory, MAX_MEMORY),
              progress=(progress, CALLBACK))
    players = check_players(players)
    rows: list[dict[str, Any]] = []
    unfair: list[float | Fraction] = []
    models: dict[Any, Any] = {}
    loaded = _checked(games(spec, vary, variant=variant, params=params, plugins=plugins),
                      max_states, max_memory)
    # Match rules change no state: a model is compiled once per rule set that plays.
    for game, row in zip(loaded, _varied(loaded, vary)):  # all played in matches
        key = _play_key(game)
        if key not in models:
            with reading(game) as read:  # compiled once for every value of the match's own
                models[key] = compile(game, max_states=max_states, max_memory=max_memory,
                                      progress=progress)
                results_made(models[key])
            _read_alone(game, read)
        elif models[key].info.rules != game.describe():  # a parameter of the match alone?
            raise ModelError(f"game {game.name}: mdp_match_rules names {', '.join(match_params(game))} "
                             "as read by the match alone, but the game's rules read otherwise with "
                             f"it ({models[key].info.rules!r} and {game.describe()!r}); name in "
                             "params only what the game's own hooks never read")
        result = match(models[key], game, players=players, exact=exact, progress=progress,
                       max_memory=max_memory)
        share = round(float(result.values[0] * 100), 4)  # a float of an exact value's, once
        row["player_1_percent"] = share if math.isfinite(share) else None  # past a float: null
        for k, value in enumerate(result.values, start=1):
            row[f"player_{k}"] = float(value)
            if exact:
                row[f"player_{k}_exact"] = fraction_text(value)
        rows.append(row)
        unfair.append(max(max(result.values), -min(result.values)))  # the largest in size
    order = sorted(range(len(rows)), key=unfair.__getitem__)  # stable: ties keep their order
    return pl.DataFrame([rows[i] for i in order])


def _match_alone(game: Game) -> tuple[str, ...]:
    """The parameters that a match of ``game`` alone reads; none where it has no match rules."""
    return match_params(game) if game.implements("mdp_match_rules") else ()


def _checked(games: list[Game], max_states: int | None, max_memory: Any) -> list[Game]:
    """``games``, each refused before any is compiled if its own count of states passes the
    bounds (:func:`mdp.engine.compile.check_size`)."""
    for game in games:
        check_size(game, max_states=max_states, max_memory=max_memory)
    return games


def _play_key(game: Game) -> Any:
    """What decides the compiled model: the game's own description of its rules, with the
    parameters that the match rules read left out."""

    ignored = set(match_params(game))
    return game.name, game.variant, tuple(
        (name, repr(value)) for name, value in game.shown_params().items() if name not in ignored)


def _read_alone(game: Game, read: set[str]) -> None:
    """Refuse match rules that name among the parameters the match alone reads one that the
    game's hooks ``read`` as its states are made: a claim that is not true."""
    if wrong := sorted(read & set(_match_alone(game))):
        plugin = game.blame("mdp_match_rules", lambda rules: wrong[0] in getattr(rules, "params", ()))
        whose = f"plugin {plugin}'s " if plugin else ""
        raise ModelError(f"game {game.name}: its hooks read {wrong[0]} as its states are made, "
                         f"though {whose}mdp_match_rules "
                         "names it among those the match alone reads (MatchRules params); name in "
                         "params only what the game's own hooks never read")


def _varied(games: list[Game], vary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The varied parameters of each game, as its row of the table shows them (as ``--set``
    shows them), known before any is solved: a column whose values are not all of one kind
    that every format holds (texts, truths, or numbers: whole ones of 64 bits and floats),
    whatever a parameter's parser gives (a list, a dict, a Fraction, an object), is their text."""
    shown = [game.shown_params() for game in games]
    for name in vary:
        kinds = {_kind(row[name]) for row in shown} - {"none"}
        if len(kinds) > 1 or kinds & {"other"}:
            for row in shown:
                row[name] = None if row[name] is None else str(row[name])
    return [{name: row[name] for name in vary} for row in shown]


def _kind(value: Any) -> str:
    """What a table's column holds ``value`` as; ``"other"`` where not every format does."""
    if value is None:
        return "none"
    if isinstance(value, (str, bool)):
        return type(value).__name__
    if isinstance(value, int) and -2**63 <= value < 2**63 or isinstance(value, float):
        return "number"
    return "other"
