"""Pictures of a distribution, with matplotlib (the optional extra ``plot``)."""

from __future__ import annotations

import contextlib
import itertools
import math
import os
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import polars as pl

from mdp.errors import MdpError, ParamError, fault
from mdp.outputs.files import write_atomically
from mdp.shown import seen


def check_plot_path(path: str) -> None:
    """Refuse, before any work, a plot file that is not .png or .svg, or a plot without
    matplotlib: imported here, as drawing will (one that is found but fails to import is
    no matplotlib either)."""
    if not path.lower().endswith((".png", ".svg")):
        raise ParamError(f"{path}: a plot is written as .png or .svg")
    _pyplot()


NO_MATPLOTLIB = "--plot needs matplotlib: pip install matplotlib"


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing with Agg (a file, no window) whatever ``MPLBACKEND`` says:
    a backend it does not know would stop its import. A folder for its cache that cannot be
    made (a read-only home) it replaces with a temporary one, quietly."""
    import logging

    backend = os.environ.pop("MPLBACKEND", None)
    log = logging.getLogger("matplotlib")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MdpError(NO_MATPLOTLIB) from None
    finally:
        log.setLevel(level)
        if backend is not None:
            os.environ["MPLBACKEND"] = backend
    return plt


PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
"""Every text of a picture is drawn as given: a game's rules line, its objective's name and
its columns are its own words, where a ``$`` is money, not the start of matplotlib's
mathematics (which would mangle the words, or stop the drawing on an unpaired one)."""


@contextlib.contextmanager
def _drawing() -> Iterator[Any]:
    """pyplot, with every text made inside drawn as plain text (:data:`PLAIN_TEXT`; the
    settings are matplotlib's own again after)."""
    plt = _pyplot()
    with plt.rc_context(PLAIN_TEXT):
        yield plt


def _lines(title: str, figure: Any) -> str:
    """``title`` broken at spaces into lines as wide as the figure, about (a word longer
    stays whole), its own line breaks kept. Not matplotlib's wrapping, which measures the
    words as mathematics wherever two ``$`` are among them, plain text or not."""
    width, lines = int(figure.get_figwidth() * 12), []  # a 10-point character: 1/12 inch
    for line in title.split("\n"):
        words = line.split(" ")
        for word in words[1:]:
            if len(words[0]) + 1 + len(word) > width:
                lines.append(words[0])
                words[0] = word
            else:
                words[0] += " " + word
        lines.append(words[0])
    return "\n".join(lines)


def _written(plt: Any, figure: Any, path: str) -> str:
    """Lay ``figure`` out and write it as ``path`` (PNG or SVG, as its extension says),
    atomically; the figure is closed, written or not; matplotlib failing to lay it out or
    draw it is one line, no picture written. Returns the path."""
    try:
        figure.tight_layout()

        def save(file: Any) -> None:
            figure.savefig(file, format=path.rsplit(".", 1)[1].lower())
            if not file.tell():  # (its writer replaced, say: refused by the guard, too)
                raise MdpError("the picture could not be drawn: matplotlib wrote nothing")

        write_atomically(path, save)
    except MdpError:
        raise
    except Exception as error:  # noqa: BLE001  (matplotlib's own, of whatever kind: its fonts
        # taken away by a game's code, say)
        raise MdpError(f"the picture could not be drawn: matplotlib raised {fault(error)}") from error
    finally:
        plt.close(figure)
    return path


def plot_distribution(frame: pl.DataFrame, path: str, title: str, column: str | None = None,
                      share: str = "probability") -> str:
    """Draw the chance of each outcome (bars) against the outcome column ``column`` (by
    default the first that differs between outcomes: who won, in a game of two players whose
    every end is worth 1), the chances of outcomes alike in it added, and where the outcomes
    are numbers the cumulative chance (steps, right axis); outcomes that are not numbers a
    float holds (text, fractions, None, inf) are drawn side by side, in order, each named.
    Write a PNG or SVG as ``path``'s extension says. ``share`` names what the bars are (the
    chance; a share of games simulated). Returns the path."""
    check_plot_path(path)
    with _drawing() as plt:
        column = column or varied(frame)
        frame = _outcomes(frame, column)
        x, label, named = _axis(frame, column)
        p = [100 * v for v in frame["p"].to_list()]
        figure, bars = plt.subplots(figsize=(10, 5.2), dpi=120)
        width = _bar_width(x)
        bars.bar(x, p, color="#4878a8", edgecolor="#4878a8", linewidth=1, width=width, label=share)
        bars.set_xlabel(label)
        bars.set_ylabel(f"{share} of the outcome (%)")
        margin = max(width, (x[-1] - x[0]) / 40)  # the outcomes at the ends off the frame
        bars.set_xlim(x[0] - margin, x[-1] + margin)
        bars.grid(axis="y", alpha=0.3)
        slanted = named is not None and len(x) > 8
        if named is None:
            bars.ticklabel_format(axis="x", useOffset=False)  # the label says the one scale
            _cumulative(bars, x, p, margin, f"cumulative: {column} at most x", share)
        else:
            bars.set_xticks(x, named, rotation=45 if slanted else 0, ha="right" if slanted else "center")
        handles = [h for axes in figure.axes for h in axes.get_legend_handles_labels()[0]]
        # Below the axes: over them it would hide bars or the line, wherever they lie.
        bars.legend(handles, [str(h.get_label()) for h in handles], loc="upper center",
                    bbox_to_anchor=(0.5, -0.3 if slanted else -0.12), ncol=2, frameon=False)
        bars.set_title(_lines(title, figure), fontsize=10)
        return _written(plt, figure, path)


def _cumulative(bars: Any, x: list[float], p: list[float], margin: float, label: str,
                share: str) -> None:
    """The share at most each outcome, on a right axis: a step at each outcome, held until
    the next."""
    cumulative = [min(c, 100.0) for c in itertools.accumulate(p)]
    line = bars.twinx()
    line.step([x[0] - margin, *x, x[-1] + margin], [0.0, *cumulative, cumulative[-1]],
              where="post", color="#c0504d", linewidth=2, label=label)
    line.set_ylabel(f"cumulative {share} (%)")
    line.set_ylim(0, 101)


def _outcomes(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """The outcomes of ``column`` (``x``, its exact values ``x_exact`` where the frame has
    them) and the chance of each (``p``), those alike added, in order: under names of its
    own, as a name of the game's may be ``*`` or ``^.*$``, which Polars reads as patterns."""
    exact = f"{column}_exact"
    inner = pl.DataFrame({"x": frame[column], "p": frame["probability"],
                          **({"x_exact": frame[exact]} if exact in frame.columns else {})})
    keys = ["x", "x_exact"] if exact in frame.columns else ["x"]
    return inner.group_by(keys).agg(pl.col("p").sum()).sort("x", nulls_last=False)


def varied(frame: pl.DataFrame) -> str:
    """The first outcome column of ``frame`` that differs between its rows (its first if
    none does): not the chances, nor a column's exact values beside it."""
    names = [c for c in frame.columns if c not in ("probability", "exact", "cumulative")
             and not (c.endswith("_exact") and c[:-6] in frame.columns)]
    return next((c for c in names if frame[c].n_unique() > 1), names[0])


def _bar_width(x: list[float]) -> float:
    """Bars 0.8 as wide as the least gap between two outcomes (0.8 for one outcome), so that
    none overlap however the outcomes lie (their edges, drawn, show the narrowest)."""
    gaps = [b - a for a, b in zip(x, x[1:]) if b > a]
    return 0.8 * min(gaps) if gaps else 0.8


def _axis(frame: pl.DataFrame, column: str) -> tuple[list[Any], str, list[str] | None]:
    """The outcomes along the axis, its label, and the outcomes' names where they are drawn
    side by side, of :func:`_outcomes`'s frame of ``column``: its values; or where some are
    1e15 or more in size (past what a float holds too, shown as inf, exact beside), the exact
    ones over a power of ten that brings them under 10, said in the label (a drawing's own
    arithmetic overflows on numbers near 1e300); or, where they are not all numbers that a
    float holds (text, fractions shown as text, None, inf or NaN of no exact value), one
    place each."""
    x = frame["x"].to_list()
    exact = "x_exact" in frame.columns
    if not frame["x"].dtype.is_numeric() or frame["x"].null_count() or \
            not exact and not all(math.isfinite(v) for v in x):
        return list(range(len(x))), column, [_named(v) for v in x]
    if max((abs(v) for v in x), default=0.0) < 1e15:
        return x, column, None
    totals = [Fraction(t) for t in (frame["x_exact"].to_list() if exact else x)]
    power = len(str(int(max(abs(t) for t in totals)))) - 1  # under 10 in size: one scale
    return [float(t / 10 ** power) for t in totals], f"{column} (times 1e{power})", None


def _named(value: Any) -> str:
    """An outcome as its place on the axis names it: as a table shows it, a long one cut
    (an int of 400 digits would push the axes off the figure)."""
    text = "none" if value is None else seen(value)
    return text if len(text) <= 24 else f"{text[:21]}..."


def plot_grid(frame: pl.DataFrame, path: str, title: str, x: str, y: str, value: str) -> str:
    """Draw ``value`` over the grid of columns ``x`` and ``y`` (one row of ``frame`` per
    cell; cells without a row are left blank) as colours, with contour lines, and write a
    PNG or SVG as ``path``'s extension says: a boundary of play over two columns of a state,
    say. Returns the path."""
    check_plot_path(path)
    if not frame.height:
        raise ParamError(f"{path}: nothing to draw ({value} has no row)")
    with _drawing() as plt:
        import numpy as np

        xs, ys = frame[x].to_numpy(), frame[y].to_numpy()
        grid = np.full((int(ys.max()) + 1, int(xs.max()) + 1), np.nan)
        grid[ys, xs] = frame[value].to_numpy()
        figure, axes = plt.subplots(figsize=(7.5, 6.2), dpi=120)
        image = axes.imshow(grid, origin="lower", cmap="viridis", aspect="equal")
        axes.contour(grid, levels=8, colors="white", linewidths=0.6, alpha=0.7)
        figure.colorbar(image, ax=axes, label=value)
        axes.set_xlabel(x)
        axes.set_ylabel(y)
        axes.set_title(_lines(title, figure), fontsize=10)
        return _written(plt, figure, path)


UNSEEN = 0.05
"""A chance in percent below which :func:`plot_targets` draws no total past the last one
above it: less than a fifth of a pixel of its curves' height."""


def plot_targets(frame: pl.DataFrame, path: str, title: str) -> str:
    """Draw the chance of at least each total (``at_least``) under the play best for it
    (``chance``) and under best-mean play (``chance_best_mean``), and below them the gap
    between the two, every total up to the last whose best chance is :data:`UNSEEN` or more
    (the axis says which are left out); write a PNG or SVG as ``path``'s extension says.
    Returns the path."""
    check_plot_path(path)
    with _drawing() as plt:
        x = frame["at_least"].to_list()
        best = [100 * v for v in frame["chance"].to_list()]
        mean = [100 * v for v in frame["chance_best_mean"].to_list()]
        figure, (curves, gap) = plt.subplots(2, 1, figsize=(10, 6.4), dpi=120, sharex=True,
                                             gridspec_kw={"height_ratios": [3, 1]})
        few = len(x) <= 40  # each total a point that shows (one alone is no line)
        curves.plot(x, best, color="#4878a8", linewidth=2, label="played for each total",
                    marker="o" if few else None, markersize=4)
        curves.plot(x, mean, color="#c0504d", linewidth=1.5, linestyle="--",
                    label="best-mean play", marker="x" if few else None, markersize=5)
        curves.set_ylabel("chance of at least x (%)")
        curves.set_ylim(0, 101)
        curves.grid(alpha=0.3)
        curves.legend(loc="upper right", frameon=False)
        curves.set_title(_lines(title, figure), fontsize=10)
        gap.bar(x, [b - m for b, m in zip(best, mean)], width=1.0, color="#4878a8", alpha=0.5)
        gap.set_ylabel("gain (points of %)")
        gap.set_xlabel("at least x points")
        gap.xaxis.set_major_locator(plt.MaxNLocator(integer=True))  # whole totals
        if len(x) == 1:
            gap.set_xlim(x[0] - 1, x[0] + 1)
        shown = [t for t, b in zip(x, best) if b >= UNSEEN]
        if shown and shown[-1] < x[-1]:  # a long tail flat on the axis (Yahtzee's to 1,575)
            last = shown[-1]
            pad = max(1, (last - x[0]) // 50)
            gap.set_xlim(x[0] - pad, last + pad)
            gap.set_xlabel(f"at least x points (from {last + 1:,} to {x[-1]:,}, every chance "
                           f"under {UNSEEN:g}%: left out)")
        gap.grid(alpha=0.3)
        return _written(plt, figure, path)
