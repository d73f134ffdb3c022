"""Shut the Box: roll dice and shut open tiles adding up to the roll, until all are shut.

Tiles numbered 1 to 9 start open. Each turn the player rolls the dice and shuts open tiles
whose values add up to the total rolled; when no set of open tiles adds up to it, the game
ends. The player wins by shutting every tile.

A state is an integer key (see :mod:`mdp_games.shutbox.box`): the open tiles and, between a
roll and the move, the total rolled. Before a roll the actions are the numbers of dice the
player may roll; after it, the sets of tiles to shut (as masks). The game is described once,
by the batch hooks (a frontier of states at a time); tests/brute_shutbox.py, a plain
solver sharing no code with it, checks every rule against it.
"""

from __future__ import annotations

import functools
import os

import numpy as np

import mdp

from ..dice import check_weights
from . import hookspecs, match, report, scoring, strategies
from .box import Box, subsets_adding_to
from .params import PARAMS, check_payout, show_schedule

GAME_NAME = "shutbox"
RULE_PLUGINS = "shutbox"
"""The entry-point group of rule plugins registered with the game, like pytest's ``pytest11``."""


def box(game: mdp.Game) -> Box:
    """The rules of a loaded game, with their lookup tables (made once per rule set)."""
    return game.memo("shutbox.box", lambda: Box.of(
        game.params, scoring=_scoring_rules(game)[game.params["scoring"]], moves=_moves(game)))


def _moves(game: mdp.Game):
    """``total -> masks`` from the shutbox_moves hook (which plugins wrap), once per total,
    in the game's order of moves: the highest tile first (masks descending: 9, 1 8, 2 7, 3 6,
    1 2 6, ...). Where several moves are optimal, the engine's default tie rule takes the first."""

    @functools.cache
    def moves(total: int) -> np.ndarray:
        return np.sort(np.array(game.call("shutbox_moves", total=total), dtype=np.int64))[::-1]

    return moves


def _scoring_rules(game: mdp.Game) -> dict:
    """Every scoring rule on offer, the game's own first (pluggy answers newest first)."""
    groups = reversed(game.plugins.hook.shutbox_scoring_rules())
    return {rule.name: rule for group in groups for rule in group}


@mdp.hookimpl
def mdp_configure(plugins):
    plugins.add_hookspecs(hookspecs)
    plugins.register(scoring, name="shutbox.scoring")
    plugins.register(strategies, name="shutbox.strategies")
    plugins.register(match, name="shutbox.match")
    plugins.register(report, name="shutbox.report")
    mdp.register_plugins(plugins, RULE_PLUGINS)


@mdp.hookimpl
def mdp_params():
    return PARAMS


@mdp.hookimpl
def mdp_check(params, game):
    rules = _scoring_rules(game)
    if params["scoring"] not in rules:
        raise mdp.ParamError(f"parameter scoring={params['scoring']}: unknown scoring rule"
                             f"{mdp.did_you_mean(params['scoring'], rules)} "
                             f"(allowed: {', '.join(rules)})")
    if (params["scoring"] == "payout") != (params["payout"] is not None):
        raise mdp.ParamError("parameters scoring and payout go together: set both "
                             "scoring=payout and payout=TABLE, or neither")
    check_payout(params["payout"], params["tiles"])
    check_weights(params["weights"], params["faces"])
    schedule = params["dice_schedule"]
    if schedule is not None and schedule[-1][1] is not None and schedule[-1][1] < sum(params["tiles"]):
        raise mdp.ParamError(f"parameter dice_schedule: shut totals {schedule[-1][1] + 1}-"
                             f"{sum(params['tiles'])} have no number of dice; end with an open "
                             "range like 72-:1")
    if schedule is not None and "dice" in game.given:  # else dice would be dropped unsaid
        raise mdp.ParamError(f"parameter dice={params['dice']} has no effect while dice_schedule "
                             f"is set ({show_schedule(schedule)}); change dice_schedule instead, "
                             "or clear it with --set dice_schedule=")


@mdp.hookimpl
def mdp_variants():
    return mdp.read_variants(os.path.join(os.path.dirname(__file__), "variants.toml"))


@mdp.hookimpl
def mdp_describe(game):
    return f"Shut the Box: {box(game).describe()}"


@mdp.hookimpl
def mdp_objective(game):
    rule = box(game).scoring
    return mdp.Objective(rule.objective, rule.sense, probability=rule.probability)



@mdp.hookimpl
def shutbox_moves(params, total):
    return subsets_adding_to(params["tiles"], total)


@mdp.hookimpl
def mdp_initial_state(game):
    b = box(game)
    return b.key(b.full)


# The game, a frontier of states at a time.


@mdp.hookimpl
def mdp_stage(game, states):
    """Twice the number of open tiles, plus one before the roll: every move lowers it."""
    masks, rolls = box(game).split(np.asarray(states))
    stages = np.bitwise_count(masks).astype(np.int16)  # at most 63 tiles
    stages <<= 1
    stages += rolls == 0
    return stages


@mdp.hookimpl
def mdp_expand(game, states):
    b = box(game)
    masks, rolls = b.split(states)
    expand = _expand_before_roll if rolls[0] == 0 else _expand_after_roll
    return expand(b, masks, rolls)


def _expand_before_roll(b: Box, masks, rolls) -> mdp.Expansion:
    live = masks != 0
    choices, dice = b.dice_options(masks[live])
    action_counts = np.zeros(len(masks), dtype=np.int64)
    action_counts[live] = choices
    # Every distribution of 1 .. most_dice dice, laid end to end.
    distributions = {n: b.roll(n) for n in np.flatnonzero(np.bincount(dice)).tolist()}
    table = sorted({p for d in distributions.values() for p, _ in d})
    prob_id = {p: i for i, p in enumerate(table)}
    start = np.zeros(b.most_dice + 2, dtype=np.int64)
    length = np.zeros(b.most_dice + 2, dtype=np.int64)
    totals, prob_ids = [], []
    for n, distribution in distributions.items():
        start[n], length[n] = len(totals), len(distribution)
        totals += [total for _, total in distribution]
        prob_ids += [prob_id[p] for p, _ in distribution]
    outcome_counts = length[dice]
    flat = np.repeat(start[dice], outcome_counts) + mdp.ragged_arange(outcome_counts)
    action_masks = np.repeat(masks[live], choices)
    next_states = np.repeat(action_masks, outcome_counts) << b.roll_bits | np.array(totals, dtype=np.int64)[flat]
    return mdp.Expansion(
        action_counts=action_counts,
        actions=dice,
        outcome_counts=outcome_counts,
        next_states=next_states,
        probabilities=np.array(prob_ids, dtype=np.int32)[flat],
        probability_table=tuple(table),
        terminal_values=b.values(masks[~live]),
    )


def _expand_after_roll(b: Box, masks, rolls) -> mdp.Expansion:
    """Each state's legal moves, in the game's order, looked up rather than tested: a move is
    a high part (tiles above the lowest ``LOW_BITS``) and a low part; for each high part, a
    table gives every open set of low tiles its legal low parts (see :func:`_move_tables`)."""
    # Keys, masks and moves in 32 bits where they fit: half the memory of the largest stages.
    kind = np.uint32 if b.key(b.full, (1 << b.roll_bits) - 1) < 2**32 else np.int64
    masks = masks.astype(kind)
    counts = np.zeros(len(masks), dtype=np.int64)
    plans = []
    for total in np.flatnonzero(np.bincount(rolls)).tolist():
        rows = np.flatnonzero(rolls == total)
        open_ = masks[rows]
        low = open_ & _LOW_MASK
        found = []  # per high part, in the game's order: how many moves each state has
        for high, table in _move_tables(b, total):
            count = table.counts[low]
            if high:
                count = np.where((open_ & high) == high, count, 0)
            found.append(count)
        if found:
            counts[rows] = functools.reduce(np.add, found)
        plans.append((rows, low, found, _move_tables(b, total)))
    # A state's moves start at starts[i]; each high part's moves follow the previous ones'.
    starts = np.cumsum(counts) - counts
    actions = np.empty(int(counts.sum()), dtype=kind)
    step = np.arange(len(actions), dtype=np.int64)  # sliced: i-th move of a group = start + i
    for rows, low, found, tables in plans:
        at = starts[rows]
        for (high, table), count in zip(tables, found):
            first = np.cumsum(count)
            n = int(first[-1])
            if n:
                first -= count  # where each state's moves start in this group
                source = np.repeat(table.starts[low] - first, count)
                source += step[:n]
                moves = table.moves[source]
                if high:
                    moves |= high
                target = np.repeat(at - first, count)
                target += step[:n]
                actions[target] = moves
                at += count
    next_states = np.repeat(masks, counts)
    next_states &= ~actions
    next_states <<= b.roll_bits
    return mdp.Expansion(
        action_counts=counts,
        actions=actions,
        outcome_counts=np.ones(len(actions), dtype=np.uint8),
        next_states=next_states,
        probabilities=np.zeros(len(actions), dtype=np.uint8),
        probability_table=(1,),
        terminal_values=b.values(masks[counts == 0]),
    )


LOW_BITS = 12
"""The lowest tiles whose open sets the move tables list one by one (4,096 rows a table)."""
_LOW_MASK = (1 << LOW_BITS) - 1


class _MoveTable:
    """For every set of open low tiles (a row), the legal low parts of moves, in order:
    ``moves[starts[row]:starts[row] + counts[row]]``."""

    def __init__(self, lows: np.ndarray) -> None:
        rows = np.arange(1 << LOW_BITS, dtype=np.int64)
        legal = (rows[:, None] & lows[None, :]) == lows[None, :]
        self.counts = np.count_nonzero(legal, axis=1)
        self.starts = np.cumsum(self.counts) - self.counts
        self.moves = lows[np.nonzero(legal)[1]]


def _move_tables(b: Box, total: int) -> list[tuple[int, _MoveTable]]:
    """The moves for ``total`` (from the game's ``shutbox_moves``) split by their high part,
    highest first, each with its table of low parts: the game's order of moves (masks
    descending) is the high parts' order, then the low parts'."""
    tables = b.memo.get(total)
    if tables is None:
        moves = b.moves(total)
        highs = moves & ~_LOW_MASK
        tables = []
        for high in sorted(set(highs.tolist()), reverse=True):
            lows = moves[highs == high] & _LOW_MASK  # already descending
            tables.append((high, _MoveTable(lows)))
        b.memo[total] = tables
    return tables


@mdp.hookimpl
def mdp_columns(game, states, actions):
    """``open`` and ``roll`` of each state; with actions, ``dice`` and ``shut`` too. States
    alone (the terminal states of a model) also get their scores as numbers: ``open_sum``
    (the pub score) and ``shut_sum`` (Durango Bill's).

    ``None`` where a column does not apply: ``roll`` and ``shut`` before a roll, ``dice``
    after one.
    """
    b = box(game)
    masks, rolls = b.split(np.asarray(states, dtype=np.int64))
    before = rolls == 0
    if actions is None:  # a model's terminal states, maybe millions, on the solve path
        open_sum = b.open_sum(masks)
        return {"open": _tile_lists(b, masks), "roll": _unless(before, rolls),
                "open_sum": open_sum, "shut_sum": sum(b.tiles) - open_sum}
    import polars as pl  # only here: a policy is a Polars table, and solving needs no Polars

    if isinstance(actions, np.ndarray):
        codes, known = actions.astype(np.int64), np.ones(len(actions), dtype=bool)
    else:  # a few rows, some without an action (the engine describing a state)
        known = np.array([a is not None for a in actions], dtype=bool)
        codes = np.array([a or 0 for a in actions], dtype=np.int64)

    def where(values, keep):
        return pl.Series(values).scatter(np.flatnonzero(~keep), None)

    return {
        "open": _tile_series(b, masks),
        "roll": where(rolls, ~before),
        "dice": where(codes, before & known),
        "shut": where(_tile_series(b, codes), ~before & known),
    }


def _unless(missing: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` as Python objects, ``None`` where ``missing``."""
    result = values.astype(object)
    result[missing] = None
    return result


def _tile_series(b: Box, masks: np.ndarray):
    """Each mask's tiles as text, as a Polars column: the text of each distinct mask is
    written once, then gathered by Polars (no Python string per row: a policy has millions)."""
    import polars as pl

    masks = np.asarray(masks, dtype=np.int64)
    if not len(masks):
        return pl.Series([], dtype=pl.String)
    low, high = int(masks.min()), int(masks.max())
    if low >= 0 and high < 4 * len(masks) + 4096:  # dense: distinct masks through a bitmap
        present = np.zeros(high + 1, dtype=bool)
        present[masks] = True
        distinct = np.flatnonzero(present)
        where = np.cumsum(present, dtype=np.int64) - 1
        index = where[masks]
    else:
        distinct, index = np.unique(masks, return_inverse=True)
    text = pl.Series(_joined(b, distinct).tolist(), dtype=pl.String)
    return text.gather(pl.Series(index, dtype=pl.UInt32 if len(distinct) < 2**32 else pl.UInt64))


def _tile_lists(b: Box, masks: np.ndarray) -> np.ndarray:
    """Each mask's tiles as text ("1 2 9"), written once per distinct mask when they repeat."""
    masks = np.asarray(masks, dtype=np.int64)
    if len(masks) and masks.max() < len(masks):  # a dense table of masks: write each once
        present = np.bincount(masks) > 0
        text = np.empty(len(present), dtype=object)
        text[present] = _joined(b, np.flatnonzero(present))
        return text[masks]
    return _joined(b, masks)


def _joined(b: Box, masks: np.ndarray) -> np.ndarray:
    """Tiles as text joined from tables of ten tiles at a time: no Python call per mask, for
    the millions of states of a large box."""
    text = np.full(len(masks), "", dtype=object)
    for start in range(0, len(b.tiles), _TILES_PER_TABLE):
        table = _text_table(b.tiles[start:start + _TILES_PER_TABLE])
        piece = table[(masks >> start) & (len(table) - 1)]
        text = np.where((text != "") & (piece != ""), text + " ", text) + piece
    return text


@functools.lru_cache(maxsize=16)
def _text_table(tiles: tuple[int, ...]) -> np.ndarray:
    """The text of every set of these tiles, indexed by its mask (made once per process)."""
    table = np.empty(1 << len(tiles), dtype=object)
    table[:] = [" ".join(str(t) for i, t in enumerate(tiles) if m >> i & 1)
                for m in range(len(table))]
    return table


_TILES_PER_TABLE = 10
