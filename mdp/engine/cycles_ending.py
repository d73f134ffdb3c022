"""Which plays of a model whose states may come back ever end: the rule that makes optimal
play, and the check that refuses a way of playing, that would go round for ever.

Where actions tie for best, one of them may keep the game going (a loop worth what ending is
worth): taken always, the play would never end, its value that of no play at all. So, where
states may come back, an action is *optimal* when it ties for best **and brings an end
nearer**: ranking the states by how few of the tied actions' steps end the game at the
soonest (the terminal states rank 0; a state ranks one above the lowest its tied actions
can reach with some chance), an action brings an end nearer when one of its outcomes ranks
below its state. Any choice among such actions ends, with chance 1; a state that ranks
nowhere (every tied action only goes round) has no optimal play that ends, and is refused.
A way of playing (a strategy, weights per action) is checked the same way, its actions with
weight as the tied ones: every state must end under it.

The ranks are found layer by layer (each leads only to itself and to lower layers, where
every state ends), a few whole-array steps per rank, in floats and exact alike.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from mdp.engine.model import CompiledModel
from mdp.engine.sweep import bottom_up
from mdp.errors import ModelError, said


def arcs(model: CompiledModel, layer: int) -> SimpleNamespace:
    """The transitions of a layer's actions: ``row`` (the action, counted from the layer's
    first), ``successor`` (a state id), ``outcome`` (whether of a chance action; those are
    the outcomes ``o0`` to ``o1`` of the model, in order), ``inside`` (whether it stays in
    the layer), ``lo``, ``hi`` (the layer's states) and ``na`` (its number of actions)."""
    lo, hi = int(model.layer_start[layer]), int(model.layer_start[layer + 1])
    a0, a1 = model.layer_actions(layer)
    targets = model.action_next[a0:a1].astype(np.int64)
    certain = targets >= 0
    counts = np.ones(a1 - a0, dtype=np.int64)
    chance = -1 - targets[~certain]
    o0 = o1 = 0
    if len(chance):
        c0, c1 = int(chance[0]), int(chance[-1]) + 1
        o0, o1 = int(model.chance_start[c0]), int(model.chance_start[c1])
        counts[~certain] = np.diff(model.chance_start[c0:c1 + 1])
    row = np.repeat(np.arange(a1 - a0), counts)
    outcome = np.repeat(~certain, counts)
    successor = np.empty(len(row), dtype=np.int64)
    successor[~outcome] = targets[certain]
    successor[outcome] = model.outcome_next[o0:o1]
    inside = (successor >= lo) & (successor < hi)
    flip = np.zeros(len(row), dtype=bool)
    if model.turns is not None:
        flip[~outcome] = model.turns.certain[a0:a1][certain]
        flip[outcome] = model.turns.outcome[o0:o1]
    return SimpleNamespace(row=row, successor=successor, outcome=outcome, inside=inside,
                           flip=flip, certain=certain, o0=o0, o1=o1, lo=lo, hi=hi, na=a1 - a0)


def nearer(model: CompiledModel, kept: np.ndarray,
           other: np.ndarray | None = None) -> tuple[np.ndarray, int | None]:
    """Per action of ``model``, whether it is kept (``kept``, one per action) and brings an
    end nearer (see the module's notes); and the id of a state from which no kept play ends
    (``None`` where every one ends). With ``other``, the actions the second player of a game
    of two keeps (``kept`` then the first's): each state is then ranked twice, once with each
    player to move, and the actions brought nearer are the first player's."""
    result = np.zeros(model.n_actions, dtype=bool)
    for layer, _, _ in bottom_up(model):
        a0, a1 = model.layer_actions(layer)
        if model.cyclic is None or not model.cyclic[layer]:
            result[a0:a1] = kept[a0:a1]
            continue
        both = kept[a0:a1] if other is None else np.concatenate([kept[a0:a1], other[a0:a1]])
        progress, stuck = nearer_in_layer(model, layer, both, 1 if other is None else 2)
        result[a0:a1] = progress[:a1 - a0]
        if stuck is not None:
            return result, stuck
    return result, None


def nearer_in_layer(model: CompiledModel, layer: int, kept: np.ndarray,
                    width: int = 1) -> tuple[np.ndarray, int | None]:
    """:func:`nearer` for one cyclic layer, ``kept`` one per action of it; with ``width``
    2, each state twice, once per player to move (``kept`` then the first player's actions,
    then the other's; a transition that passes the turn leads to the other)."""
    way = arcs(model, layer)
    n, na = way.hi - way.lo, way.na
    positive = np.array([p > 0 for p in model.probabilities], dtype=bool)
    live = np.ones(len(way.row), dtype=bool)
    if len(positive):
        live[way.outcome] = positive[model.outcome_prob[way.o0:way.o1]]
    counts = model.action_counts[way.lo:way.hi].astype(np.int64)
    state = np.repeat(np.arange(n), counts)
    # Nodes: a state with a player to move (width 2), or the state (width 1).
    turn = way.flip if width == 2 else np.zeros(len(way.row), dtype=bool)
    rows = np.concatenate([way.row[live] + c * na for c in range(width)])
    into = np.concatenate([np.where(way.inside[live], (way.successor[live] - way.lo) * width
                                    + (turn[live] ^ bool(c)), -1) for c in range(width)])
    owner = np.concatenate([state * width + c for c in range(width)])
    kept = np.asarray(kept, dtype=bool)
    done = np.zeros(n * width, dtype=bool)
    progress = np.zeros(na * width, dtype=bool)
    while True:
        reached = (into < 0) | done[np.maximum(into, 0)]
        nearing = kept & (np.bincount(rows[reached], minlength=na * width) > 0) & ~done[owner]
        if not nearing.any():
            break
        progress |= nearing
        done[owner[nearing]] = True
    stuck = np.flatnonzero(~done)
    return progress, None if not len(stuck) else way.lo + int(stuck[0]) // width


def check_ends(model: CompiledModel, weights: np.ndarray, name: str,
               other: np.ndarray | None = None) -> None:
    """Refuse (:class:`mdp.ModelError`) the way of playing ``name``, ``weights`` per action
    (and ``other``, the second player's, in a game of two), where from some state its play
    would never end."""
    if model.one_pass:
        return
    _, stuck = nearer(model, np.asarray(weights != 0, dtype=bool),
                      None if other is None else np.asarray(other != 0, dtype=bool))
    if stuck is not None:
        raise never_ends(model, stuck, name)


def never_ends(model: CompiledModel, state: int, how: str) -> ModelError:
    """The error of a play that from ``state`` would go round for ever."""
    return ModelError(f"game {model.info.game}: {how}, the game never ends from state "
                      f"{said(model.states[state])}: every action it takes there, and after, "
                      "only goes round among states that come back").at(model.states[state], model.info)


def staying(model: CompiledModel) -> int | None:
    """A state from which some play may go round for ever, never ending (whatever chance
    brings), or ``None``: a set of states that come back to one another, each with an action
    none of whose outcomes leaves the set (found as the largest such set, state by state
    taking out those whose every action may leave it). Where there is none, every play ends
    with chance 1."""
    if model.one_pass or model.cyclic is None:
        return None
    positive = np.array([p > 0 for p in model.probabilities], dtype=bool)
    for layer in np.flatnonzero(model.cyclic).tolist():
        way = arcs(model, layer)
        n = way.hi - way.lo
        live = np.ones(len(way.row), dtype=bool)
        if len(positive):
            live[way.outcome] = positive[model.outcome_prob[way.o0:way.o1]]
        state = np.repeat(np.arange(n), model.action_counts[way.lo:way.hi].astype(np.int64))
        into = np.where(way.inside, way.successor - way.lo, 0)
        kept = np.ones(n, dtype=bool)
        while True:
            leaves = live & (~way.inside | ~kept[into])
            stays = np.bincount(way.row[leaves], minlength=way.na) == 0
            still = kept & (np.bincount(state[stays], minlength=n) > 0)
            if np.array_equal(still, kept):
                break
            kept = still
        if kept.any():
            return way.lo + int(np.flatnonzero(kept)[0])
    return None
