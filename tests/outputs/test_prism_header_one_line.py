"""Every line of `mdp export`'s header is one comment, whatever the names in it hold: a rule
plugin's path with a line break was written raw, ending the comment, so that the rest of the
path was PRISM of the path's choosing (P35-5: ``const int x = 5;``). A control character is
written as its escape, as every name mdp shows; the model after the header is the one a plain
name gives."""

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

ONE_TILE = Path(__file__).parents[2] / "docs" / "examples" / "shutbox_one_tile.py"
NAMES = st.text(alphabet="ab \n\r\t\x0b\x0c\x1c\x85\u2028;=", min_size=1, max_size=6).filter(
    lambda name: name.strip(" ") not in ("", ".", ".."))


def _export(folder, name, capsys):
    plugin = folder / name / "p.py"
    plugin.parent.mkdir(parents=True)
    shutil.copy(ONE_TILE, plugin)
    out = folder / "model.prism"
    assert main(["export", "shutbox", "--set", "tiles=1-2", "-p", str(plugin), "--out", str(out)]) == 0
    capsys.readouterr()
    lines = out.read_text(encoding="utf-8").split("\n")
    head = lines.index("")
    return lines[:head], lines[head:]


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES)
def test_each_header_line_is_one_comment_and_the_model_is_the_plain_one(tmp_path_factory, capsys, name):
    head, model = _export(tmp_path_factory.mktemp("odd"), name, capsys)
    plain_head, plain_model = _export(tmp_path_factory.mktemp("plain"), "plain", capsys)
    assert len(head) == len(plain_head) and all(line.startswith("// ") for line in head)
    assert all(line.isprintable() for line in head)
    assert model == plain_model
