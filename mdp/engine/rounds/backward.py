"""The backward solve of a game of rounds: the last round first, each batch of a round's
states as value columns of the round model, each end worth its points and the value of the
round state it leads to."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from mdp.engine.arithmetic import Floats
from mdp.engine.columns import best_columns
from mdp.engine.policy import Sense
from mdp.engine.rounds.choose import Aims, aiming, following
from mdp.engine.rounds.kinds import each_batch
from mdp.engine.rounds.model import Rounds
from mdp.engine.rounds.rule import RoundEnds
from mdp.engine.rounds.values import RoundValues, check_exact, exact_start, exact_terminals, terminals
from mdp.engine.sweep import backward, best
from mdp.errors import ModelError

if TYPE_CHECKING:
    from mdp.engine.rounds.solution import RoundsSolution


def solve_rounds(model: Rounds, *, exact: bool = False, sense: Sense,
                 progress: Callable[[str], None] | None = None,
                 aims: Aims | None = None) -> RoundsSolution:
    """Solve a game of rounds backward, a round at a time, each batch of round states as
    value columns of the round model: under optimal play, or under the strategy ``aims``
    (each batch's round played best toward its aims, that play then valued)."""
    from mdp.engine.rounds.solution import RoundsSolution

    began = time.perf_counter()
    if exact:
        check_exact(model)
    values: list[np.ndarray] = [np.zeros(0)] * len(model.keys)
    inner = model.round
    width = max(inner.n_states, inner.n_terminal)
    for r in range(model.n_rounds, -1, -1):
        if progress:
            progress(f"solving round {r + 1} of {model.n_rounds + 1}: "
                     f"{len(model.keys[r]):,} round states")
        later = RoundValues(model.keys[r + 1], values[r + 1]) if r < model.n_rounds else None
        parts = each_batch(model.keys[r], width, exact,
                           lambda keys: _solve_batch(model, keys, later, exact, sense, aims))
        values[r] = np.concatenate(parts) if parts else np.zeros(0)
    return RoundsSolution(model, sense, tuple(values), exact, time.perf_counter() - began, aims)


def _solve_batch(model: Rounds, keys: np.ndarray, later: RoundValues | None, exact: bool,
                 sense: str, aims: Aims | None = None) -> np.ndarray:
    """The values of some round states of one round."""
    ends = model.rule(keys)
    over = ends.over
    zero = np.zeros(len(keys), dtype=object if exact else np.float64)
    zero[:] = Fraction(0) if exact else 0.0
    if over.all():  # the points are never used: floats or not
        return zero
    if later is None:
        raise ModelError(f"game {model.info.game}: round state {int(keys[np.argmin(over)])} "
                         "allows an end of the round, but no round state follows it")
    if over.any():  # some round states end the game: worth nothing more
        playing = np.flatnonzero(~over)
        zero[playing] = _solve_playing(model, keys[playing], ends.rows(playing), later, exact,
                                       sense, aims)
        return zero
    return _solve_playing(model, keys, ends, later, exact, sense, aims)


def _solve_playing(model: Rounds, keys: np.ndarray, ends: RoundEnds, later: RoundValues,
                   exact: bool, sense: str, aims: Aims | None = None) -> np.ndarray:
    inner = model.round
    worths = terminals(model, ends, later, sense, exact)  # exact: only to check the ends
    if aims is None:
        decide = best(sense)
        values = best_columns(inner, worths, sense)
    else:
        choice = aiming(inner, keys, ends, aims, exact, sense)
        decide = following(choice)
        floats = Floats(inner, worths)
        raw = floats.start()
        backward(inner, floats, following(choice, inner, raw), raw)
        values = raw[inner.initial].copy()
    _check_finite(model, values, keys, worths, ends, later)
    if not exact:
        return values
    return exact_start(inner, exact_terminals(model, ends, later, sense), decide)


def _check_finite(model: Rounds, values: np.ndarray, keys: np.ndarray, worths: np.ndarray,
                  ends: RoundEnds, later: RoundValues) -> None:
    """A round state whose value is not finite let an end be reached that it does not allow
    (or, NaN, met a round state not found before)."""
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        row = int(bad[0])
        if np.isnan(worths[:, row]).any():
            later.values_of(ends.next[row], 0.0, model.info.game, check=True)
        raise ModelError(f"game {model.info.game}: from round state {int(keys[row])}, a round "
                         "can come to an end that mdp_round_rule does not allow there (next "
                         "-1) whatever the player does")
