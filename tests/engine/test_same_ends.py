"""The round states of a batch of the sweep of every total grouped by the ends they allow
(mdp.engine.rounds.worth.same_ends, rows packed to bytes) as numpy's unique rows group and
number them."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.engine.rounds.worth import same_ends


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(0, 30), width=st.integers(0, 20), kinds=st.integers(1, 4),
       seed=st.integers(0, 2**32 - 1))
def test_the_ends_allowed_are_numbered_as_numpys_unique_rows(rows, width, kinds, seed):
    # Widths past 8 and not a multiple of it: rows packed into bytes, the last padded.
    rng = np.random.default_rng(seed)
    allowed = (rng.random((kinds, width)) < 0.5)[rng.integers(0, kinds, rows)]
    expected = np.unique(allowed, axis=0, return_inverse=True)[1].ravel() if width \
        else np.zeros(rows, dtype=np.int64)
    assert np.array_equal(same_ends(allowed), expected)
