"""The mean, the spread and the percentiles of the chance of every total of a game of
rounds (:func:`mdp.engine.rounds.totals.rounds_distribution`'s table)."""

from __future__ import annotations

import decimal
import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from mdp.engine.numeric import about, decimal_context, float_or_none

PERCENTILES = (5, 25, 50, 75, 95)


def spread(frame: pl.DataFrame) -> dict[str, Any]:
    """The mean, the standard deviation and the percentiles of a distribution of points (a
    game of rounds' ``points`` and ``probability``): each percentile the least total whose
    chance up to it reaches the share, as :attr:`mdp.Simulation.percentiles` counts games.
    With exact chances (``exact``), worked out in fractions from the exact totals and made
    floats at the end; in floats, from each total's distance to the first (exact), so that
    totals a float cannot tell apart (past 2**53) still spread."""
    totals = [Fraction(t) for t in (frame["points_exact"] if "points_exact" in frame.columns
                                    else frame["points"]).to_list()]
    exact = "exact" in frame.columns
    mean, sd, at = (_exact_spread if exact else _float_spread)(frame, totals)
    found = {**_by_size(mean=mean, sd=sd), **({"mean_exact": str(mean)} if exact else {})}
    if not exact and "points_exact" not in frame.columns:
        return {**found, "percentiles": {f"{p}%": frame["points"][i] for p, i in zip(PERCENTILES, at)}}
    return {**found,  # totals a float does not hold: by their size, exactly beside; a whole
            # one within 64 bits as the whole number it is, as the floats' table gives it
            "percentiles": {f"{p}%": int(totals[i]) if totals[i].denominator == 1 and
                            abs(totals[i]) < 2**63 else float_or_none(totals[i])
                            for p, i in zip(PERCENTILES, at)},
            "percentiles_exact": {f"{p}%": str(totals[i]) for p, i in zip(PERCENTILES, at)}}


def _by_size(**exact: Fraction) -> dict[str, Any]:
    """Each of ``exact`` as a float, and ``None`` where a float does not hold its size (1e-400,
    1e400), with that size in words beside (``KEY_about``: ``-1.8e+308``)."""
    found: dict[str, Any] = {}
    for key, value in exact.items():
        found[key] = float_or_none(value)
        if found[key] is None:
            found[f"{key}_about"] = about(value)
    return found


def _exact_spread(frame: pl.DataFrame, totals: list[Fraction]) -> tuple[Fraction, Fraction, list[int]]:
    """The mean, standard deviation (to 20 digits) and percentiles' rows of exact chances, in
    fractions."""
    chances = [Fraction(c) for c in frame["exact"].to_list()]
    mean = sum((c * t for c, t in zip(chances, totals)), Fraction(0))
    variance = sum((c * (t - mean) ** 2 for c, t in zip(chances, totals)), Fraction(0))
    cumulative = list(itertools.accumulate(chances))
    at = [next(i for i, c in enumerate(cumulative) if c >= Fraction(p, 100)) for p in PERCENTILES]
    return mean, _root(variance), at


def _root(square: Fraction) -> Fraction:
    """The square root of an exact number (0 or more), to 20 digits, where the number itself
    may be past what a float holds and its root not (a spread of totals near 1e200)."""
    with decimal.localcontext(decimal_context(20)):
        root = (decimal.Decimal(square.numerator) / decimal.Decimal(square.denominator)).sqrt()
    return Fraction(root)


def _float_spread(frame: pl.DataFrame, totals: list[Fraction]) -> tuple[Fraction, Fraction, list[int]]:
    """The same of float chances, from each total's exact distance to the first, over the
    largest distance's power of two (worked out exactly), so that no distance nor square goes
    past a float whatever the totals (near 1e307, or past a float)."""
    chances = frame["probability"].to_numpy()
    first = totals[0] if totals else Fraction(0)
    distances = [t - first for t in totals]
    top = max((abs(d) for d in distances), default=Fraction(0))
    scale = Fraction(2) ** (top.numerator.bit_length() - top.denominator.bit_length() + 1) \
        if top else Fraction(1)  # a power of two above the largest distance
    offsets = np.array([float(d / scale) for d in distances])
    middle = float(chances @ offsets)
    deviation = math.sqrt(max(float(chances @ (offsets - middle) ** 2), 0.0))
    # Float chances may fall short of a share by the last bits: a margin of 1e-12.
    cumulative = np.cumsum(chances)
    at = [min(int(np.searchsorted(cumulative, p / 100 - 1e-12)), len(totals) - 1)
          for p in PERCENTILES]
    return first + Fraction(middle) * scale, Fraction(deviation) * scale, at
