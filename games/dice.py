"""What every dice game needs: the total of a throw of dice, and dice as parameters.

Probabilities are exact :class:`~fractions.Fraction` values, so that exact solving stays exact.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from fractions import Fraction
from typing import Any

import numpy as np

import mdp

MAX_DICE = 50
MAX_FACES = 100
_WHY = "these bounds keep a throw to at most 4,951 totals"
parse_dice = mdp.parse_int(1, MAX_DICE, why=_WHY)
parse_faces = mdp.parse_int(2, MAX_FACES, why=_WHY)

_EXACT = re.compile(r"-?[0-9]+(/[0-9]+|\.[0-9]*)?")
r"""A number's digits are ASCII's, as every number mdp reads (:func:`mdp.game.parsers.whole`):
``\d`` would take Arabic-Indic or full-width digits too."""


def parse_fraction(text: str) -> Fraction:
    """``"1/6"``, ``"0.16"`` or ``"2"`` read exactly; :class:`ValueError` for anything else.

    Exponents are refused: ``1e-999999999`` is ten characters and minutes of arithmetic.
    """
    text = text.strip()
    if not _EXACT.fullmatch(text):
        raise ValueError(f"{text!r} is not a number like 1/6, 0.16 or 2")
    return Fraction(text)


@functools.lru_cache(maxsize=64)
def sum_distribution(dice: int, faces: int, weights: tuple[Fraction, ...] | None = None
                     ) -> tuple[tuple[Fraction, int], ...]:
    """The distribution of the total of ``dice`` dice: ``(probability, total)`` by total.

    Faces are numbered from 1; ``weights`` gives each face's probability (fair dice if
    ``None``). Totals that cannot come up are left out.
    """
    counts, whole = _counts(dice, faces, weights)
    return tuple((Fraction(int(count), whole), total)
                 for total, count in enumerate(counts) if count)


@functools.lru_cache(maxsize=64)
def _counts(dice: int, faces: int, weights: tuple[Fraction, ...] | None) -> tuple[np.ndarray, int]:
    """The chance of each total of ``dice`` dice, as whole numbers over a common denominator:
    ``(numerators by total, denominator)``. Made from those of one die fewer, so that every
    number of dice up to 50 costs no more than 50 dice alone."""
    if dice == 0:
        return np.array([1], dtype=object), 1
    face_weights = weights or (Fraction(1, faces),) * faces
    # Count in integers over a common denominator: Fractions at every step cost
    # a gcd each, and 50 dice of 100 faces make millions of steps.
    denominator = math.lcm(*(w.denominator for w in face_weights))
    face = np.array([0] + [int(w * denominator) for w in face_weights], dtype=object)
    below, whole = _counts(dice - 1, faces, weights)
    return np.convolve(below, face), whole * denominator


def parse_weights(value: Any) -> tuple[Fraction, ...] | None:
    """Face probabilities, ``"1/6,1/6,..."`` or ``"0.2,0.16,..."``, kept as exact fractions.
    A float given from Python is read as the decimal it shows (``0.1`` as 1/10, as the text
    ``0.1`` is), not as the binary fraction it holds."""
    if value is None or value == "":
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    if any(isinstance(item, (bool, np.bool_)) for item in items):
        raise ValueError("a weight is a probability, not a truth value (True or False)")
    try:
        weights = tuple(parse_fraction(item) if isinstance(item, str) else
                        Fraction(repr(float(item))) if isinstance(item, float) else Fraction(item)
                        for item in items)
    except (ValueError, TypeError, ZeroDivisionError):
        raise ValueError("expected one probability per face, like 1/6,1/6,1/6,1/6,1/6,1/6 "
                         "or 0.2,0.16,0.16,0.16,0.16,0.16") from None
    if any(w < 0 for w in weights):
        raise ValueError(f"weight {min(weights)} is negative; weights are probabilities")
    if sum(weights) != 1:
        floats = " (each float read as the decimal it shows: a sixth is '1/6' or Fraction(1, 6))" \
            if any(isinstance(item, float) for item in items) else ""
        raise ValueError(f"the weights sum to {sum(weights)}, not 1{floats}")
    return weights


def show_weights(weights: tuple[Fraction, ...] | None) -> str | None:
    """The text :func:`parse_weights` reads back."""
    return None if weights is None else ",".join(map(str, weights))


def check_weights(weights: tuple[Fraction, ...] | None, faces: int) -> None:
    """Raise :class:`mdp.ParamError` unless there is one weight per face (or none at all)."""
    if weights is not None and len(weights) != faces:
        raise mdp.ParamError(f"parameter weights: {len(weights)} weights for dice of "
                             f"{faces} faces; give one per face")


def show_dice(dice: int, faces: int) -> str:
    """``"2 dice of 6 faces"``, ``"1 die of 6 faces"``."""
    return f"{counted_dice(dice)} of {faces} faces"


def counted_dice(dice: int) -> str:
    """``"2 dice"``, ``"1 die"``."""
    return f"{dice} {'die' if dice == 1 else 'dice'}"


@functools.lru_cache(maxsize=64)
def multiset_distribution(dice: int, faces: int, weights: tuple[Fraction, ...] | None = None
                          ) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """The distribution of the faces a throw of ``dice`` dice shows, order forgotten:
    ``(probability, faces)`` with ``faces`` a sorted tuple, in sorted order.

    A throw showing face ``f`` ``c_f`` times has probability
    ``dice! / prod(c_f!) * prod(weight_f ** c_f)`` (the multinomial distribution). Faces are
    numbered from 1; ``weights`` as for :func:`sum_distribution`. Throws that cannot come up
    (a face of weight 0) are left out; ``dice=0`` gives the one empty throw.
    """
    weights = weights or (Fraction(1, faces),) * faces
    result = []
    for hand in itertools.combinations_with_replacement(range(1, faces + 1), dice):
        probability = Fraction(math.factorial(dice))
        for face, group in itertools.groupby(hand):
            count = len(list(group))
            probability *= weights[face - 1] ** count / math.factorial(count)
        if probability:
            result.append((probability, hand))
    return tuple(result)
