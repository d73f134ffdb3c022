"""The trie of moves: every legal move of many states at once, in the game's order, without a
Python call per state (see :class:`MoveTrie`)."""

from __future__ import annotations

import numpy as np

import mdp

from .box import Box

DIGIT_BITS = 12
"""Tiles per digit of a mask in the trie of moves: a node's table has a row for each of the
4,096 open sets of its digit's tiles."""
_COUNT_BITS = DIGIT_BITS + 1
"""Bits of a table cell that hold its count of legal children: at most 4,096 (one per
value of a digit)."""


def move_trie(b: Box) -> MoveTrie:
    """The trie of moves of every roll the dice can make, made once per rule set."""
    trie = b.memo.get("trie")
    if trie is None:
        trie = b.memo["trie"] = MoveTrie(b, range(1, len(b.roll_totals)))
    return trie


class MoveTrie:
    """The moves of some rolls (see :class:`~.box.Box`) as a trie over the digits of their
    masks.

    A mask is read ``DIGIT_BITS`` tiles (a digit) at a time, the highest digit first. A node
    of level ``i`` holds the moves of one roll that agree on the digits above digit ``i``;
    its children are their distinct values of digit ``i``, highest first; at the lowest
    level they are the moves themselves. Each node has a table: for every open set of its
    digit's tiles (a row), which children are legal (all their tiles open). A state's moves
    are the leaves of its walk down the trie through the rows its own digits pick, and the
    walk meets them in the game's order (masks descending).

    For the usual boxes (moves among the twelve lowest tiles) it is one level: a table per
    roll. ``levels`` are the :class:`Level` s, highest first; ``roots`` gives each roll the
    first row of its node in the top level; ``moves`` is the lowest level's children;
    ``count_type`` holds any state's number of moves (the most a roll has).
    """

    def __init__(self, b: Box, rolls: range) -> None:
        groups = [b.roll_moves(roll).astype(b.key_type) for roll in rolls]
        self.count_type = np.min_scalar_type(max(len(group) for group in groups))
        top = max((int(group[0]).bit_length() for group in groups if len(group)), default=1)
        self.levels = []
        for shift in range(DIGIT_BITS * ((top - 1) // DIGIT_BITS), -1, -DIGIT_BITS):
            self.levels.append(Level(groups, shift, min(DIGIT_BITS, top - shift)))
            groups = self.levels[-1].below
        self.roots = np.zeros(rolls.stop, dtype=np.int64)
        self.roots[rolls] = np.arange(len(rolls)) << self.levels[0].width
        self.moves = self.levels[-1].children

    def walk(self, masks: np.ndarray, rolls: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Walk states (their ``masks`` and ``rolls``) down the trie. Returns how many moves
        each state has, and the cells of the lowest level it reaches, state after state: its
        moves are the runs of :attr:`moves` they point at (see :func:`children`), with the
        cells' running counts where the walk made them (below a level above, else ``None``)."""
        level = self.levels[0]
        cells = level.cells[self.roots[rolls] + ((masks >> level.shift) & level.row_mask)]
        bounds = None  # where each state's cells start, then where the last ends (None: one each)
        for below in self.levels[1:]:
            picks, counts, ends = children(cells)
            bounds = ends if bounds is None else ends[bounds]
            masks = np.repeat(masks, counts)
            cells = below.cells[level.children[picks] + ((masks >> below.shift) & below.row_mask)]
            level = below
        counts = cells & _COUNT_MASK
        if bounds is None:
            return counts, cells, None
        ends = mdp.offsets(counts)
        return np.diff(ends[bounds]), cells, ends


def children(cells: np.ndarray, ends: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the children that table ``cells`` point at are in their level's ``children``,
    cell after cell; how many each cell has, and their running ends (see ``mdp.offsets``;
    made here unless given)."""
    counts = cells & _COUNT_MASK
    if ends is None:
        ends = mdp.offsets(counts)
    return ranges(cells >> _COUNT_BITS, counts, ends), counts, ends


_COUNT_MASK = (1 << _COUNT_BITS) - 1


class Level:
    """One level of a :class:`MoveTrie`: its digit (``width`` tiles from bit ``shift``) and
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


def ranges(starts: np.ndarray, lengths: np.ndarray, ends: np.ndarray | None = None) -> np.ndarray:
    """The runs ``starts[i], starts[i] + 1, .., starts[i] + lengths[i] - 1``, end to end;
    ``ends``, the runs' running ends as ``mdp.offsets`` gives them, where already made
    (a running sum is the costliest step here).

    Item ``p`` is ``p`` plus its run's offset, ``starts[i]`` less where the run begins. The
    offsets change where runs begin; the changes are put there (added up: an empty run
    begins where the next one does) and carried along by a running sum, which is faster
    than ``np.repeat`` on many short runs."""
    if ends is None:
        ends = mdp.offsets(lengths)
    firsts, size = ends[:-1], int(ends[-1])
    offsets = starts - firsts
    offsets[1:] -= offsets[:-1].copy()  # the changes: np.diff(prepend=0), less two copies
    steps = np.zeros(size + 1, dtype=np.int64)
    np.add.at(steps, firsts, offsets)
    picks = np.cumsum(steps[:size], out=steps[:size])
    picks += np.arange(size)
    return picks
