"""The fingerprints of rows of numbers compiled (numba, the optional extra ``fast``; made by
:func:`mdp.engine.fused.kernel` as ``"prints"``): each 64-bit word mixed and summed along its
row in one pass, where numpy mixes a block of rows pass by pass
(:func:`mdp.engine.rounds.prints.row_prints`). The same integer arithmetic, so the same
fingerprints, bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np

MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
"""The two multipliers of the finaliser of splitmix64, a bijection of 64-bit words whose every
output bit depends on every input bit (shifts of 30, 27 and 31)."""
_A, _B = MIX
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def tried(found: Any) -> None:
    found(np.zeros((1, 1), np.uint64), np.zeros(1, np.uint64), np.zeros(1, np.uint64))


def _prints(words: Any, columns: Any, out: Any) -> None:  # pragma: no cover
    """Each row's sum (modulo 2**64) of its words plus their column's word, mixed."""
    for i in range(words.shape[0]):
        total = columns[0] ^ columns[0]
        for j in range(words.shape[1]):
            z = words[i, j] + columns[j]
            z = (z ^ (z >> _S30)) * _A
            z = (z ^ (z >> _S27)) * _B
            total += z ^ (z >> _S31)
        out[i] = total
