"""docs/results.py, the Results page: every command it shows is run again here and must give
its published figure (and the one figure it does not reproduce must still differ), so the
page cannot drift from the code. The docs build runs the same check."""

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def results():
    spec = importlib.util.spec_from_file_location("docs_results", DOCS / "results.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_page_lists_every_figure_the_issue_asks_for(results):
    assert [f.key for f in results.FIGURES] == [
        "standard", "two-dice", "fiddler", "max-two-flips", "ten-box", "twelve-box",
        "twelve-box-321", "worst", "least-score", "twelve-box-55", "twelve-box-45", "pig", "pig-two",
        "yahtzee"]
    assert all(f.command.startswith("mdp ") and f.source for f in results.FIGURES)


@pytest.mark.slow
def test_every_command_gives_what_the_page_says(results):
    page = results.generate()  # raises results.Mismatch on any drift
    for figure in results.FIGURES:
        assert f"$ {figure.command}" in page and f"**{figure.published}**" in page
    # The figure not reproduced is said to be so, with the rule sets tried.
    assert "**Not reproduced.**" in page and page.count("4217948047/78364164096") == 4
    assert "Strategies" in page and "sixteen-row match table" in page
    assert (DOCS / "results.rst").read_text().count(".. include:: _generated/results.inc") == 1


def test_a_figure_that_moved_fails_the_check(results):
    standard = results.FIGURES[0]
    output = results.run(standard.command)
    assert results.check(standard, output) == "9.7614%"
    with pytest.raises(results.Mismatch):
        results.check(dataclasses.replace(standard, published="9.7613%"), output)
    ten_box = next(f for f in results.FIGURES if f.key == "ten-box")
    with pytest.raises(results.Mismatch):  # were we ever to reproduce it, the page must change
        results.check(dataclasses.replace(ten_box, published="4.0438%"), results.run(ten_box.command))


def test_the_table_of_yatzy_s_totals_is_checked(results, tmp_path, monkeypatch):
    # The sweep of every total of Yatzy takes an hour: the page reads the table it wrote
    # (docs/_static/yatzy-targets.csv) and checks the published 94.3% and 90.9% for more
    # than 200, and that the chances fall from 1 and are never below best-mean play's.
    assert any("**94.3%** and **90.9%**" in line for line in results._score_to_beat())
    lines = results.TARGETS.read_text(encoding="utf-8").splitlines()
    wrong = {
        "moved": lambda row: "201,0.9420,0.9088" if row.startswith("201,") else row,
        "below best mean": lambda row: "150,0.5,0.9" if row.startswith("150,") else row,
        "rising": lambda row: "300,0.99,0.09946" if row.startswith("300,") else row,
    }
    for change in wrong.values():
        changed = tmp_path / "targets.csv"
        changed.write_text("\n".join(map(change, lines)) + "\n", encoding="utf-8")
        monkeypatch.setattr(results, "TARGETS", changed)
        with pytest.raises(results.Mismatch):
            results._score_to_beat()
