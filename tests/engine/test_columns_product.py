"""The sparse product of a block's chance layer written in place (mdp.engine.columns._product,
on the block's rows as mdp.engine.columns._rows lays them out, however narrow the block)
against scipy's own ``matrix @ block``, bit for bit: the kernel's sums must not change by
a single bit where it stopped making a new array for them."""

import numpy as np
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.engine import columns


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 12), cols=st.integers(1, 12), width=st.integers(1, 9),
       spare=st.integers(0, 3), density=st.floats(0.0, 1.0), seed=st.integers(0, 2**32 - 1))
def test_the_product_in_place_is_scipys_bit_for_bit(rows, cols, width, spare, density, seed):
    rng = np.random.default_rng(seed)
    matrix = scipy.sparse.random_array((rows, cols), density=density, rng=rng, format="csr")
    # A buffer laid out for a wider block than this one, and stale values where the product
    # goes: only the block's own rows, one after another, may be read and written.
    flat = rng.standard_normal((cols + rows) * (width + spare))
    block = columns._rows(flat, cols, width)
    block[...] = rng.standard_normal((cols, width)) * 10.0 ** rng.integers(-5, 6, (cols, 1))
    out = columns._rows(flat[cols * width:], rows, width)
    expected = matrix @ block.copy()
    columns._product(matrix, block, out)
    assert np.array_equal(out.view(np.uint64), expected.view(np.uint64))


def test_without_scipys_private_kernel_the_product_is_the_same(monkeypatch):
    """Where a scipy lacks the private kernel the in-place product uses, the product itself
    is written there: the same numbers, bit for bit."""
    import numpy as np
    import scipy.sparse

    from mdp.engine import columns

    rng = np.random.default_rng(7)
    matrix = scipy.sparse.random_array((30, 40), density=0.2, format="csr", rng=rng)
    block = rng.random((40, 5))
    kept, plain = np.full((30, 5), 9.0), np.full((30, 5), 9.0)
    columns._product(matrix, block, kept)
    monkeypatch.setattr(columns, "_in_place", lambda: None)
    columns._product(matrix, block, plain)
    assert np.array_equal(kept, plain) and np.array_equal(plain, matrix @ block)
