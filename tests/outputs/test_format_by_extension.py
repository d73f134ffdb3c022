"""A table's format is the one its file's extension names, read as a picture's is (the end of
the file's name after its last dot): a name of its extension alone, ``.csv``, is a CSV file,
as ``--plot .png`` is a PNG (round 28: "unknown file type '(none)'" beside a list holding
``.csv``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp
from mdp.outputs.registry import format_for

STEMS = st.sampled_from(["", "a", "a.b", "dir.d/x", "dir.d/", "./", "../up.v1."])


@given(stem=STEMS, upper=st.booleans())
def test_every_extension_names_its_format_whatever_comes_before(stem, upper):
    for name, fmt in mdp.formats().items():
        for extension in fmt.extensions:
            path = stem + (extension.upper() if upper else extension)
            assert format_for(path).name == name, path


@pytest.mark.parametrize("path", ["noext", "dir.csv/noext", "x.", "x.csv.", "dir.d/"])
def test_a_name_without_an_extension_is_refused_naming_it(path):
    with pytest.raises(mdp.ParamError, match=r"unknown file type "):
        format_for(path)
