"""A 64-bit fingerprint of each row of a matrix of numbers: of the numbers' values, whatever
the array that holds them, so that a function of round states (a round rule, a strategy's
aims) can be checked to give each round state the same answer each time it is asked
(:class:`~mdp.engine.rounds.rule.Fingerprints`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from mdp.engine import fused
from mdp.engine.fused_prints import MIX

BLOCK = 1 << 16
"""Numbers mixed at a time by numpy (a block of rows): half a megabyte, in the cache."""

_ODD = np.uint64(0x9E3779B97F4A7C15)
_MASK = (1 << 64) - 1


def row_prints(numbers: np.ndarray, salt: int = 0) -> np.ndarray:
    """A 64-bit fingerprint of each row of a matrix of numbers (integers, floats, or Python
    numbers in an object array): of their values, whatever the array's type (a row of 3.0 in
    a batch of floats is the row of 3 alone, and in an object array), each number's word
    plus a word of its column and ``salt`` mixed (:data:`~mdp.engine.fused_prints.MIX`)
    before the row's are summed, so that rows of other values (a number moved to another
    column, two changed to keep a sum) have other fingerprints but for a chance of 2**-64.
    Compiled where numba is installed and the work is worth it, else in blocks of rows
    small enough to stay in the processor's cache."""
    words = np.ascontiguousarray(_words(numbers)).view(np.uint64)
    height, width = words.shape
    columns = (np.arange(1, width + 1, dtype=np.uint64) + np.uint64(salt << 32)) * _ODD
    out = np.zeros(height, dtype=np.uint64)
    if not width:
        return out
    compiled = fused.kernel(words.size, "prints") if fused.COMPILED else None
    if compiled is not None:
        with np.errstate(over="ignore"):  # (wrapping, meant: where the kernel runs as Python)
            compiled(words, columns, out)
        return out
    step = max(1, BLOCK // width)
    scratch = np.empty((2, min(step, height), width), np.uint64)
    for top in range(0, height, step):
        z, t = scratch[:, :min(step, height - top)]
        np.add(words[top:top + len(z)], columns, out=z)
        for shift, times in ((30, MIX[0]), (27, MIX[1]), (31, None)):
            np.bitwise_xor(z, np.right_shift(z, np.uint64(shift), out=t), out=z)
            if times is not None:
                np.multiply(z, times, out=z)
        z.sum(axis=1, dtype=np.uint64, out=out[top:top + len(z)])
    return out


def _words(numbers: np.ndarray) -> np.ndarray:
    """Each number as a 64-bit integer: a whole number within 64 bits as itself, another
    float as its bits, a Python number past either as a mix of its parts."""
    if numbers.dtype.kind == "O":
        return np.array([_word(v) for v in numbers.ravel().tolist()],
                        dtype=np.int64).reshape(numbers.shape)
    if numbers.dtype.kind != "f":
        return numbers.astype(np.int64, copy=False)
    floats = np.ascontiguousarray(numbers, dtype=np.float64)
    whole = np.isfinite(floats) & (np.floor(floats) == floats) & (np.abs(floats) < 2.0**63)
    return np.where(whole, np.where(whole, floats, 0).astype(np.int64), floats.view(np.int64))


def _word(value: Any) -> int:
    """A Python number as :func:`_words` has it, a signed 64-bit integer."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2.0**63:
            return int(value)
        return int(np.float64(value).view(np.int64))
    if isinstance(value, Fraction) and value.denominator != 1:
        return _signed(_fold(_fold(value.numerator) ^ _fold(value.denominator << 1)))
    whole = int(value)
    if -(1 << 63) <= whole < (1 << 63):
        return whole
    return _signed(_fold(whole))


def _fold(whole: int) -> int:
    """An integer of any size as one mixed 64-bit word: its sign and each 64 bits of it."""
    word, rest = (1 if whole < 0 else 2), abs(whole)
    while True:
        word = _mixed(((word ^ (rest & _MASK)) + 0x9E3779B97F4A7C15) & _MASK)
        rest >>= 64
        if not rest:
            return word


def _mixed(word: int) -> int:
    """One Python integer below 2**64 mixed as :func:`row_prints` mixes a word."""
    for shift, times in ((30, int(MIX[0])), (27, int(MIX[1])), (31, 1)):
        word = ((word ^ (word >> shift)) * times) & _MASK
    return word


def _signed(word: int) -> int:
    return word - (1 << 64) if word >= 1 << 63 else word
