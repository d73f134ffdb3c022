"""The one index of sorted integer keys (mdp.engine.keys.KeyIndex), against a dict."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdp.engine.keys import KeyIndex

KEYS = st.lists(st.integers(-2**63, 2**63 - 1), unique=True, max_size=40)


@pytest.mark.slow
@given(KEYS, st.lists(st.integers(-2**63, 2**63 - 1), max_size=20), st.booleans())
def test_keys_are_found_as_a_dict_finds_them(keys, probes, shuffled_ids):
    ids = list(range(len(keys)))[::-1] if shuffled_ids else None
    index = KeyIndex(np.array(keys, dtype=np.int64), None if ids is None else np.array(ids))
    expected = {k: (i if ids is None else ids[i]) for i, k in enumerate(keys)}
    assert len(index) == len(expected) and sorted(index) == sorted(expected)
    for key in keys + probes:
        assert (key in index) == (key in expected)
        if key in expected:
            assert index[key] == expected[key]
    if keys:
        assert index.ids_of(np.array(keys, dtype=np.int64)).tolist() == [expected[k] for k in keys]
    at, found = index.find(np.array(keys + probes, dtype=np.int64))
    assert found.tolist() == [k in expected for k in keys + probes]
    assert [index.ids[a] for a, f in zip(at.tolist(), found.tolist()) if f] == \
        [expected[k] for k in keys + probes if k in expected]


def test_what_is_no_key_is_not_found():
    index = KeyIndex(np.array([3, 1, 2]))
    assert index[1] == 1 and index[3] == 0
    for key in ("x", 2**70, 1.5, None):
        assert key not in index
