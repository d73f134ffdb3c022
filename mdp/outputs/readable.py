"""Values as people read them: the one rule for numbers printed for people (the value line,
the Markdown table, what an analysis shows), where files and JSON for programs keep every
digit.

Text is shown on one line (:func:`~mdp.shown.one_line`). A float is shown to
:data:`~mdp.shown.DIGITS` significant
digits: float arithmetic leaves noise in the last of its 17 (17/4 comes out as
4.249999999999999), which 15 digits round away (4.25), while every digit shown is one the
float holds. A value that does not apply (``None``, a
table's null) is shown as nothing.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any

from mdp.shown import DIGITS, fixed, one_line, percent, readable, shown_float

if TYPE_CHECKING:
    from fractions import Fraction

    import polars as pl

    from mdp.engine.solved import Solved

__all__ = ["DIGITS", "cells", "exactly", "fixed", "fixed_exact", "one_line", "percentiles_shown",
           "readable", "shown_float", "readable_table", "value_line", "value_name"]


def readable_table(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` as a table for people: each float column as :func:`cells` shows it, and each
    other column with nulls as text; the other columns as they are."""
    import polars as pl  # here: listing the formats imports no Polars

    floats = cells(frame, [c for c in frame.columns if frame[c].dtype.is_float()])
    return frame.with_columns(pl.Series(c, floats[c], pl.String) if c in floats else
                              frame[c].cast(pl.String).fill_null("")
                              for c in frame.columns if c in floats or frame[c].null_count())


def cells(frame: pl.DataFrame, names: list[str]) -> dict[str, list[str]]:
    """The text of each cell of the columns ``names`` of ``frame`` as a table for people shows
    it: by :func:`readable`, or :func:`exactly` where an exact column is beside it (the one
    renderer of exact values for people, whichever table), floats :func:`apart`."""
    # The exact column of each float column: NAME_exact, or a column exact beside the float
    # column it follows (the probability of a distribution, the value of a --vary row).
    exacts = {c: f"{c}_exact" for c in frame.columns if f"{c}_exact" in frame.columns}
    if "exact" in frame.columns:
        before = [c for c in frame.columns[:frame.columns.index("exact")] if frame[c].dtype.is_float()]
        if before:
            exacts.setdefault(before[-1], "exact")
    texts = {}
    for name in names:
        values = frame[name].to_list()
        exact = frame[exacts[name]].to_list() if name in exacts else [None] * len(values)
        said = [exactly(v, e) for v, e in zip(values, exact)]
        texts[name] = apart(values, said) if frame[name].dtype.is_float() else said
    return texts


def apart(values: list[Any], texts: list[str]) -> list[str]:
    """``texts`` of ``values`` (floats), but those of two floats that read alike to 15 digits
    (0.3 and 0.30000000000000004) with every digit Python's ``repr`` gives: two values of a
    table never read as one."""
    first: dict[str, Any] = {}
    alike = {text for value, text in zip(values, texts) if value is not None and value == value
             and first.setdefault(text, value) != value}
    return [repr(float(v)) if t in alike else t for v, t in zip(values, texts)] if alike else texts


def percentiles_shown(percentiles: dict[str, Any], frame: pl.DataFrame,
                      exact: dict[str, str] | None = None) -> str:
    """A line's ``5% a, 25% b, ...`` of the outcomes ``frame`` lists: each as the table shows
    it (:func:`exactly` beside its exact value), and two floats that read alike, among them
    and the table's float cells, with every digit: the line never shows 0.30000000000000004
    as the table's 0.3."""
    values = list(percentiles.values())
    among = [v for name in frame.columns if frame[name].dtype.is_float()
             and name not in ("probability", "frequency") for v in frame[name].to_list()]
    texts = [exactly(0.0 if v is None else v, (exact or {}).get(p))  # (None: no float holds it)
             for p, v in percentiles.items()]
    floats = [v if isinstance(v, float) else None for v in values]
    shown = apart([*floats, *among], [*texts, *map(readable, among)])[:len(values)]
    return ", ".join(f"{p} {t}" for p, t in zip(percentiles, shown))


def fixed_exact(value: Fraction | int) -> str:
    """An exact value in a column of :func:`~mdp.shown.fixed`'s (``mdp advise --exact``): as
    its float is shown, but one that no float holds by its size (not 0 but made 0 or
    subnormal, or past a float) by that size to three digits (``2.22e-401``), never as the
    float's ``0``: a value or regret that is not 0 never reads 0."""
    from mdp.engine.numeric import about

    try:
        as_float = float(value)
    except OverflowError:
        as_float = math.inf
    if value != 0 and (abs(as_float) < sys.float_info.min or math.isinf(as_float)):
        return about(value)
    return fixed(as_float)


def exactly(value: Any, exact: str | None) -> str:
    """A float as :func:`readable` shows it, but beside its exact value (``"p/q"``, where a
    table has one) that no float holds by its size, as that value to three digits
    (``1e-400``, not the float's ``0``)."""
    if exact is not None and value is not None and \
            (abs(value) < sys.float_info.min or math.isinf(value)):  # 0, subnormal or inf
        from fractions import Fraction

        from mdp.engine.numeric import about

        fraction = Fraction(exact)
        if math.isinf(value) or Fraction(value) != fraction:
            return about(fraction)
    return readable(value)


def percent_cell(chance: Any) -> str:
    """A chance as :func:`percent` shows it, in a table's column of ten characters."""
    return f"{percent(chance):>10}"


def chances_shown(frame: pl.DataFrame) -> list[tuple[str, str]]:
    """Each row's chance (``probability``) and the chance up to it, as :func:`percent` shows
    them; from the exact fractions where the table has them (``exact``), so that a chance that
    no float holds is not shown as 0, nor a sum short of 1 as 100%."""
    from fractions import Fraction

    exact = "exact" in frame.columns
    chances = [Fraction(t) for t in frame["exact"]] if exact else frame["probability"].to_list()
    total: Any = Fraction(0) if exact else 0.0
    shown = []
    for chance in chances:
        total += chance
        shown.append((percent_cell(chance), percent_cell(min(total, 1))))
    return shown


SEEN_ERROR = 1e-9
"""A bound of the error of a value (:attr:`mdp.Solution.residual`) past this, relative to
the value (or 1), is said beside it: the default residual, 1e-12, stays below."""


def value_line(solution: Solved) -> str:
    """``chance of shutting the box: 9.7614% (0.0976137161704307)``: the objective's name
    and the value, as a percentage too when it is a probability."""
    from mdp.engine.numeric import float_or_none, quoted  # here: the CLI starts without NumPy

    objective, exact = solution.objective, solution.value
    value = float_or_none(exact)
    name = value_name(solution)
    if value is None:  # exact, of a size no float holds: "(a fraction of ..., about 1e-400)"
        shown = quoted(exact)
        return f"{name}: {percent(exact)} {shown}" if objective.probability else f"{name}: {shown}"
    text = readable(value)
    if objective.probability:
        text = f"{percent(exact)} ({text})"
    return f"{name}: {text}{within(solution, value)}"


def within(solution: Solved, value: float) -> str:
    """``, within 0.21 (the bound of --residual)`` where value iteration stopped early enough
    for its bound to be seen beside ``value`` (:data:`SEEN_ERROR`), else nothing."""
    bound = getattr(solution, "residual", None)
    if bound is not None and bound > SEEN_ERROR * max(1.0, abs(value)):
        return f", within {bound:.2g} (the bound of --residual)"
    return ""


def value_name(solution: Solved) -> str:
    """What ``solution``'s values are of, in words: the objective's name, and the play
    (``playing hold-at-20 against hold-at-25``) and the aim (``(minimized)``) where they are
    not optimal play to the objective's own aim. The value line's, and advice's."""
    name = solution.objective.name
    if solution.strategy is not None:
        name += f" playing {_played(solution)}"
    # Which way the play went, where it went one (optimal play, against another player's
    # strategy too, or a game of rounds' strategy, each round played toward its aims); a
    # strategy of one model's weights goes neither way.
    own = getattr(getattr(solution, "policy", None), "name", None)
    if (solution.steered or own == "optimal") and \
            (solution.sense == "min" or solution.sense != solution.objective.sense):
        name += f" ({'minimized' if solution.sense == 'min' else 'maximized'})"
    return name


def _played(solution: Any) -> str:
    """The play a value is of, in words. In a game of two players, optimal play beside a
    strategy is the optimal policy kept as it is, not the best reply to that strategy (a
    player who knows it can do better), and the line says so."""
    if getattr(solution.model, "turns", None) is None:
        return str(solution.strategy)
    mine = solution.policy.name
    other = "optimal" if solution.opponent is None else solution.opponent.name
    if mine == "optimal" and other != "optimal":
        return f"the fixed optimal policy, not a best reply, against {other}"
    if other == "optimal" and mine != "optimal":
        return f"{mine} against the fixed optimal policy, not a best reply to {mine}"
    return str(solution.strategy)
