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
def mdp_expand(game, states, labels):
    b = box(game)
    if states[0] >> b.mask_bits == 0:  # not rolled yet: the keys are the masks
        return _expand_before_roll(b, states)
    return _expand_after_roll(b, states, labels)


def _expand_before_roll(b: Box, masks: np.ndarray) -> mdp.Expansion:
    """Each state's choices of dice, and for each the totals it may roll: the distributions
    of the numbers of dice chosen lie end to end in one table, of which each choice reads a
    run. The empty box is the one terminal state."""
    masks = masks.astype(b.key_type)
    live = masks != 0
    choices, dice = b.dice_options(masks[live])
    action_counts = np.zeros(len(masks), dtype=np.uint8)
    action_counts[live] = choices
    distributions = {n: b.roll(n) for n in np.flatnonzero(np.bincount(dice)).tolist()}
    table = sorted({p for d in distributions.values() for p, _ in d})
    prob_id = {p: i for i, p in enumerate(table)}
    starts = np.zeros(b.most_dice + 1, dtype=np.int64)
    lengths = np.zeros(b.most_dice + 1, dtype=np.int64)
    totals, ids = [], []
    for n, distribution in distributions.items():
        starts[n], lengths[n] = len(totals), len(distribution)
        totals += [total for _, total in distribution]
        ids += [prob_id[p] for p, _ in distribution]
    totals = np.array(totals, dtype=b.key_type) << b.mask_bits  # rolled, no tile open
    ids = np.array(ids, dtype=np.min_scalar_type(len(table)))
    outcome_counts = lengths[dice]
    keys = np.repeat(masks[live], choices)  # each choice's state, rolled 0
    next_states = np.empty(int(outcome_counts.sum()), dtype=b.key_type)
    probabilities = np.empty(len(next_states), dtype=ids.dtype)
    at = 0
    for chunk in _chunks(len(dice)):
        picks = _ranges(starts[dice[chunk]], outcome_counts[chunk])
        out = slice(at, at + len(picks))
        np.take(totals, picks, out=next_states[out], mode="clip")  # "raise" buffers
        next_states[out] |= np.repeat(keys[chunk], outcome_counts[chunk])
        np.take(ids, picks, out=probabilities[out], mode="clip")
        at += len(picks)
    return mdp.Expansion(
        action_counts=action_counts,
        actions=dice.astype(np.uint8),
        outcome_counts=outcome_counts.astype(np.min_scalar_type(lengths.max())),
        next_states=next_states,
        probabilities=probabilities,
        probability_table=tuple(table),
        terminal_values=b.values(masks[~live]),
    )


def _expand_after_roll(b: Box, keys: np.ndarray, labels: bool) -> mdp.Expansion:
    """Each state's legal moves, in the game's order, read off the trie of moves (see
    :class:`_MoveTrie`) a chunk of states at a time, so that the temporaries stay small.

    First each state is walked down the trie, which finds its moves as runs of the trie's
    list of moves, and counts them: that sizes the output. Then the runs are copied, front
    to back, straight into the output, and made next states there. The moves themselves
    (the actions' labels) are kept only when asked for: at 20 tiles they are 380 MB."""
    trie = _move_trie(b)
    chunks = _chunks(len(keys))
    counts = np.empty(len(keys), dtype=trie.count_type)
    runs = []
    for chunk in chunks:
        masks, totals = _split(b, keys[chunk])
        counts[chunk], cells, ends = trie.walk(masks, totals)
        runs.append((masks, cells, ends))
    next_states = np.empty(int(counts.sum(dtype=np.int64)), dtype=b.key_type)
    actions = np.empty_like(next_states) if labels else None
    at = 0
    for chunk, (masks, cells, ends) in zip(chunks, runs):
        picks, _, _ = _picks(cells, ends)
        moves = next_states[at:at + len(picks)]
        np.take(trie.moves, picks, out=moves, mode="clip")  # "raise" buffers
        if labels:
            actions[at:at + len(picks)] = moves
        # mask ^ move is mask & ~move: a move's tiles are open. The result is the key of
        # the state before the next roll.
        moves ^= np.repeat(masks, counts[chunk])
        at += len(picks)
    # Every move is certain: one next state each, no outcome arrays.
    return mdp.Expansion.choices(counts, actions, next_states,
                                 b.values(b.split(keys[counts == 0])[0]))


def _split(b: Box, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks (in :attr:`Box.key_type`) and totals of a chunk of state keys."""
    masks, totals = b.split(keys)
    return masks.astype(b.key_type), totals


def _chunks(n: int) -> list[slice]:
    """``range(n)`` in slices of ``_CHUNK``."""
    return [slice(at, at + _CHUNK) for at in range(0, n, _CHUNK)]


def _ranges(starts: np.ndarray, lengths: np.ndarray, ends: np.ndarray | None = None) -> np.ndarray:
    """The runs ``starts[i], starts[i] + 1, .., starts[i] + lengths[i] - 1``, end to end;
    ``ends``, the runs' running ends as :func:`_running` gives them, where already made
    (a running sum is the costliest step here: 1.9 ns an item).

    Item ``p`` is ``p`` plus its run's offset, ``starts[i]`` less where the run begins. The
    offsets change where runs begin; the changes are put there (added up: an empty run
    begins where the next one does) and carried along by a running sum, which is faster
    than ``np.repeat`` on many short runs."""
    if ends is None:
        ends = _running(lengths)
    firsts, size = ends[:-1], int(ends[-1])
    offsets = starts - firsts
    offsets[1:] -= offsets[:-1].copy()  # the changes: np.diff(prepend=0), less two copies
    steps = np.zeros(size + 1, dtype=np.int64)
    np.add.at(steps, firsts, offsets)
    picks = np.cumsum(steps[:size], out=steps[:size])
    picks += np.arange(size)
    return picks


def _running(counts: np.ndarray) -> np.ndarray:
    """0, then the running totals of ``counts``: item ``i`` is where group ``i`` starts."""
    result = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=result[1:])
    return result


_CHUNK = 1 << 14
"""States expanded at a time: a chunk's temporaries stay in the processor's cache."""

DIGIT_BITS = 12
"""Tiles per digit of a mask in the trie of moves: a node's table has a row for each of the
4,096 open sets of its digit's tiles."""
_COUNT_BITS = DIGIT_BITS + 1
"""Bits of a table cell that hold its count of legal children: at most 4,096 (one per
value of a digit)."""


def _move_trie(b: Box) -> _MoveTrie:
    """The trie of moves of every total the dice can roll, made once per rule set."""
    trie = b.memo.get("trie")
    if trie is None:
        trie = b.memo["trie"] = _MoveTrie(b, range(1, b.most_dice * b.faces + 1))
    return trie


class _MoveTrie:
    """The moves of some roll totals as a trie over the digits of their masks.

    A mask is read ``DIGIT_BITS`` tiles (a digit) at a time, the highest digit first. A node
    of level ``i`` holds the moves of one total that agree on the digits above digit ``i``;
    its children are their distinct values of digit ``i``, highest first; at the lowest
    level they are the moves themselves. Each node has a table: for every open set of its
    digit's tiles (a row), which children are legal (all their tiles open). A state's moves
    are the leaves of its walk down the trie through the rows its own digits pick, and the
    walk meets them in the game's order (masks descending).

    For the usual boxes (moves among the twelve lowest tiles) it is one level: a table per
    total. ``levels`` are the :class:`_Level` s, highest first; ``roots`` gives each total
    the first row of its node in the top level; ``moves`` is the lowest level's children;
    ``count_type`` holds any state's number of moves (the most a total has).
    """

    def __init__(self, b: Box, totals: range) -> None:
        groups = [b.moves(total).astype(b.key_type) for total in totals]
        self.count_type = np.min_scalar_type(max(len(group) for group in groups))
        top = max((int(group[0]).bit_length() for group in groups if len(group)), default=1)
        self.levels = []
        for shift in range(DIGIT_BITS * ((top - 1) // DIGIT_BITS), -1, -DIGIT_BITS):
            self.levels.append(_Level(groups, shift, min(DIGIT_BITS, top - shift)))
            groups = self.levels[-1].below
        self.roots = np.zeros(totals.stop, dtype=np.int64)
        self.roots[totals] = np.arange(len(totals)) << self.levels[0].width
        self.moves = self.levels[-1].children

    def walk(self, masks: np.ndarray, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Walk states (their ``masks`` and ``totals``) down the trie. Returns how many moves
        each state has, and the cells of the lowest level it reaches, state after state: its
        moves are the runs of :attr:`moves` they point at (see :func:`_picks`), with the
        cells' running counts where the walk made them (below a level above, else ``None``)."""
        level = self.levels[0]
        cells = level.cells[self.roots[totals] + ((masks >> level.shift) & level.row_mask)]
        bounds = None  # where each state's cells start, then where the last ends (None: one each)
        for below in self.levels[1:]:
            picks, counts, ends = _picks(cells)
            bounds = ends if bounds is None else ends[bounds]
            masks = np.repeat(masks, counts)
            cells = below.cells[level.children[picks] + ((masks >> below.shift) & below.row_mask)]
            level = below
        counts = cells & _COUNT_MASK
        if bounds is None:
            return counts, cells, None
        ends = _running(counts)
        return np.diff(ends[bounds]), cells, ends


def _picks(cells: np.ndarray, ends: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the children that table ``cells`` point at are in their level's ``children``,
    cell after cell; how many each cell has, and their running ends (see :func:`_running`;
    made here unless given)."""
    counts = cells & _COUNT_MASK
    if ends is None:
        ends = _running(counts)
    return _ranges(cells >> _COUNT_BITS, counts, ends), counts, ends


_COUNT_MASK = (1 << _COUNT_BITS) - 1


class _Level:
    """One level of a :class:`_MoveTrie`: its digit (``width`` tiles from bit ``shift``) and
    its nodes, made from ``groups`` (each node's moves, descending). A node is ``2**width``
    rows of ``cells``: row ``r`` holds how many of the node's children are legal when the
    digit's open tiles are ``r`` (the lowest ``_COUNT_BITS``) and where they start in
    ``children`` (the bits above). The children are the moves at the lowest level (shift 0),
    and above it the first row of each child's node in the level below, made from ``below``."""

    def __init__(self, groups: list[np.ndarray], shift: int, width: int) -> None:
        self.shift, self.width, self.row_mask = shift, width, (1 << width) - 1
        rows = np.arange(1 << width, dtype=np.int32)
        cells, children, self.below = [], [], []
        used = 0
        for group in groups:
            digits = ((group >> shift) & self.row_mask).astype(np.int32)
            firsts = np.flatnonzero(np.diff(digits, prepend=-1))  # runs of one digit
            distinct = digits[firsts]
            legal = (rows[:, None] & distinct) == distinct
            count = np.count_nonzero(legal, axis=1)
            cells.append((np.cumsum(count) - count + used) << _COUNT_BITS | count)
            picked = np.nonzero(legal)[1]
            used += len(picked)
            if shift:  # a child's node starts at its number times its rows (a full digit)
                children.append((picked + len(self.below)) << DIGIT_BITS)
                self.below += np.split(group, firsts[1:])
            else:
                children.append(group[firsts[picked]])
        self.cells = np.concatenate(cells)
        if used << _COUNT_BITS < 2**32:  # half the memory, for the walk's cache and its output
            self.cells = self.cells.astype(np.uint32)
        self.children = np.concatenate(children)


@mdp.hookimpl
def mdp_columns(game, states, actions):
    """``open`` and ``roll`` of each state; with actions, ``dice`` and ``shut`` too. States
    alone (the terminal states of a model) also get their scores as numbers: ``open_sum``
    (the pub score) and ``shut_sum`` (Durango Bill's).

    ``None`` where a column does not apply: ``roll`` and ``shut`` before a roll, ``dice``
    after one.
    """
    b = box(game)
    states = np.asarray(states)
    masks, rolls = b.split(states if states.dtype.kind in "iu" else states.astype(np.int64))
    before = rolls == 0
    if actions is None:  # a model's terminal states, maybe millions, on the solve path:
        # the text is made when a table of them is (plain data here, not the game)
        open_sum = b.open_sum(masks)
        return {"open": mdp.LazyColumn(len(masks), _tile_lists, (b.tiles, masks)),
                "roll": mdp.LazyColumn(len(masks), _unless, (before, rolls)),
                "open_sum": open_sum, "shut_sum": sum(b.tiles) - open_sum}
    # Millions of rows (a policy): every column is a small table of values gathered by
    # Polars, the table's first entry None (a roll of 0 is no roll yet; no move shuts no
    # tile; no choice of dice is 0 dice).
    if isinstance(actions, np.ndarray):
        codes = actions
    else:  # a few rows, some without an action (the engine describing a state)
        codes = np.array([a or 0 for a in actions], dtype=np.int64)
    moves = np.where(before, 0, codes)
    return {
        "open": _tile_series(b, masks),
        "roll": _gathered(range(1, b.most_rolled + 1), rolls),
        "dice": _gathered(range(1, b.most_dice + 1), np.where(before, codes, 0)),
        "shut": _tile_series(b, moves, empty=None),
    }


def _unless(missing: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` as Python objects, ``None`` where ``missing``."""
    result = values.astype(object)
    result[missing] = None
    return result


def _tile_series(b: Box, masks: np.ndarray, empty: str | None = ""):
    """Each mask's tiles as text, as a Polars column, ``empty`` for no tiles: the text of
    each distinct mask is written once, then gathered by Polars (no Python string per row:
    a policy has millions)."""
    import polars as pl

    masks = np.asarray(masks)
    if not len(masks):
        return pl.Series([], dtype=pl.String)
    high = int(masks.max())
    if high < 4 * len(masks) + 4096:  # dense: distinct masks through a bitmap
        present = np.zeros(high + 1, dtype=bool)
        present[masks] = True
        distinct = np.flatnonzero(present)
        where = np.cumsum(present, dtype=np.uint32)
        where -= 1
        index = where[masks]
    else:
        distinct, index = np.unique(masks, return_inverse=True)
    text = _joined(b.tiles, distinct).tolist()
    if distinct[0] == 0:
        text[0] = empty
    return pl.Series(text, dtype=pl.String).gather(pl.Series(index))


def _gathered(values: range, index: np.ndarray):
    """``values[index - 1]`` as a Polars column of integers, ``None`` where ``index`` is 0."""
    import polars as pl

    table = pl.Series([None, *values], dtype=pl.Int64)
    return table.gather(pl.Series(index.astype(np.min_scalar_type(len(values)), copy=False)))


def _tile_lists(tiles: tuple[int, ...], masks: np.ndarray) -> np.ndarray:
    """Each mask's tiles as text ("1 2 9"), written once per distinct mask when they repeat."""
    masks = np.asarray(masks, dtype=np.int64)
    if len(masks) and masks.max() < len(masks):  # a dense table of masks: write each once
        present = np.bincount(masks) > 0
        text = np.empty(len(present), dtype=object)
        text[present] = _joined(tiles, np.flatnonzero(present))
        return text[masks]
    return _joined(tiles, masks)


def _joined(tiles: tuple[int, ...], masks: np.ndarray) -> np.ndarray:
    """Tiles as text joined from tables of ten tiles at a time: no Python call per mask, for
    the millions of states of a large box. The masks tell which texts are empty: a string is
    added to only where both parts have tiles."""
    text = None
    for start in range(0, len(tiles), _TILES_PER_TABLE):
        some = tiles[start:start + _TILES_PER_TABLE]
        part = (masks >> start) & ((1 << len(some)) - 1)
        if text is None:
            text = _text_table(some)[part]
            continue
        before = (masks & ((1 << start) - 1)) != 0
        alone = ~before
        text[alone] = _text_table(some)[part[alone]]
        both = before & (part != 0)
        text[both] += _text_table(some, " ")[part[both]]
    return text


@functools.lru_cache(maxsize=16)
def _text_table(tiles: tuple[int, ...], lead: str = "") -> np.ndarray:
    """The text of every set of these tiles, indexed by its mask, each after ``lead`` but the
    empty set's (made once per process)."""
    table = np.empty(1 << len(tiles), dtype=object)
    table[:] = [lead * (m > 0) + " ".join(str(t) for i, t in enumerate(tiles) if m >> i & 1)
                for m in range(len(table))]
    return table


_TILES_PER_TABLE = 10
