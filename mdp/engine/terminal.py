"""The terminal values a model is solved with (``terminal=`` of :func:`mdp.solve`, the
columns of :func:`mdp.solve_many`), checked where they enter: the one place."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from mdp.checks import TERMINAL, shown
from mdp.engine.numeric import below_floats, first_fault, first_float, first_past_float, plain_numbers, quoted
from mdp.errors import ModelError, ParamError, did_you_mean

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel

OWN_TERMINAL = "value of the terminal values given"
"""The objective of a solution solved with terminal values other than the game's."""


def check_terminal_matrix(model: CompiledModel, terminals: Any, exact: bool) -> np.ndarray:
    """The columns of terminal values of :func:`mdp.solve_many`, each checked as
    :func:`check_terminal` checks one, as one matrix (numbers, or Python objects for
    fractions)."""
    if hasattr(terminals, "to_numpy") and not isinstance(terminals, np.ndarray):  # Polars
        terminals = terminals.to_numpy()
    if isinstance(terminals, np.ndarray) and terminals.dtype.kind in "biuf":
        if terminals.ndim != 2 or terminals.shape[0] != model.n_terminal:
            raise ParamError(f"terminals= must have one row per terminal state "
                             f"({model.n_terminal:,}) and one column per set of values, "
                             f"not shape {terminals.shape}")
        # The whole matrix at once (thousands of columns): a column is checked on its own,
        # for its message, only where one is at fault.
        suspect = np.flatnonzero(~np.isfinite(terminals).all(axis=0)) if terminals.dtype.kind == "f" \
            else np.zeros(0, dtype=np.int64)
        if len(suspect) or (exact and terminals.shape[1]):
            check_terminal(model, terminals[:, suspect[0] if len(suspect) else 0], exact)
        return terminals.astype(np.int64) if terminals.dtype.kind == "b" else terminals
    columns = list(terminals.T if isinstance(terminals, np.ndarray) and terminals.ndim == 2
                   else terminals)
    checked = [check_terminal(model, column, exact) for column in columns]
    matrix = np.empty((model.n_terminal, len(checked)), dtype=object)
    for j, column in enumerate(checked):
        matrix[:, j] = list(column) if not isinstance(column, np.ndarray) else column.tolist()
    if not exact:
        return matrix.astype(np.float64)
    return matrix


def check_terminal(model: CompiledModel, terminal: Any, exact: bool) -> Any:
    """The terminal values to solve with (``terminal=`` of :func:`mdp.solve`; ``None`` for
    the game's own), checked where they enter: the one place."""
    if exact and model.inexact:
        raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, "
                         f"but {model.inexact}")
    if not exact and model.tiny:  # 0 in floats: a chance or a value lost without a word
        raise ModelError(f"game {model.info.game}: the {model.tiny} is not 0, but below what a "
                         "float holds (about 2.2e-308), which would take it as 0: solve it "
                         "exactly (--exact)")
    if terminal is None:
        if exact and model.inexact_values:
            raise ModelError(f"game {model.info.game}: exact solving needs rational numbers, "
                             f"but {model.inexact_values}")
        return model.terminal_values
    if hasattr(terminal, "to_numpy") and not isinstance(terminal, np.ndarray):  # Polars, pandas
        try:  # a Series' missing values (a table's: refused below as not one-dimensional)
            missing = np.asarray(terminal.is_null() if hasattr(terminal, "is_null")
                                 else terminal.isna(), dtype=bool)
        except (AttributeError, TypeError, ValueError):
            missing = np.zeros(0, dtype=bool)
        if missing.ndim == 1 and missing.any():  # (to_numpy makes them NaN: "nan is not finite")
            row = int(np.flatnonzero(missing)[0])
            raise ParamError(f"terminal= value at row {row} is missing (null); terminal values "
                             "are finite numbers")
        terminal = terminal.to_numpy()
    if isinstance(terminal, np.ndarray):
        if terminal.ndim != 1:
            raise ParamError(f"terminal= must be one-dimensional, not of shape {terminal.shape}")
        if terminal.dtype.kind == "b":
            terminal = terminal.astype(np.int64)
        elif terminal.dtype.kind not in "iuf":
            terminal = terminal.tolist()
    elif TERMINAL.holds(terminal):
        terminal = list(terminal)
    else:  # a column of solve_many's
        raise ParamError(f"terminal= column {shown(terminal)}: expected {TERMINAL.allowed}")
    if len(terminal) != model.n_terminal:
        raise ParamError(f"terminal= has {len(terminal):,} values; the model has "
                         f"{model.n_terminal:,} terminal states (the rows of model.terminals)")
    terminal = plain_numbers(terminal)
    bad = first_fault(terminal)
    if bad:
        row, value, problem = bad
        raise ParamError(f"terminal= value {quoted(value)} at row {row} {problem}; "
                         "terminal values are finite numbers")
    floated = first_float(terminal) if exact else None
    if floated:
        row, value = floated
        raise ParamError(f"terminal= value {value!r} at row {row} is a float; exact solving "
                         "needs int or fractions.Fraction values")
    huge = None if exact else first_past_float(terminal)
    if huge:
        row, value = huge
        raise ParamError(f"terminal= value {quoted(value)} at row {row} is past what a float "
                         "holds (about 1.8e308); solve it exactly (exact=True)")
    tiny = None if exact or isinstance(terminal, np.ndarray) else \
        next(((row, v) for row, v in enumerate(terminal) if below_floats(v)), None)
    if tiny:  # a float would take it as 0
        row, value = tiny
        raise ParamError(f"terminal= value {quoted(value)} at row {row} is not 0, but below what "
                         "a float holds (about 2.2e-308); solve it exactly (exact=True)")
    return terminal


def own_terminal(model: CompiledModel, values: Any) -> Any:
    """``values``, terminal values a model is solved with; ``None`` where they are the
    game's own (whose objective the value then is of)."""
    game = model.terminal_values
    if values is game:
        return None
    try:
        same = len(values) == len(game) and bool(np.all(np.asarray(values, dtype=object)
                                                        == np.asarray(game, dtype=object)))
    except (TypeError, ValueError):
        same = False
    return None if same else values


def _fractions(model: CompiledModel, column: str) -> list[Fraction] | None:
    """The game's own values of a column of text in the terminals' table, where they are
    all fractions (a table holds a fraction as its text ``"p/q"``); else None."""
    from mdp.game.columns import made

    raw = model.terminal_columns.get(column)
    values = [] if raw is None else list(made(raw, model.info.game, column))
    return [Fraction(v) for v in values] if values and all(
        isinstance(v, Fraction) for v in values) else None


def tie_break_column(model: CompiledModel, column: str, exact: bool = False) -> Any:
    """The terminal states' column a tie-break names: a number in every one of them. ``value``
    is the game's own terminal values, as the model holds them (exact where the game gave
    them so); another column of floats, in exact solving, each float the exact number it
    is (the column is the game's to read, not a value it gave inexactly); a column of
    fractions, exactly (in floats, the floats nearest)."""
    terminals = model.terminals
    empty = {c: terminals[c].fill_nan(None).null_count() if t.is_float() else terminals[c].null_count()
             for c, t in terminals.schema.items() if t.is_numeric()}
    fractions = {c: _fractions(model, c) for c, t in terminals.schema.items() if str(t) == "String"}
    empty.update({c: 0 for c, values in fractions.items() if values is not None})
    usable = [c for c in terminals.columns if empty.get(c, 1) == 0]
    if column not in usable:
        why = "is none" if column not in terminals.columns else "is not a number" if column not in \
            empty else f"is empty (or NaN) in {empty[column]:,} of the {terminals.height:,} terminal states"
        raise ParamError(f"tie-break column {column!r} {why}: a tie-break takes a column that is a number "
                         f"in every terminal state ({', '.join(usable)}){did_you_mean(column, usable)}")
    if column == "value":
        return model.terminal_values
    values = fractions.get(column)
    if values is not None:  # fractions, which a table holds as their text
        return values if exact else [float(v) for v in values]
    if exact and terminals[column].dtype.is_float():
        return [Fraction(v) for v in terminals[column].to_list()]
    return terminals[column]
