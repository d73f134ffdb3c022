"""A round rule's answer (and a strategy's aims) is checked to be pure by a fingerprint of
each round state's row, compared between batches; the fingerprint is of the row's values,
whatever type the array that holds them (round 32, P32-12: a row of 3 alone, int64, and the
same row in a batch of floats, 3.0, read as two answers, and a pure rule was refused as
impure). Generated: matrices of whole numbers and halves, each row fingerprinted alone in
the array type its own values make, and in a batch whose type another row decides."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.engine.rounds.rule import row_prints

ROWS = st.lists(st.lists(st.integers(-2**40, 2**40) | st.sampled_from([0.5, -2.5, 1e300]),
                         min_size=3, max_size=3), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(ROWS)
def test_a_rows_fingerprint_is_of_its_values_whatever_the_batch(rows):
    batch = row_prints(np.array(rows))  # floats where any row holds a half
    for at, row in enumerate(rows):
        alone = np.array([row])  # int64 where this row is whole numbers alone
        assert row_prints(alone)[0] == batch[at], (row, alone.dtype)
        assert row_prints(alone.astype(object))[0] == batch[at] or any(isinstance(v, float) for v in row)
    distinct = {tuple(float(v) for v in row) for row in rows}
    assert len(set(batch.tolist())) == len(distinct)  # (a collision of 64 bits: never drawn)
