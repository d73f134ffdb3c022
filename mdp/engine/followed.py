"""Many columns of terminal values evaluated under a play, in floats: the companion of the
kernel of many columns (:mod:`mdp.engine.columns`), which finds the best play and its
values. :func:`followed_columns` follows a play already chosen (each state's action by its
place among the state's actions, a row per state and a column per column, as
:func:`~mdp.engine.columns.best_columns` writes its choices); :func:`best_followed` finds
the best play of some columns and evaluates other columns (companions) under it, in one
pass where the compiled kernels are loaded (:mod:`mdp.engine.fused_chosen`), the choices
never written out.

The layers are worked in the plan of that kernel (:func:`~mdp.engine.columns.plan`), a block
of columns at a time: every action's value (a certain one's successor's row; a chance
action's expectation, scipy's sparse product, its outcomes summed in order from 0, as the
kernel sums them, compiled or not), then each state's row the value of the action it takes
in each column. The same columns and play give the same values, bit for bit, whichever
block they are worked in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mdp.engine import fused
from mdp.engine.columns import BLOCK, best_columns, fused_program, plan
from mdp.engine.policy import FLOAT_TIE

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel


def followed_columns(model: CompiledModel, terminal: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """The value of the initial state of ``model`` for each column of ``terminal`` (float64,
    a row per terminal state), each state playing the action ``choice`` says in that column
    (int, a row per state, a column per column of ``terminal``). A model of turns is not
    worked here."""
    assert model.turns is None, "a model of turns sees each value as its mover does: the general pass"
    layers = plan(model)
    width = terminal.shape[1]
    result = np.empty(width, dtype=np.float64)
    for c0 in range(0, width, BLOCK):
        c1 = min(c0 + BLOCK, width)
        values = np.empty((model.n_states, c1 - c0), dtype=np.float64)
        values[:model.n_terminal] = terminal[:, c0:c1]
        columns = np.arange(c1 - c0)
        for layer in layers:
            actions = np.empty((len(layer.certain), c1 - c0), dtype=np.float64)
            certain = layer.certain >= 0
            actions[certain] = values[layer.certain[certain]]
            if layer.chance is not None and layer.chance_at is not None:
                below = values[layer.below:layer.below + layer.chance.shape[1]]
                actions[layer.chance_at] = layer.chance @ below
            taken = layer.starts[:-1, None] + choice[layer.lo:layer.hi, c0:c1]
            values[layer.lo:layer.hi] = actions[taken, columns]
        result[c0:c1] = values[model.initial]
    return result


def best_followed(model: CompiledModel, terminal: np.ndarray, companions: list[np.ndarray]) -> np.ndarray:
    """For each column of ``terminal`` (float64, a row per terminal state), the value at the
    initial state of ``model`` of each of ``companions`` (as ``terminal``) under the play
    best for ``terminal`` (maximizing; at a tie, the first action within
    :func:`~mdp.engine.policy.tie_margin` of the best, as
    :func:`~mdp.engine.columns.best_columns` chooses): a row per companion. The same
    values, bit for bit, compiled or not."""
    assert model.turns is None, "a model of turns sees each value as its mover does: the general pass"
    width, count = terminal.shape[1], len(companions)
    result = np.empty((count, width), dtype=np.float64)
    layers = plan(model)
    height = model.n_states + max((layer.merges.made for layer in layers if layer.merges), default=0)
    compiled = fused.kernel(width * height * (1 + count), "chosen") if fused.COMPILED else None
    if compiled is None:  # the choices, then each companion under them
        choice = np.zeros((model.n_states, width), dtype=np.int16)
        best_columns(model, np.ascontiguousarray(terminal, dtype=np.float64), "max", choice=choice)
        for i, companion in enumerate(companions):
            result[i] = followed_columns(model, companion, choice)
        return result
    code, plain = fused_program(model, layers, True), fused_program(model, layers, False)
    most = max(1, int(np.diff(plain.starts.reshape(-1, 2), axis=1).max(initial=1)))
    block = min(BLOCK, max(width, 1))
    buffers = [np.empty(n * block) for n in (height, count * model.n_states, most, count * most)]
    picked = np.empty((1, block), dtype=np.int16)  # each state's, written over
    for c0 in range(0, width, block):
        c1 = min(c0 + block, width)
        w = c1 - c0
        values = buffers[0][:height * w].reshape(height, w)
        comp = buffers[1][:count * model.n_states * w].reshape(count, model.n_states, w)
        values[:model.n_terminal] = terminal[:, c0:c1]
        for i, companion in enumerate(companions):
            comp[i, :model.n_terminal] = companion[:, c0:c1]
        compiled(values, comp, code.table, code.starts, code.members, code.pairs, code.indptr,
                 code.indices, code.data, plain.table, plain.starts, plain.members,
                 buffers[2][:most * w].reshape(most, w),
                 buffers[3][:count * most * w].reshape(count, most, w), picked[:, :w], True,
                 FLOAT_TIE)
        result[:, c0:c1] = comp[:, model.initial]
    return result
