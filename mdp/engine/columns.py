"""Optimal play for many columns of terminal values at once, in floats: the kernel of the
solve of a game of rounds (a batch of round states, a column each) and of its chances of
every total (a column per round state and total).

The columns go through the layers a block at a time (:data:`BLOCK` columns), the block's
values of every state in one buffer that stays in the processor's cache from the terminal
states up to the initial one, and only the initial state's values are kept. Each layer is
worked the same way for every block (:func:`plan`, made once per model): a state's best
action is found rank by rank, its first action in every state, then the second of those that
have one, and so on, each a gather of whole rows of the buffer and a maximum in place; where
the states of a layer choose among overlapping sets of successors (what one state may keep,
others may keep too), the pairs that several states share are taken once first
(:mod:`mdp.engine.merges`), new rows past the model's states, and the rank by rank best is
taken over what is left. The expectations of chance actions are one sparse matrix (scipy's
CSR, only the outcomes that are there) times the block, written straight into the block's
rows (:func:`_product`), where a dense product would multiply every zero too (measured:
three times slower on a layer of 210 chance actions over 252 outcomes, 4,116 of them there).
The calls that work a layer are made once for each width of block (:func:`_steps`: the
block's arrays are views of buffers made once) and run for every block, where making them
block by block cost a quarter more of the time a block spends outside its arithmetic
(a block of one column of Yatzy's round: 95 µs, 76 now).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from mdp.engine import fused
from mdp.engine.arithmetic import Floats
from mdp.engine.distinct import distinct_rows
from mdp.engine.merges import Merges, ranks, shared_pairs
from mdp.engine.policy import FLOAT_TIE, tie_margin
from mdp.engine.sweep import backward, best, bottom_up

if TYPE_CHECKING:
    import scipy.sparse

    from mdp.engine.model import CompiledModel

BLOCK = 256
"""Columns worked through all the layers together: the buffer of a round of about a
thousand states is then a few megabytes, within the processor's cache."""


_LOCK = threading.Lock()

@attrs.frozen(eq=False)
class Layer:
    """One layer of a :func:`plan`: its states ``lo`` to ``hi - 1`` and their first actions
    (``starts``, from the layer's first, and one past the last); the expectations of its
    chance actions (``chance``, a row per chance action, a column per state from ``below``)
    and where they are among the layer's actions (``chance_at``); each action's successor
    (``certain``, -1 at chance ones); for each rank, the rows that the values of that rank
    of action of each state having one are in (``rank_rows``: the successors themselves
    where every action is certain, else the layer's actions), the states with the most
    actions first, and where each state then is (``inverse``)."""

    lo: int
    hi: int
    starts: np.ndarray
    chance: scipy.sparse.csr_array | None
    below: int
    chance_at: np.ndarray | None
    certain: np.ndarray
    rank_rows: tuple[np.ndarray, ...]
    inverse: np.ndarray
    direct: bool
    """Every state has one chance action, in the order of the states: the product is the
    layer's values."""
    from_ends: bool
    """Every action is certain and leads to a terminal state: an end that no play may take
    in any column of a block (-inf, maximizing) is passed over there."""
    merges: Merges | None = None
    """Every action is certain and the states' successors overlap:
    the best of each state's is taken by the plan of :func:`mdp.engine.merges.shared_pairs`
    (new rows past the model's states), each pair that several states share once."""


def plan(model: CompiledModel) -> tuple[Layer, ...]:
    """How each layer of ``model`` is worked (made once per model and kept with it)."""
    with _LOCK:
        found = model.__dict__.get("_column_plan")
        if found is None:
            plans: dict[tuple[bytes, bytes], Merges | None] = {}
            found = tuple(_layer(model, layer, lo, hi, plans) for layer, lo, hi in bottom_up(model))
            model.__dict__["_column_plan"] = found
        return found


def _layer(model: CompiledModel, layer: int, lo: int, hi: int,
           plans: dict[tuple[bytes, bytes], Merges | None]) -> Layer:
    starts = model.action_offsets(lo, hi).astype(np.int64)
    a0, a1 = int(starts[0]), int(starts[-1])
    targets = model.action_next[a0:a1].astype(np.int64)
    chance_rows = np.flatnonzero(targets < 0)
    matrix, below, chance_at = None, 0, None
    if len(chance_rows):
        import scipy.sparse  # here: a quarter of a second of start-up that only rounds need

        c = -1 - targets[chance_rows]
        counts = (model.chance_start[c + 1] - model.chance_start[c]).astype(np.int64)
        outcomes = np.repeat(model.chance_start[c].astype(np.int64) - (np.cumsum(counts) - counts),
                             counts) + np.arange(int(counts.sum()))
        successors = model.outcome_next[outcomes].astype(np.int64)
        below = int(successors.min())
        table = np.array([float(p) for p in model.probabilities], dtype=np.float64)
        matrix = scipy.sparse.csr_array(
            (table[model.outcome_prob[outcomes]], successors - below,
             np.concatenate([[0], np.cumsum(counts)])),
            shape=(len(chance_rows), int(successors.max()) + 1 - below))
        matrix.sum_duplicates()
        chance_at = chance_rows
    positions, inverse = ranks(np.diff(starts), starts[:-1] - a0)
    from_ends = matrix is None and bool(len(targets)) and int(targets.max()) < model.n_terminal
    merges = None
    if matrix is None:  # the rows of the successors themselves
        positions = tuple(targets[rows] for rows in positions)
        merges = _shared(starts - a0, targets, model.n_states, plans)
    return Layer(lo, hi, starts - a0, matrix, below, chance_at, targets, positions, inverse,
                 len(chance_rows) == len(targets) == hi - lo, from_ends, merges)


def _shared(starts: np.ndarray, targets: np.ndarray, first: int,
            plans: dict[tuple[bytes, bytes], Merges | None]) -> Merges | None:
    """:func:`~mdp.engine.merges.shared_pairs` of a layer's successors (the new rows from
    ``first`` on), made once for the layers whose successors are alike in the order of
    their rows (the rounds of a round model repeat)."""
    rows, labels = np.unique(targets, return_inverse=True)
    key = (starts.tobytes(), labels.astype(np.int64).tobytes())
    if key not in plans:
        plans[key] = shared_pairs(starts, labels.astype(np.int64), len(rows))
    found = plans[key]
    return None if found is None else found.renamed(rows, first)


def _living(layer: Layer, live: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray] | None:
    """The rank rows and places of :class:`Layer` for the actions ``live`` only (each
    state's first kept where none of its own is: its value is then the worst), or ``None``
    where the layer's plan of shared pairs over all its actions is less work (those not
    live are the worst value, which the best passes over)."""
    if layer.merges is not None and layer.merges.work <= 2 * int(live.sum()):
        return None
    counts = np.add.reduceat(live, layer.starts[:-1]).astype(np.int64)
    none = counts == 0
    live[layer.starts[:-1][none]] = True
    counts[none] = 1
    ids = np.flatnonzero(live)
    positions, inverse = ranks(counts, np.cumsum(counts) - counts)
    return tuple(layer.certain[ids[p]] for p in positions), inverse


def best_columns(model: CompiledModel, terminal: np.ndarray, sense: str = "max",
                 choice: np.ndarray | None = None) -> np.ndarray:
    """The value of the initial state of ``model`` under optimal play (``sense`` ``"max"``
    or ``"min"``) for each column of ``terminal`` (float64, a row per terminal state): as
    :func:`mdp.engine.sweep.backward` with :func:`~mdp.engine.sweep.best` gives it, for
    many columns at once, the initial state's row only. Given ``choice`` (zeros, a row per
    state and a column per column of ``terminal``), each state's choice is written there as
    :func:`mdp.engine.rounds.choose.choosing` writes it: the place among the state's actions
    of the first within :func:`~mdp.engine.policy.tie_margin` of the best (the first where
    none is, every action an end not allowed). A model of turns is not worked here."""
    return _best(model, terminal.shape[1], partial(_columns, terminal), sense, choice)


def _columns(terminal: np.ndarray, c0: int, c1: int, out: np.ndarray) -> None:
    out[...] = terminal[:, c0:c1]


def _best(model: CompiledModel, width: int, fill: Callable[[int, int, np.ndarray], Any],
          sense: str, choice: np.ndarray | None) -> np.ndarray:
    """:func:`best_columns` of ``width`` columns of terminal values, those from ``c0`` to
    ``c1`` written by ``fill(c0, c1, out)`` as each block is worked."""
    if model.turns is not None:  # each value as its mover sees it: the general pass
        assert choice is None, "the choices of a model of turns are the general pass's"
        whole = np.empty((model.n_terminal, width))
        fill(0, width, whole)
        floats = Floats(model, whole)
        return backward(model, floats, best(sense), floats.start())[model.initial]
    layers = plan(model)
    ufunc = np.maximum if sense == "max" else np.minimum
    result = np.empty(width, dtype=np.float64)
    block = min(BLOCK, max(width, 1))
    made = max((layer.merges.made for layer in layers if layer.merges), default=0)
    height = model.n_states + made
    buffer = np.empty(height * block, dtype=np.float64)
    compiled = fused.kernel(width * height, "run" if choice is None else "chosen") \
        if fused.COMPILED else None
    if compiled is not None:
        code = fused_program(model, layers, True)
        # Each state's choice among its actions: the plan without shared pairs.
        plain = None if choice is None else fused_program(model, layers, False)
        picks = np.empty(model.n_states * block if choice is not None else 0, dtype=np.int16)
        for c0 in range(0, width, block):
            c1 = min(c0 + block, width)
            values = _rows(buffer, height, c1 - c0)
            fill(c0, c1, values[:model.n_terminal])
            if choice is None or plain is None:
                fused.run(compiled, code, values, sense == "max")
            else:
                picked = _rows(picks, model.n_states, c1 - c0)
                picked.fill(0)  # the terminal states' rows (and any no layer has)
                fused.run_chosen(compiled, code, plain, values, picked, sense == "max", FLOAT_TIE)
                choice[:, c0:c1] = picked
            result[c0:c1] = values[model.initial]
        return result
    rows = max((layer.hi - layer.lo for layer in layers), default=0)
    rows = max([rows, *(len(a) for layer in layers if layer.merges for a, _ in layer.merges.levels)])
    actions = max((len(layer.certain) for layer in layers if layer.chance is not None), default=0)
    # Made once, used again by every layer and block: fresh arrays of this size would each
    # be new pages from the system, zeroed on first touch.
    scratch = [(np.empty(n * block), n) for n in (rows, rows, actions, actions)]
    n_terminal = model.n_terminal
    worst = -np.inf if sense == "max" else np.inf
    # The calls that work a layer, made once for each width of block (and each set of ends
    # that no column of the block may take): every full block is the same arrays.
    programs: dict[tuple[int, int, bytes], list[Callable[[], Any]]] = {}
    # The block's choices, copied out after it (those of states of one action: 0).
    chosen = None if choice is None else np.empty(model.n_states * block, dtype=np.int16)
    for c0 in range(0, width, block):
        c1 = min(c0 + block, width)
        values = _rows(buffer, height, c1 - c0)
        fill(c0, c1, values[:n_terminal])
        parts = [_rows(part, n, c1 - c0) for part, n in scratch]
        places = None if chosen is None else _rows(chosen, model.n_states, c1 - c0)
        if places is not None:
            places.fill(0)
        dead = None
        for layer in layers:
            key = (c1 - c0, layer.lo, b"")
            # The columns of a block share ends not allowed, often: passed over, but for the
            # places among all actions of the choices.
            if layer.from_ends and places is None:
                if dead is None:
                    dead = ufunc.reduce(values[:n_terminal], axis=1) == worst
                if dead.any():
                    key = (c1 - c0, layer.lo, dead.tobytes())
            if key not in programs:  # _living's None: the plan of all ends is less work
                ranks = _living(layer, ~dead[layer.certain]) if key[2] and dead is not None \
                    else None
                programs[key] = _steps(layer, values, ufunc, parts, ranks, sense=sense,
                                       choice=None if places is None else places[layer.lo:layer.hi])
            for step in programs[key]:
                step()
        result[c0:c1] = values[model.initial]
        if choice is not None and places is not None:
            choice[:, c0:c1] = places
    return result


def fused_program(model: CompiledModel, layers: tuple[Layer, ...], merged: bool) -> fused.Program:
    """The :func:`mdp.engine.fused.program` of ``model``'s plan (with its shared pairs where
    ``merged``), made once and kept with it."""
    name = "_fused_program" if merged else "_fused_program_chosen"
    with _LOCK:
        found = model.__dict__.get(name)
        if found is None:
            found = model.__dict__[name] = fused.program(layers, merged)
        return found


def best_distinct(model: CompiledModel, rows: np.ndarray, sense: str = "max") -> np.ndarray:
    """:func:`best_columns` of the columns ``rows.T`` (float64, a row per column, a value
    per terminal state), each distinct column worked once and its value given to every
    column alike: columns of the same bits come to the same value, bit for bit, whichever
    block they are worked in."""
    first, inverse = distinct_rows(rows)
    # Each block's columns picked as it is worked: no copy of the distinct ones all at once.
    return best_filled(model, len(first), partial(_picked, rows, first), sense)[inverse]


def best_filled(model: CompiledModel, width: int, fill: Callable[[int, int, np.ndarray], Any],
                sense: str = "max") -> np.ndarray:
    """:func:`best_columns` of ``width`` columns of terminal values, ``fill(c0, c1, out)``
    writing those from ``c0`` to ``c1`` into ``out`` (a row per terminal state) as each
    block is worked."""
    return _best(model, width, fill, sense, None)


def _picked(rows: np.ndarray, first: np.ndarray, c0: int, c1: int, out: np.ndarray) -> None:
    out[...] = rows[first[c0:c1]].T


def _rows(flat: np.ndarray, height: int, width: int) -> np.ndarray:
    """``height`` rows of ``width`` from the start of ``flat``, one after another: the
    block's arrays stay contiguous however narrow the block (the sparse product reads and
    writes them in place, and a gather copies whole rows)."""
    return flat[:height * width].reshape(height, width)


def _product(matrix: scipy.sparse.csr_array, block: np.ndarray, out: np.ndarray) -> None:
    """``matrix @ block`` written to ``out``: the calls of :func:`_product_steps`, run."""
    for step in _product_steps(matrix, block, out):
        step()


def _product_steps(matrix: scipy.sparse.csr_array, block: np.ndarray,
                   out: np.ndarray) -> list[Callable[[], Any]]:
    """The calls that write ``matrix @ block`` to ``out`` (contiguous, as ``block``), where
    the product would make a new array to be copied there: scipy's own kernel of that
    product, on zeros, the same sums in the same order. That kernel is scipy's private
    module: where a scipy lacks it, the product itself, copied."""
    kernel = _in_place()
    if kernel is None or not (out.flags.c_contiguous and block.flags.c_contiguous):
        return [partial(_copied, matrix, block, out)]
    rows, width = matrix.shape
    return [partial(out.fill, 0.0),
            partial(kernel, rows, width, block.shape[1], matrix.indptr, matrix.indices,
                    matrix.data, block.ravel(), out.ravel())]


def _copied(matrix: scipy.sparse.csr_array, block: np.ndarray, out: np.ndarray) -> None:
    out[...] = matrix @ block


def _in_place() -> Any:
    """scipy's kernel of a sparse matrix times a dense block, added into a given array, or
    ``None`` where this scipy has none by that name."""
    try:
        from scipy.sparse import _sparsetools
    except ImportError:
        return None
    return getattr(_sparsetools, "csr_matvecs", None)


def _steps(layer: Layer, values: np.ndarray, ufunc: np.ufunc, scratch: list[np.ndarray],
           ranks: tuple[tuple[np.ndarray, ...], np.ndarray] | None = None,
           choice: np.ndarray | None = None, sense: str = "max") -> list[Callable[[], Any]]:
    """The calls that work out the values of the states of ``layer`` in ``values``, from
    those of the states below it (``ranks``: the rank rows and places of the actions to look
    at, if not all), and write each state's choice to ``choice`` (its rows), if given: made
    once, run for every block laid out in the same arrays."""
    out = values[layer.lo:layer.hi]
    top, taken, actions, sums = scratch
    steps: list[Callable[[], Any]] = []
    if layer.chance is not None:
        below = values[layer.below:layer.below + layer.chance.shape[1]]
        if layer.direct:
            return _product_steps(layer.chance, below, out)
        sums = sums[:layer.chance.shape[0]]
        steps += _product_steps(layer.chance, below, sums)
        actions = actions[:len(layer.certain)]
        steps.append(partial(actions.__setitem__, layer.chance_at, sums))
        certain = layer.certain >= 0
        steps.append(partial(_gathered, actions, certain, values, layer.certain[certain]))
        source = actions
    elif layer.merges is not None and choice is None and ranks is None:
        merges = layer.merges
        at = merges.first
        for a, b in merges.levels:
            n = len(a)
            steps += [partial(values.take, a, 0, top[:n], "clip"),
                      partial(values.take, b, 0, taken[:n], "clip"),
                      partial(ufunc, top[:n], taken[:n], out=values[at:at + n])]
            at += n
        source, ranks = values, (merges.rank_rows, merges.inverse)
    else:
        source = values
    rows, inverse = (layer.rank_rows, layer.inverse) if ranks is None else ranks
    if not rows:
        return steps
    top = top[:len(rows[0])]
    steps.append(partial(source.take, rows[0], 0, top, "clip"))
    for more in rows[1:]:
        n = len(more)
        steps += [partial(source.take, more, 0, taken[:n], "clip"),
                  partial(ufunc, top[:n], taken[:n], out=top[:n])]
    if choice is not None and len(rows) > 1:
        steps.append(partial(_chosen, choice, source, rows, top, taken, sense, inverse))
    steps.append(partial(top.take, inverse, 0, out, "clip"))
    return steps


def _gathered(into: np.ndarray, where: np.ndarray, values: np.ndarray, rows: np.ndarray) -> None:
    into[where] = values[rows]


def _chosen(choice: np.ndarray, source: np.ndarray, rows: tuple[np.ndarray, ...],
            top: np.ndarray, taken: np.ndarray, sense: str, inverse: np.ndarray) -> None:
    choice[...] = _first_tied(source, rows, top, taken, sense)[inverse]


def _first_tied(source: np.ndarray, rows: tuple[np.ndarray, ...], top: np.ndarray,
                taken: np.ndarray, sense: str) -> np.ndarray:
    """For each state (in the order of ``rows``) and column, the first rank whose value is
    within the tie margin of the best, ``top``; 0 where none is (infinite values: ends not
    allowed). The ranks are gathered again, the last first, so the first tied is written
    last."""
    near = tie_margin(top)
    first = np.zeros(top.shape, dtype=np.int16)
    hit = np.empty(top.shape, dtype=bool)
    with np.errstate(invalid="ignore"):  # inf - inf: no tie
        for k in range(len(rows) - 1, -1, -1):
            n = len(rows[k])
            gap = taken[:n]
            source.take(rows[k], 0, gap, "clip")
            if sense == "max":
                np.subtract(top[:n], gap, out=gap)
            else:
                np.subtract(gap, top[:n], out=gap)
            np.less_equal(gap, near[:n], out=hit[:n])
            np.copyto(first[:n], k, where=hit[:n])
    return first
