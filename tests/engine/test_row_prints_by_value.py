"""A round rule's answer (and a strategy's aims) is checked to be pure by a fingerprint of
each round state's row, compared between batches; the fingerprint is of the row's values,
whatever type the array that holds them (round 32, P32-12: a row of 3 alone, int64, and the
same row in a batch of floats, 3.0, read as two answers, and a pure rule was refused as
impure), and rows of other values have other fingerprints (a draw found rows (0, 0, 1) and
(1, 1, 0) sharing one: it was a weighted sum of the numbers, and -1 in an object array
counted as -2, Python's hash of it). Generated: matrices of whole numbers and halves, each
row fingerprinted alone in the array type its own values make, as Python numbers, and in a
batch whose type another row decides; rows of Python numbers of any size; and matrices of
any words, fingerprinted by numpy in blocks of any size and by the compiled kernel."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdp.engine import fused
from mdp.engine.rounds import prints
from mdp.engine.rounds.prints import row_prints

ROWS = st.lists(st.lists(st.integers(-2**40, 2**40) | st.sampled_from([0.5, -2.5, 1e300, -1, 0, 1]),
                         min_size=3, max_size=3), min_size=1, max_size=5)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(ROWS)
@example([[0, 0, 0], [0, 0, 1], [1, 1, 0]])
@example([[0, 0, 0], [0, 0, -1]])
def test_a_rows_fingerprint_is_of_its_values_whatever_the_batch(rows):
    batch = row_prints(np.array(rows))  # floats where any row holds a half
    for at, row in enumerate(rows):
        alone = np.array([row])  # int64 where this row is whole numbers alone
        assert row_prints(alone)[0] == batch[at], (row, alone.dtype)
        assert row_prints(alone.astype(object))[0] == batch[at], row
    distinct = {tuple(float(v) for v in row) for row in rows}
    assert len(set(batch.tolist())) == len(distinct)  # (a collision of 64 bits: never drawn)


NUMBERS = (st.integers(-2**200, 2**200) | st.fractions(max_denominator=10**30)
           | st.integers(-3, 3).map(float))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(NUMBERS, min_size=2, max_size=2), min_size=1, max_size=6))
@example([[2**64, 0], [8, 0], [-1, 0], [-2, 0], [Fraction(1, 2), 0], [-(2**64), 0]])  # Python's
# hash of 2**64 is 8's, of -1 is -2's
def test_python_numbers_of_any_size_have_one_fingerprint_per_value(rows):
    held = np.empty((len(rows), 2), dtype=object)
    for at, row in enumerate(rows):
        held[at] = row
    prints = row_prints(held)
    by_value: dict[tuple[Fraction, ...], int] = {}
    for row, mark in zip(rows, prints.tolist()):
        value = tuple(Fraction(v) for v in row)  # 2.0, 2 and 4/2 are one value
        assert by_value.setdefault(value, mark) == mark, row
    assert len(set(by_value.values())) == len(by_value)  # (a collision of 64 bits: never drawn)


WORDS = st.integers(-2**63, 2**63 - 1)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 9).flatmap(lambda width: st.tuples(
    st.just(width), st.lists(st.lists(WORDS, min_size=width, max_size=width), max_size=12))),
       st.integers(1, 40), st.integers(0, 3))
def test_numpy_and_the_compiled_kernel_give_the_same_fingerprints(matrix, block, salt):
    pytest.importorskip("numba")
    width, rows = matrix
    matrix = np.array(rows, dtype=np.int64).reshape(len(rows), width)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(fused, "WORTH_LOADING", 0)
        patched.setattr(prints, "BLOCK", block)  # blocks of rows of any size, and rows
        patched.setattr(fused, "COMPILED", False)  # wider than a block, one a block
        plain = row_prints(matrix, salt)
        patched.setattr(fused, "COMPILED", True)
        assert fused.kernel(0, "prints") is not None
        assert row_prints(matrix, salt).tolist() == plain.tolist()
