"""The best of many sets of rows at once, the pairs that several sets share taken once: a
plan of binary steps (:func:`shared_pairs`) for a layer whose states each take the best of
the rows their actions lead to.

Where the sets overlap much (a state's actions lead to rows that other states' lead to as
well), taking the best of each set on its own repeats the same comparisons: the plan takes
the pair that most sets hold, makes it a new row (the best of the two), puts it in their
place in every set that holds both, and goes on while a pair is held by two sets or more
(the greedy pairing of Larsson and Moffat's Re-Pair, on sets). The new rows are made level
by level, each level one step over whole rows (the best of two gathers), and each set's best
is then taken over what is left of it, rank by rank. The best of two values is one of them,
so the plan gives each set's best exactly, whatever the order.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

import attrs
import numpy as np

MOST_PAIRS = 1 << 20
"""The most pairs within the sets that a plan counts (made in Python, once per model): past
them, the sets' best is taken rank by rank alone."""


@attrs.frozen(eq=False)
class Merges:
    """A plan of :func:`shared_pairs`: the new rows, level by level (``levels``: the two
    rows each new row is the best of, the new rows of a level numbered one after another
    from ``first`` on, level after level), and for each rank, the rows whose best each set
    then takes (``rank_rows``, the sets with the most rows first; ``inverse``, where each
    set then is)."""

    first: int
    levels: tuple[tuple[np.ndarray, np.ndarray], ...]
    rank_rows: tuple[np.ndarray, ...]
    inverse: np.ndarray

    @property
    def made(self) -> int:
        """How many new rows the plan makes."""
        return sum(len(a) for a, _ in self.levels)

    def renamed(self, rows: np.ndarray, first: int) -> Merges:
        """The same plan for sets of ``rows[i]`` where these are of ``i`` (each below
        :attr:`first`), its new rows numbered from ``first`` on."""
        def rename(found: np.ndarray) -> np.ndarray:
            return np.where(found < self.first, rows[np.minimum(found, self.first - 1)],
                            found - self.first + first)
        return Merges(first, tuple((rename(a), rename(b)) for a, b in self.levels),
                      tuple(map(rename, self.rank_rows)), self.inverse)

    @property
    def work(self) -> int:
        """Rows the plan reads (two a new row, one each of what is left of a set) and makes
        (a new row, a step of a set's best): to weigh against two for each member of the
        sets taken rank by rank."""
        return 3 * self.made + 2 * sum(len(rows) for rows in self.rank_rows)

    @property
    def steps(self) -> int:
        """How many binary steps (the best of two rows) the plan takes in all."""
        return self.made + sum(len(rows) for rows in self.rank_rows[1:])


def shared_pairs(starts: np.ndarray, rows: np.ndarray, first: int) -> Merges | None:
    """The plan for sets ``rows[starts[i]:starts[i + 1]]`` (rows below ``first``, the
    number of the first new row), or ``None`` where no pair is held by two sets, or the
    sets hold more than :data:`MOST_PAIRS` pairs."""
    sizes = np.diff(starts)
    if int((sizes * (sizes - 1) // 2).sum()) > MOST_PAIRS:
        return None
    sets = [set(rows[a:b].tolist()) for a, b in zip(starts[:-1].tolist(), starts[1:].tolist())]
    holders: dict[int, set[int]] = defaultdict(set)
    count: dict[tuple[int, int], int] = defaultdict(int)
    for i, members in enumerate(sets):
        ordered = sorted(members)
        for k, x in enumerate(ordered):
            holders[x].add(i)
            for y in ordered[k + 1:]:
                count[x, y] += 1
    heap = [(-c, pair) for pair, c in count.items() if c > 1]
    heapq.heapify(heap)
    made: list[tuple[int, int]] = []
    level: dict[int, int] = defaultdict(int)
    while heap:
        c, pair = heapq.heappop(heap)
        if count.get(pair, 0) != -c:  # counted again since: back in line if still shared
            if count.get(pair, 0) > 1:
                heapq.heappush(heap, (-count[pair], pair))
            continue
        x, y = pair
        new = first + len(made)
        made.append(pair)
        level[new] = 1 + max(level[x], level[y])
        touched: set[int] = set()
        for i in holders[x] & holders[y]:
            members = sets[i]
            members -= {x, y}
            for z in members:
                count[(z, x) if z < x else (x, z)] -= 1
                count[(z, y) if z < y else (y, z)] -= 1
                count[z, new] += 1
            touched |= members
            members.add(new)
            holders[x].discard(i)
            holders[y].discard(i)
            holders[new].add(i)
        del count[pair]
        for z in touched:  # the heap's order is of its entries alone: any order of pushing
            if count[z, new] > 1:
                heapq.heappush(heap, (-count[z, new], (z, new)))
    if not made:
        return None
    # Renumbered level by level, so that each level's new rows are one run.
    levels = np.array([level[first + j] for j in range(len(made))])
    order = np.argsort(levels, kind="stable")
    renumber = np.arange(first + len(made))
    renumber[first + order] = first + np.arange(len(made))
    pairs = renumber[np.array(made, dtype=np.int64)[order]]
    cuts = np.searchsorted(levels[order], np.arange(1, int(levels.max()) + 2))
    steps = tuple((pairs[a:b, 0].copy(), pairs[a:b, 1].copy())
                  for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist()))
    left = [renumber[sorted(members)] for members in sets]
    counts = np.array([len(members) for members in left], dtype=np.int64)
    rank_rows, inverse = ranks(counts, np.cumsum(counts) - counts)
    flat = np.concatenate(left).astype(np.int64)
    return Merges(first, steps, tuple(flat[r] for r in rank_rows), inverse)


def ranks(counts: np.ndarray, first: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """For sets of ``counts`` members, the first at ``first``: for each rank, the place of
    that rank of member of each set having one, the sets with the most members first; and
    the place of each set in that order."""
    order = np.argsort(-counts, kind="stable")
    most = int(counts.max()) if len(counts) else 0
    having = np.searchsorted(-counts[order], -np.arange(most), side="left")
    first = first[order]
    return (tuple(first[:int(having[rank])] + rank for rank in range(most)),
            np.argsort(order).astype(np.int64))
