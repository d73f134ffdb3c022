"""Any name a folder takes is a name mdp writes: the temporary file beside the target is
named after it but never longer than the folder allows (before, names of 246 to 255 bytes
were refused as "File name too long"); a name the folder cannot take is refused before any
work, in words that say so and give the limit."""

import os

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

FRAME = pl.DataFrame({"a": [1, 2], "b": ["x", "y"]})
LETTERS = st.sampled_from(["a", "Z", "7", "-", "é", "ß", "€"])  # 1, 2 and 3 bytes in UTF-8


def _longest(folder) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stem=st.lists(LETTERS, min_size=1, max_size=260).map("".join))
@pytest.mark.slow  # half a second or more of CPU
def test_every_name_the_folder_takes_is_written_and_no_other(tmp_path_factory, stem):
    folder = tmp_path_factory.mktemp("names")
    name = stem + ".csv"
    target = folder / name
    if len(name.encode()) <= _longest(folder):
        assert mdp.write_table(FRAME, str(target)) == str(target)
        assert pl.read_csv(target).equals(FRAME)
        assert os.listdir(folder) == [name]  # no temporary file left
    else:
        with pytest.raises(mdp.ParamError, match=r"the file's name is too long for folder .* "
                                                 rf"\(at most {_longest(folder)} bytes\)$"):
            mdp.write_table(FRAME, str(target))
        assert os.listdir(folder) == []


@pytest.mark.parametrize("length", [246, 255, 256])
def test_the_command_line_writes_the_longest_names(tmp_path, monkeypatch, capsys, length):
    monkeypatch.chdir(tmp_path)
    name = "a" * (length - 4) + ".csv"
    code = main(["policy", "shutbox", "--set", "tiles=1-2", "--out", name])
    err = capsys.readouterr().err
    if length <= _longest(tmp_path):
        assert code == 0 and err == f"11 rows written to {name}\n"
    else:
        assert code == 2 and err.count("\n") == 1 and "the file's name is too long" in err
        assert os.listdir(tmp_path) == []
