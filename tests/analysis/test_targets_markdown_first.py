"""A Markdown table of targets of more rows than a Markdown table may have is refused before
the sweep, as a policy table's is: the totals' rows are counted from the least and most a
game ends with (Two boxes with points of ten thousand times: 180,001 totals)."""

from pathlib import Path

import pytest
from edited import edited

import mdp.analysis.targets as targets_module
from mdp.program import main

TWO_BOXES = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py").read_text()
pytestmark = pytest.mark.slow


def _game(tmp_path, times):
    source = TWO_BOXES.replace("    return face if box == \"FACE\" else 2 * face * (face % 2 == 0)",
                               f"    return {times} * (face if box == \"FACE\" else 2 * face * (face % 2 == 0))")
    assert source != TWO_BOXES
    return edited(source, "kboxes", tmp_path, "")


def test_a_markdown_table_of_too_many_totals_is_refused_before_the_sweep(tmp_path, monkeypatch, capsys):
    swept = []
    monkeypatch.setattr(targets_module, "at_least", lambda *a, **k: swept.append(1))
    out = tmp_path / "t.md"
    assert main(["targets", _game(tmp_path, 10_000), "--out", str(out)]) == 3
    error = capsys.readouterr().err
    assert "180,001 rows, too many for a Markdown table (at most 100,000)" in error, error
    assert not swept and not out.exists()


@pytest.mark.parametrize("times", [1, 1_000])
def test_a_markdown_table_within_its_rows_is_written(tmp_path, times):
    out = tmp_path / "t.md"
    main(["targets", _game(tmp_path, times), "--out", str(out)])
    rows = [line for line in out.read_text().splitlines() if line.startswith("|")][2:]
    # Totals 0 to 18 times: two boxes of at most 6 and 12 points.
    assert len(rows) == 18 * times + 1
    assert rows[-1].split("|")[1].strip() == str(18 * times)
