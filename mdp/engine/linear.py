"""Exact solutions of the linear systems of states that may come back: ``x = c + M x`` in
rationals, ``M`` sparse (each row a dict of its few nonzero entries). The values of a way of
playing a cyclic layer (:mod:`mdp.engine.cycles`) and the expected visits of its states
(:mod:`mdp.engine.flows`) are both such a system, the one the transpose of the other.

Gaussian elimination in the order a depth-first search along the rows finishes the unknowns,
so that only the unknowns where a cycle closes stay unknown while the others are eliminated:
the systems of games have few such.
"""

from __future__ import annotations

from fractions import Fraction


class Singular(Exception):
    """Some unknowns lead only to one another (no unique solution: a play that never ends);
    ``unknown`` is one of them. The caller says it in the game's words."""

    def __init__(self, unknown: int) -> None:
        super().__init__(unknown)
        self.unknown = unknown


def solve_exactly(const: list[Fraction], rows: list[dict[int, Fraction]]) -> list[Fraction]:
    """The ``x`` with ``x[i] = const[i] + sum(rows[i][j] * x[j])`` for every ``i``;
    :class:`Singular` where some unknowns lead only to one another."""
    n = len(const)
    order = _finishing(rows)
    expressions: list[tuple[Fraction, dict[int, Fraction]] | None] = [None] * n
    for s in order:
        c: Fraction = const[s]
        terms = dict(rows[s])
        while done := [f for f in terms if expressions[f] is not None]:
            for f in done:
                m = terms.pop(f)
                cf, tf = expressions[f]  # type: ignore[misc]
                c += m * cf
                for g, coef in tf.items():
                    terms[g] = terms.get(g, Fraction(0)) + m * coef
        own = terms.pop(s, Fraction(0))
        if own == 1:
            raise Singular(s)
        if own:
            c /= 1 - own
            terms = {g: coef / (1 - own) for g, coef in terms.items()}
        expressions[s] = (c, {g: coef for g, coef in terms.items() if coef})
    values: list[Fraction] = [Fraction(0)] * n
    for s in reversed(order):
        c, terms = expressions[s]  # type: ignore[misc]
        for g, coef in terms.items():
            c += coef * values[g]
        values[s] = c
    return values


def _finishing(rows: list[dict[int, Fraction]]) -> list[int]:
    """The unknowns in the order a depth-first search along ``rows`` finishes them."""
    order: list[int] = []
    mark = [False] * len(rows)
    for root in range(len(rows)):
        if mark[root]:
            continue
        mark[root] = True
        stack = [(root, iter(rows[root]))]
        while stack:
            s, children = stack[-1]
            for j in children:
                if not mark[j]:
                    mark[j] = True
                    stack.append((j, iter(rows[j])))
                    break
            else:
                stack.pop()
                order.append(s)
    return order
