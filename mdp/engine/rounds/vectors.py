"""The chance of every total so far of the round states reached in one round
(:class:`Totals`), and its moves to the round states of the next.

Each round state reached carries a vector: the chance of each total from its own least one
to its most, in whole numbers. Vectors of about the same width share a block (a matrix, a
row each), so that the moves of many round states are whole rows of arithmetic: for each
block of the round states left, block of those reached and shift, the rows gathered,
weighted by the chance of the end and added into the rows of the round states reached at
the shift, a sparse product that sums the moves into one round state.

Where numba is installed, the compiled kernel (:func:`mdp.engine.fused_rounds.moved`) makes the
same sums, in the same order, bit for bit, a round state reached at a time: the moves into it
from one block at one shift summed, then added to its vector, shift after shift, block after
block, as the sparse products add them; it reads only each vector's own width, and goes
through the round states reached in their order, whose moves come from round states alike
(the vectors they read are then in the processor's cache more often).
"""

from __future__ import annotations

import numpy as np

from mdp.engine import fused, fused_rounds
from mdp.engine.parallel import side_by_side, threads


class Totals:
    """The chance of every total so far of the round states reached in one round: for each
    (``index``, positions among :attr:`mdp.Rounds.keys` of the round), the least total
    (``low``) and how many totals from it (``width``), and where its vector lies: row
    ``row`` of block ``block``; every block a matrix of vectors of one width or less, zeros
    beyond each vector's own."""

    def __init__(self, index: np.ndarray, low: np.ndarray, width: np.ndarray) -> None:
        self.index, self.low, self.width = index, low, width
        # Blocks by powers of two: a vector at most twice as wide as its neighbours' rows.
        self.block = np.searchsorted(1 << np.arange(63, dtype=np.int64), width)
        order = np.argsort(self.block, kind="stable")
        self.row = np.empty(len(width), dtype=np.int64)
        bounds = np.searchsorted(self.block[order], np.arange(int(self.block.max(initial=0)) + 2))
        members = [order[bounds[b]:bounds[b + 1]] for b in range(len(bounds) - 1)]
        shapes = [(len(m), int(width[m].max(initial=0))) for m in members]  # rows, columns
        # The blocks one after another in one array: a vector is also ``width`` numbers
        # of it from ``at`` (the compiled kernel's moves).
        self.flat = np.zeros(sum(rows * wide for rows, wide in shapes))
        self.at = np.empty(len(width), dtype=np.int64)
        self.blocks = []
        start = 0
        for these, (rows, wide) in zip(members, shapes):
            self.row[these] = np.arange(rows)
            self.at[these] = start + np.arange(rows) * wide
            self.blocks.append(self.flat[start:start + rows * wide].reshape(rows, wide))
            start += rows * wide

    @classmethod
    def start(cls) -> Totals:
        """The round state before the first round: a total of 0, surely."""
        totals = cls(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64))
        totals.blocks[0][0, 0] = 1.0
        return totals

    def ending(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The totals and their chances (two flat arrays) of round states ``which``
        (positions among ``index``): those that end the game."""
        parts = []
        for b, block in enumerate(self.blocks):
            mine = which[self.block[which] == b]
            if len(mine):
                at = np.arange(block.shape[1])
                inside = at < self.width[mine, None]
                parts.append(((self.low[mine, None] + at)[inside], block[self.row[mine]][inside]))
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        return np.concatenate([t for t, _ in parts]), np.concatenate([c for _, c in parts])

    def moved(self, s: np.ndarray, d: np.ndarray, points: np.ndarray, chance: np.ndarray,
              following: int) -> Totals:
        """The round states of the next round reached: round state ``s[i]`` (a position
        among ``index``) comes to ``d[i]`` (among the next round's ``following`` keys)
        earning ``points[i]`` with chance ``chance[i]``."""
        start = self.low[s] + points
        stop = start + self.width[s]
        low = np.full(following, np.iinfo(np.int64).max)
        high = np.full(following, np.iinfo(np.int64).min)
        np.minimum.at(low, d, start)
        np.maximum.at(high, d, stop)
        index = np.flatnonzero(high > np.iinfo(np.int64).min)
        place = np.empty(following, dtype=np.int64)
        place[index] = np.arange(len(index))
        after = Totals(index, low[index], high[index] - low[index])
        d = place[d]
        shift = start - after.low[d]
        compiled = fused.kernel(int(self.width[s].sum()), "moved") if fused.COMPILED else None
        ordering = None if compiled is None else fused.kernel(0, "order")
        if compiled is None or ordering is None or not len(s):
            self._by_blocks(after, s, d, shift, chance)
            return after
        # Sorted by the round state reached, then as the blocks' runs sort them (the
        # block left, then the shift): each run of one of each, one sum, in the order given.
        key = self.block[s] * int(shift.max() + 1) + shift
        order, start = fused_rounds.order_of_moves(ordering, d, key, len(after.index))
        # Pieces of whole round states reached, side by side: each writes only its own.
        pieces = np.unique(start[np.linspace(0, len(after.index), 4 * threads() + 1).astype(np.int64)])

        def fill(piece: int) -> None:
            fused_rounds.moved(compiled, self.flat, self.at, self.width, after.flat, after.at, s, d,
                        shift, chance, key, order[pieces[piece]:pieces[piece + 1]])

        side_by_side(fill, range(len(pieces) - 1))
        return after

    def _by_blocks(self, after: Totals, s: np.ndarray, d: np.ndarray, shift: np.ndarray,
                   chance: np.ndarray) -> None:
        """:meth:`moved`'s moves into ``after``, in numpy: block by block."""
        import scipy.sparse  # here, as in mdp.engine.columns: not at every command's start

        source, target = self.block[s], after.block[d]
        # Runs of moves between two blocks at one shift (sorted by blocks, shift and round
        # state reached): each a sparse matrix of chances, a row per round state reached,
        # times the block left (its product sums the moves into one round state).
        order = _order(source, target, shift, d)
        s, d, shift, chance, source, target = (a[order] for a in (s, d, shift, chance, source, target))
        cuts = _cuts(source, target, shift)
        rows, into = self.row[s], after.row[d]
        # By the block they move into: the blocks are filled side by side.
        runs: dict[int, list[tuple[int, int]]] = {}
        for i0, i1 in zip(cuts, cuts[1:]):
            runs.setdefault(int(target[i0]), []).append((i0, i1))

        def fill(into_block: int) -> None:
            onto = after.blocks[into_block]
            for i0, i1 in runs[into_block]:
                block, k = self.blocks[source[i0]], int(shift[i0])
                # Past its own width a row holds zeros: only what fits at the shift is moved.
                width = min(block.shape[1], onto.shape[1] - k)
                first = np.flatnonzero(np.concatenate([[True], into[i0 + 1:i1] != into[i0:i1 - 1]]))
                moves = scipy.sparse.csr_array((chance[i0:i1], rows[i0:i1], np.append(first, i1 - i0)),
                                               shape=(len(first), len(block)))
                onto[into[i0 + first], k:k + width] += (moves @ block)[:, :width]

        side_by_side(fill, sorted(runs, key=lambda b: -after.blocks[b].size))


def _cuts(*keys: np.ndarray) -> list[int]:
    """Where a run of equal ``keys`` (sorted arrays of the same length) begins, and the end."""
    change = np.zeros(len(keys[0]) - 1, dtype=bool) if len(keys[0]) else np.zeros(0, dtype=bool)
    for key in keys:
        change |= key[1:] != key[:-1]
    return [0, *(np.flatnonzero(change) + 1).tolist(), len(keys[0])]


def _order(*keys: np.ndarray) -> np.ndarray:
    """The order that sorts by ``keys`` (arrays of whole numbers from 0), the first foremost:
    one sort of the keys packed into one integer where they fit in 63 bits (several times
    quicker than sorting by each in turn)."""
    bits = [int(key.max(initial=0)).bit_length() for key in keys]
    if sum(bits) > 63:
        return np.lexsort(keys[::-1])
    packed = np.zeros(len(keys[0]), dtype=np.int64)
    for key, width in zip(keys, bits):
        packed <<= width
        packed |= key
    return np.argsort(packed, kind="stable")
