"""A match's payoff asked again for rows alone (:func:`payoff_alone`): ``match`` and
``advise --after`` ask it for different rows, and a payoff whose answer for a row depends on
the others asked with it would have them rank play by two different games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mdp.engine.checks import shown
from mdp.engine.numeric import numbers_array
from mdp.errors import PLUGIN_FAULTS, ModelError, fault
from mdp.handed import read_only


def payoff_alone(payoff: Callable[[np.ndarray], Any], results: np.ndarray, grid: np.ndarray,
                 paid: np.ndarray, said: str) -> None:
    """Refuse a payoff whose answer ``paid`` for the rows ``results[grid]`` depends on the
    other rows asked with a row (their number, the first of them): the first, the middle and
    the last row, and the one paid most, asked again alone (a lone row twice in one call), as
    a round rule's are (:class:`mdp.engine.rounds.rule.Fingerprints`). Floats are compared
    to within 1e-12 of the largest paid, for a sum taken in another order."""
    n = len(grid)
    most = int(np.abs(paid.astype(np.float64)).max(axis=1).argmax()) if n else 0
    for rows in ([np.zeros(2, dtype=np.int64)] if n == 1 else
                 [np.full(1, at) for at in sorted({0, n // 2, n - 1, most})]):
        try:
            again = numbers_array(payoff(read_only(results[grid[rows]])))
        except PLUGIN_FAULTS as error:
            raise ModelError(f"{said} raised {fault(error)}") from error
        was = paid[rows]
        if again.shape == was.shape and _same(again, was):
            continue
        asked = "twice in one call" if n == 1 else "alone"
        if again.shape != was.shape:
            raise ModelError(f"{said} gave {shown(again.tolist())} of shape {again.shape} for the "
                             f"results {shown(results[grid[rows]].tolist())} asked {asked}; "
                             f"expected shape {was.shape}: a payoff answers for each row by that "
                             "row alone")
        row = int(rows[0])
        shown_again = again[0].tolist() if again.ndim == 2 and len(again) else again.tolist()
        raise ModelError(f"{said} gave {shown(was[0].tolist())} for the results "
                         f"{shown(results[grid[row]].tolist())} asked with {n:,} rows, but "
                         f"{shown(shown_again)} asked {asked}; a payoff answers for each row by "
                         "that row alone")


def _same(again: np.ndarray, was: np.ndarray) -> bool:
    if again.dtype.kind != "f" and was.dtype.kind != "f":
        return bool((again == was).all())
    try:
        first, second = again.astype(np.float64), was.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        return False
    return bool(np.allclose(first, second, rtol=1e-12,
                            atol=1e-12 * float(np.abs(second).max(initial=0.0))))
