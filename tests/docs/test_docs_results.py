"""docs/results.py, the Results page: the docs build runs every command it shows, which must
give its published figure (and the one figure it does not reproduce must still differ), so the
page cannot drift from the code; the built page is read here, and the checks themselves are
tested on the figures and tables one at a time."""

import dataclasses
import html
import importlib.util
import re
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


@pytest.mark.docs
@pytest.mark.slow
def test_every_command_gives_what_the_built_page_says(results, built_docs):
    # The build ran every command and checked it (docs/conf.py: results.write, which raises
    # results.Mismatch on any drift and fails the build): the page it built is read here, not
    # made a second time.
    built = (built_docs / "results.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]*>", "", built))
    for figure in results.FIGURES:
        assert f"$ {figure.command}" in text and f"<strong>{html.escape(figure.published)}</strong>" in built
    # The figure not reproduced is said to be so, with the rule sets tried.
    assert "<strong>Not reproduced.</strong>" in built and text.count("4217948047/78364164096") == 4
    assert "Strategies" in text and "sixteen-row match table" in text
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
    _each_refused(results, "TARGETS", lines, wrong.values(), results._score_to_beat, tmp_path, monkeypatch)


def _each_refused(results, table, lines, changes, section, tmp_path, monkeypatch):
    """Each of ``changes`` (a function of a row) made to the kept table ``table`` (its name in
    docs/results.py, read as ``lines``) makes ``section`` of the page refuse it."""
    for change in changes:
        changed = tmp_path / "changed.csv"
        changed.write_text("\n".join(map(change, lines)) + "\n", encoding="utf-8")
        monkeypatch.setattr(results, table, changed)
        with pytest.raises(results.Mismatch):
            section()


def test_the_second_player_s_chance_is_bracketed_from_the_checked_tables(results, tmp_path, monkeypatch):
    # Against a first total t, the second player's best chance (ties counted half) is at
    # least the best chance of at least t + 1 and at most the mean of those of t and t + 1:
    # worked here from the two tables on their own, the bracket must hold the published 55.3%.
    totals = {int(line.split(",")[0]): float(line.split(",")[1]) for line in
              results.DISTRIBUTION.read_text(encoding="utf-8").splitlines()[1:]}
    best = {int(line.split(",")[0]): float(line.split(",")[1]) for line in
            results.TARGETS.read_text(encoding="utf-8").splitlines()[1:]}
    low = sum(p * best.get(t + 1, 0.0) for t, p in totals.items())
    high = sum(p * (best.get(t, 0.0) + best.get(t + 1, 0.0)) / 2 for t, p in totals.items())
    assert low <= 0.553 <= high + 0.0005
    page = "\n".join(results._second_player())
    assert f"from {low:.2%} to {high:.2%}" in page and "**55.3%**" in page
    # A table of the first player's totals that moved, or that disagrees with the best-mean
    # column of the totals' table, is refused.
    lines = results.DISTRIBUTION.read_text(encoding="utf-8").splitlines()
    chance = dict(line.split(",") for line in lines[1:])
    wrong = {
        "not summing to 1": lambda row: "250,0.5" if row.startswith("250,") else row,
        "every total one more": lambda row: row if row.startswith("points") else
        f"{int(row.split(',')[0]) + 1},{row.split(',')[1]}",
        "two totals swapped, the mean as published": lambda row:
        f"250,{chance['251']}" if row.startswith("250,") else
        f"251,{chance['250']}" if row.startswith("251,") else row,
    }
    _each_refused(results, "DISTRIBUTION", lines, wrong.values(), results._second_player, tmp_path,
                  monkeypatch)


def test_the_table_of_yahtzee_s_totals_is_checked(results, tmp_path, monkeypatch):
    # Whole Yahtzee's every total takes minutes of CPU: the page reads the table it wrote
    # (docs/_static/yahtzee-targets.csv) and checks it as Yatzy's, that it runs to 1,575
    # (13 Yahtzees), and that best-mean play's chances add up to the best mean of the
    # independent solver (benchmarks/yahtzee_reference.py: 254.587729, forced joker).
    page = "\n".join(results._yahtzee())
    assert "**254.5877**, the best mean" in page and "_static/yahtzee-targets.png" in page
    lines = results.YAHTZEE_TARGETS.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "at_least,chance,chance_best_mean" and len(lines) == 1 + 1576
    chance = {int(row.split(",")[0]): row.split(",") for row in lines[1:]}
    wrong = {
        # best-mean play's chance of at least 100 a hundredth less: its mean 0.01 less,
        # the table otherwise as it must be (never above the best chance, never rising)
        "mean moved": lambda row: f"100,{chance[100][1]},{float(chance[100][2]) - 0.01}"
        if row.startswith("100,") else row,
        "rising": lambda row: f"300,0.99,{chance[300][2]}" if row.startswith("300,") else row,
        "a total past 1,575": lambda row: f"{row}\n1576,0.0,0.0" if row.startswith("1575,") else row,
    }
    _each_refused(results, "YAHTZEE_TARGETS", lines, wrong.values(), results._yahtzee, tmp_path,
                  monkeypatch)


def test_the_kept_match_of_yahtzee_is_checked(results, tmp_path, monkeypatch):
    # Whole Yahtzee's match takes many CPU minutes: its output is kept
    # (docs/_static/yahtzee-match.txt) and shown; the three chances must sum to 1 and each
    # player's winnings be their chance of winning less the other's.
    printed = results.YAHTZEE_MATCH.read_text(encoding="utf-8")
    assert f"$ {results.YAHTZEE_MATCH_COMMAND}" in "\n".join(results._yahtzee())
    lines = printed.splitlines()
    tie = next(line for line in lines if line.startswith("a tie: "))
    wrong = {
        "a tie moved": lambda line: "a tie: 9.9999%" if line == tie else line,
        "the winnings' sign": lambda line: line.replace("player 1: -", "player 1: +")
        .replace("player 2: +", "player 2: -"),
        "a chance left out": lambda line: "" if line == tie else line,
    }
    _each_refused(results, "YAHTZEE_MATCH", lines, wrong.values(), results._yahtzee, tmp_path,
                  monkeypatch)
