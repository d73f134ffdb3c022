"""What the work on a game of rounds reads of its compiled model and of its solution, as
protocols (:class:`RoundsModel`, :class:`PlayedRounds`), with the sizes it is cut into: the
modules that follow, tabulate or sample the rounds take these, and
:class:`~mdp.engine.rounds.model.Rounds` and
:class:`~mdp.engine.rounds.solution.RoundsSolution` are ones, so that neither is imported by
the work it hands on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from mdp.engine.cluster import mapped
from mdp.engine.parallel import one_blas_thread, side_by_side

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel, ModelInfo
    from mdp.engine.rounds.rule import RoundEnds, RoundRule
    from mdp.engine.solution import Solution

WORK = 1 << 21
"""Numbers (round states times the round's states, or times its ends) worked at a time: a
batch of round states as value columns of the round model costs about this many floats."""

Done = TypeVar("Done")


def batches(keys: np.ndarray, width: int) -> list[np.ndarray]:
    """Round states in batches of about :data:`WORK` numbers of ``width`` each."""
    step = max(1, WORK // max(width, 1))
    return [keys[i:i + step] for i in range(0, len(keys), step)]


def each_batch(keys: np.ndarray, width: int, exact: bool,
               work: Callable[[np.ndarray], Done]) -> list[Done]:
    """What ``work`` gives each batch of the round states ``keys`` (:func:`batches`), in
    their order: the batches side by side on the threads of :mod:`mdp.engine.parallel`
    (they are independent; in exact arithmetic, which holds Python's lock, one after
    another), or on the workers of a Dask cluster (:func:`mdp.engine.cluster.on_cluster`)."""
    parts = batches(keys, width)
    on_cluster = mapped(work, parts)
    if on_cluster is not None:
        return on_cluster
    done: list[Any] = [None] * len(parts)

    def one(i: int) -> None:
        done[i] = work(parts[i])

    with one_blas_thread():  # each batch's matrix products on its own thread
        side_by_side(one, range(len(parts)), locked=exact)
    return done


class RoundsModel(Protocol):
    """A game of rounds, compiled (:class:`~mdp.engine.rounds.model.Rounds`)."""

    @property
    def round(self) -> CompiledModel: ...
    @property
    def keys(self) -> tuple[np.ndarray, ...]: ...
    @property
    def rule(self) -> RoundRule: ...
    @property
    def info(self) -> ModelInfo: ...
    @property
    def inexact(self) -> str | None: ...
    @property
    def fractional(self) -> bool: ...
    @property
    def n_rounds(self) -> int: ...
    @property
    def n_round_states(self) -> int: ...
    @property
    def start(self) -> int: ...
    def round_of(self, key: int) -> int: ...
    def points(self) -> list[tuple[Any, Any]]: ...


class PlayedRounds(Protocol):
    """A game of rounds, solved (:class:`~mdp.engine.rounds.solution.RoundsSolution`)."""

    @property
    def model(self) -> RoundsModel: ...
    @property
    def values(self) -> tuple[np.ndarray, ...]: ...
    @property
    def exact(self) -> bool: ...
    def at(self, key: int | None = None) -> Solution[Any]: ...
    def chosen(self, keys: np.ndarray, ends: RoundEnds | None = None,
               tie_break: Sequence[Any] = ()) -> np.ndarray: ...
