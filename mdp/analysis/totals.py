"""The chance of every total of points of a game of rounds under optimal play, in floats, a
round at a time: the round states of a round in batches, each batch's rounds solved as value
columns of the round model with every state's choice kept
(:meth:`mdp.RoundsSolution.choices`), the play of each column pushed forward to the round's
ends (:func:`mdp.engine.sweep.forward_chosen`), and each round state's chance of every total
so far moved, shifted by each end's points, to the round state that end leads to.

Each round state reached carries a vector: the chance of each total from its own least one
to its most, in whole numbers. Vectors of about the same width share a block (a matrix, a
row each), so that the moves of many round states are whole rows of arithmetic: for each
block of the round states left, block of those reached and shift, the rows gathered,
weighted by the chance of the end and added into the rows of the round states reached at
the shift; the second move into one round state in a run of its own, and so on, so that no
row is added to twice at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mdp.engine.keys import KeyIndex
from mdp.engine.parallel import side_by_side
from mdp.engine.rounds import WORK, RoundEnds, RoundsSolution
from mdp.engine.sweep import forward_chosen
from mdp.errors import ModelError

ROWS = 1 << 18
"""Numbers (rows times their width) gathered at a time when vectors are moved."""


class NotWhole(ModelError):
    """An end reached earns points that are not a whole number: totals are not followed in
    floats then (:func:`mdp.analysis.distribution.rounds_distribution` says what it does)."""


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
        self.blocks = []
        for b in range(len(bounds) - 1):
            members = order[bounds[b]:bounds[b + 1]]
            self.row[members] = np.arange(len(members))
            self.blocks.append(np.zeros((len(members), int(width[members].max(initial=0)))))

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
        source, target = self.block[s], after.block[d]
        # Runs of moves between two blocks at one shift, each round state reached once in a
        # run: sorted by blocks, shift and round state reached, numbered within each round
        # state (0, 1, ...), then sorted by blocks, shift and that number.
        order = _order(source, target, shift, d)
        s, d, shift, chance, source, target = (a[order] for a in (s, d, shift, chance, source, target))
        rank = _runs(source, target, shift, d)
        order = _order(source, target, shift, rank)
        s, d, shift, chance, source, target, rank = (
            a[order] for a in (s, d, shift, chance, source, target, rank))
        cuts = _cuts(source, target, shift, rank)
        rows, into = self.row[s], after.row[d]
        runs = {}  # by the block they move into: the blocks are filled side by side
        for i0, i1 in zip(cuts, cuts[1:]):
            runs.setdefault(int(target[i0]), []).append((i0, i1))

        def fill(into_block: int) -> None:
            onto = after.blocks[into_block]
            for i0, i1 in runs[into_block]:
                block, k = self.blocks[source[i0]], int(shift[i0])
                # Past its own width a row holds zeros: only what fits at the shift is moved.
                width = min(block.shape[1], onto.shape[1] - k)
                step = max(1, ROWS // max(width, 1))
                for j0 in range(i0, i1, step):
                    j1 = min(j0 + step, i1)
                    moving = block[rows[j0:j1], :width]
                    moving *= chance[j0:j1, None]
                    onto[into[j0:j1], k:k + width] += moving

        side_by_side(fill, sorted(runs, key=lambda b: -after.blocks[b].size))
        return after


def follow(solution: RoundsSolution, progress: Callable[[str], None] | None = None
           ) -> tuple[int, np.ndarray]:
    """The chance of every final total under ``solution``'s optimal play (the first optimal
    action of each state), in floats: the least total, and the chance of it and of each
    total after it. :class:`NotWhole` where an end reached earns points that are not whole."""
    model = solution.model
    inner = model.round
    table = np.array([float(p) for p in inner.probabilities])
    size = max(1, WORK // max(inner.n_states, inner.n_terminal))
    now = Totals.start()
    ended = []
    for r in range(model.n_rounds + 1):
        keys = model.keys[r][now.index]
        if progress:
            progress(f"following the totals of round {r + 1} of {model.n_rounds + 1}: "
                     f"{len(keys):,} round states reached")
        position = _positions(model.keys[r + 1]) if r < model.n_rounds else None
        moves = []
        for b0 in range(0, len(keys), size):
            batch = keys[b0:b0 + size]
            ends = model.ends(batch)
            over = ends.next.max(axis=1) < 0
            ended.append(now.ending(b0 + np.flatnonzero(over)))
            playing = np.flatnonzero(~over)
            if not len(playing):
                continue
            row, next_, points, chance = _ends_reached(solution, batch[playing], ends, playing, table)
            moves.append((b0 + playing[row], position(next_), points, chance))
        if not moves:
            totals, chances = (np.concatenate(parts) for parts in zip(*ended))
            low = int(totals.min())
            chances = np.bincount(totals - low, weights=chances)
            return low, chances
        s, d, points, chance = (np.concatenate(parts) for parts in zip(*moves))
        now = now.moved(s, d, points, chance, len(model.keys[r + 1]))
    raise ModelError(f"game {model.info.game}: games still playing after its last round")


def _ends_reached(solution: RoundsSolution, keys: np.ndarray, ends, rows: np.ndarray,
                  table: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every end that optimal play reaches from round states ``keys`` (rows ``rows`` of
    ``ends``): the round state's place among ``keys``, the next round state's key, the
    points (whole) and the chance."""
    inner = solution.model.round
    reach = np.zeros((inner.n_states, len(keys)))
    reach[inner.initial] = 1.0
    playing = RoundEnds(ends.next[rows], ends.points[rows])
    forward_chosen(inner, solution.choices(keys, playing), reach, table)
    end, row = np.nonzero(reach[:inner.n_terminal])
    chance = reach[end, row]
    next_ = ends.next[rows[row], end]
    if (next_ < 0).any():
        at = int(np.flatnonzero(next_ < 0)[0])
        raise ModelError(f"game {solution.model.info.game}: from round state {int(keys[row[at]])}, "
                         "optimal play comes to an end that mdp_round_ends does not allow there")
    return row, next_, _whole(ends.points[rows[row], end], keys[row]), chance


def _whole(points: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``points`` as whole numbers (int64); :class:`NotWhole` if one is not."""
    if points.dtype.kind in "biu":
        return points.astype(np.int64)
    whole = np.array([round(p) for p in points.tolist()], dtype=np.int64)
    wrong = np.flatnonzero(whole != points)
    if len(wrong):
        raise NotWhole(f"points {points[wrong[0]]} from round state {int(keys[wrong[0]])}")
    return whole


def _positions(keys: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """The place of some keys among the sorted ``keys`` (all of them there): a table indexed
    by the key where the keys are small, else a binary search."""
    if len(keys) and int(keys[-1]) < 1 << 24:
        table = np.zeros(int(keys[-1]) + 1, dtype=np.int64)
        table[keys] = np.arange(len(keys))
        return lambda some: table[some]
    return KeyIndex(keys, in_order=True).ids_of


def _cuts(*keys: np.ndarray) -> list[int]:
    """Where a run of equal ``keys`` (sorted arrays of the same length) begins, and the end."""
    change = np.zeros(len(keys[0]) - 1, dtype=bool) if len(keys[0]) else np.zeros(0, dtype=bool)
    for key in keys:
        change |= key[1:] != key[:-1]
    return [0, *(np.flatnonzero(change) + 1).tolist(), len(keys[0])]


def _runs(*keys: np.ndarray) -> np.ndarray:
    """Each item's place in its run of equal ``keys`` (sorted): 0, 1, 2, ..."""
    cuts = np.array(_cuts(*keys))
    return np.arange(len(keys[0])) - np.repeat(cuts[:-1], np.diff(cuts))


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
