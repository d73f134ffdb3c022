"""mdp report without a browser: what the page holds (tests/outputs/test_report_browser.py drives
its explorer in Chromium)."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from pathlib import Path

import brute_shutbox
import models
import numpy as np
import pytest
from edited import edited
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.limits import REPORT_MAX_ROWS
from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


def unpacked(packed: dict) -> np.ndarray:
    """An array the page carries as little-endian bytes in base64, read as its script does."""
    import base64

    dtype = {"Uint8": "<u1", "Uint16": "<u2", "Int32": "<i4", "Float64": "<f8"}[packed["type"]]
    return np.frombuffer(base64.b64decode(packed["data"]), dtype=dtype)


def embedded(page: str) -> dict:
    text = re.search(r'<script type="application/json" id="mdp-data">(.*?)</script>', page, re.S)[1]
    return json.loads(text)


def ranked(data: dict, state: int) -> list[tuple]:
    """The page's ranking, written again here: a state's actions by regret, ties in order."""
    explorer = data["explorer"]
    ids = range(explorer["actionStart"][state], explorer["actionStart"][state + 1])
    ordered = sorted(ids, key=lambda a: explorer["regret"][a])
    return [(tuple(c["values"][c["codes"][a]] for c in explorer["actionColumns"]),
             explorer["value"][a], explorer["regret"][a], bool(explorer["optimal"][a])) for a in ordered]


def test_the_standard_box_page_states_the_exact_value_found_by_the_brute_force():
    game = mdp.load_game("shutbox")
    page = mdp.report(mdp.solve(mdp.compile(game)), game)
    value = brute_shutbox.solve(tuple(range(1, 10)))  # independent solver, exact
    assert value == Fraction(956177159, 9795520512)
    assert f"= {value.numerator}/{value.denominator}" in page
    assert f"{float(value):.4%}" in page  # as mdp solve prints it: 9.7614%
    assert "6,184 (1,613 where the game is over); 7,675 actions" in page
    for strategy in mdp.strategies(game):  # each named strategy is listed beside the optimum
        assert f"<th scope=row>{strategy}<" in page


@pytest.mark.slow
def test_the_embedded_policy_ranks_every_state_as_mdp_advise_does():
    # The fiddler box (tiles 1-6, one die): every state, terminal ones included.
    game = mdp.load_game("shutbox", variant="fiddler")
    solution = mdp.solve(mdp.compile(game))
    data = embedded(mdp.report(solution, game))
    explorer = data["explorer"]
    assert [c["name"] for c in explorer["columns"]] == ["open", "roll"]
    assert explorer["controls"][0]["kind"] == "toggles"  # the game's own widget
    assert explorer["controls"][0]["items"] == ["1", "2", "3", "4", "5", "6"]
    for state in range(explorer["states"]):
        named = {c["name"]: c["values"][c["codes"][state]] for c in explorer["columns"]}
        advice = mdp.advise(solution, game, **{k: v for k, v in named.items() if v is not None})
        names = [c for c in advice.actions.columns if c not in ("value", "regret", "optimal")]
        expected = [(tuple(str(r[c]) for c in names), r["value"], r["regret"], r["optimal"])
                    for r in advice.actions.iter_rows(named=True)]
        got = [(tuple(v for v in cells if v is not None), *rest) for cells, *rest in ranked(data, state)]
        assert got == expected, named


def test_a_game_without_widgets_gets_one_select_per_state_column():
    game = mdp.load_game(models.coin())
    data = embedded(mdp.report(mdp.solve(mdp.compile(game)), game))
    (column,) = data["explorer"]["columns"]
    assert column["name"] == "state"
    assert data["explorer"]["controls"] == [{"column": "state", "kind": "select", "label": "state"}]
    start = data["explorer"]["initial"]
    # Hand: betting on the fair coin is worth 1/2, walking away 1/3 (regret 1/6).
    assert ranked(data, start) == [(("bet",), 0.5, 0.0, True), (("walk",), 1 / 3, 0.5 - 1 / 3, False)]


class BadControls(models.Table):
    def __init__(self, controls):
        super().__init__(models.coin().transitions, models.coin().values)
        self.controls = controls

    @mdp.hookimpl
    def mdp_report_controls(self):
        return self.controls


@pytest.mark.parametrize("controls, message", [
    ([{"column": "nope", "kind": "select"}], "column must be one of the state columns state"),
    ([{"column": "state", "kind": "dial"}], "kind must be one of select, toggles, multiset, derived"),
    ([{"column": "state", "kind": "toggles", "items": [1, 2]}], "a toggles control needs items"),
    ([{"column": "state", "kind": "multiset", "items": ["1", "2"]}], "a multiset needs most, the "
     "most items picked, a whole number of 1 to 1,000"),
    ("state", "not a list"),
])
def test_a_broken_control_is_one_error_naming_the_game(controls, message):
    game = mdp.load_game(BadControls(controls))
    with pytest.raises(mdp.ModelError, match=message):
        mdp.report(mdp.solve(mdp.compile(game)), game)


def test_a_policy_beyond_the_row_limit_gives_a_page_without_the_explorer_and_says_so():
    game = mdp.load_game("shutbox")
    page = mdp.report(mdp.solve(mdp.compile(game)), game, max_rows=7_674)  # one row short
    assert embedded(page)["explorer"] is None
    assert "no explorer: its 7,675 rows are more than the 7,674 a page carries (--max-rows)" in page
    assert 'id="controls"' not in page
    assert 'href="#explorer-h"' not in page  # no link to an explorer that is not there
    assert REPORT_MAX_ROWS == 250_000  # as docs/report.rst says


def test_the_page_needs_no_network(tmp_path):
    out = tmp_path / "box.html"
    assert main(["report", "games/shutbox", "--set", "tiles=1-6", "--out", str(out)]) in (0, None)
    page = out.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    assert len(re.findall(r"<script", page)) == 2 and "<script src" not in page


def test_mdp_report_writes_the_page_and_says_how_big(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", "games/shutbox", "--variant", "fiddler", "-o", str(out)]) in (0, None)
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert "with an explorer of" in capsys.readouterr().err


def test_a_bad_target_is_refused_before_any_work_and_nothing_is_written(tmp_path, capsys):
    # The target is checked first: even a game that does not exist is not looked at.
    code = main(["report", "no-such-game", "--out", str(tmp_path / "missing" / "r.html")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_a_strategy_solution_is_refused():
    game = mdp.load_game("shutbox", variant="fiddler")
    solution = mdp.evaluate(mdp.compile(game), "random", game=game)
    with pytest.raises(mdp.ParamError, match="optimal solution"):
        mdp.report(solution, game)


@pytest.mark.slow  # half a second or more of CPU
def test_mdp_advise_names_a_state_of_a_game_of_per_state_hooks():
    # Yahtzee describes its states one at a time: a state named alone has no action, and
    # the page's controls are built from those columns: the dice a face at a time, and the
    # commonest face's count left out (it follows from the dice rolled).
    game = mdp.load_game("yahtzee")
    solution = mdp.solve(mdp.compile(game))
    advice = mdp.advise(solution, game, rolls_left=3)
    assert advice.actions["value"][0] == float(solution.value)
    data = embedded(mdp.report(solution, game))
    assert [(c["column"], c["kind"]) for c in data["explorer"]["controls"]] == [
        ("rolls_left", "select"), ("kept", "multiset"), ("rolled", "multiset"),
        ("count", "derived")]


def test_a_game_of_rounds_gets_its_value_its_rounds_how_played_games_end_and_an_explorer(tmp_path, capsys):
    # Two boxes (docs/examples): 571/48 by hand, on the Writing a game page.
    out = tmp_path / "two.html"
    assert main(["report", TWO_BOXES, "--out", str(out)]) == 0
    # Its explorer: the 31 actions of the round, and 4 round states at a row per two.
    said = capsys.readouterr().err
    assert said == (f"{out}: {out.stat().st_size / 1e3:.3g} kB, 4 round states over 2 rounds, a "
                    "round of 25 states, with an explorer of 33 rows\n")
    page = out.read_text()
    assert "expected total: <strong>11.8958333333333</strong>" in page
    assert "2 rounds through 4 round states; a round of 25 states" in page
    assert "100,000 games played at random under optimal play (seed 0)" in page
    # Named in words that read (round 32, U32-04: "Chance of each points").
    assert '<title id="chart-t">Chance by points (bars) and cumulative chance (line)</title>' in page
    # A bar per total from the least to the greatest, each named, 1 to 18 (none at 2 or 4).
    bars = re.findall(r'<rect class="bar"[^>]*><title>points (\d+): +([\d.]+)%', page)
    assert [int(p) for p, _ in bars] == list(range(1, 19))
    assert [float(s) for p, s in bars if p in ("2", "4")] == [0.0, 0.0]
    # Its table: shares of games played (not chances), and only totals a game reached (it
    # listed points 2 and 4 at 0.0000%, headed "probability").
    table = page[page.index("The outcomes as a table"):]
    table = table[:table.index("</table>")]
    assert "<th scope=col>share of games</th>" in table and "probability" not in table
    listed = [int(p) for p in re.findall(r"<tr><td>points (\d+)</td>", table)]
    assert listed == [int(p) for p, s in bars if float(s) > 0] and 2 not in listed and 4 not in listed
    # The round states carried, round by round, with their values: 571/48 at the start; after
    # one round, EVEN left is worth 6 and FACE left 17/4 (by hand, as above); then nothing.
    rounds = embedded(page)["explorer"]["rounds"]
    assert rounds["roundStart"] == [0, 1, 3, 4]
    assert unpacked(rounds["keys"]).tolist() == [0, 1, 2, 3]
    assert unpacked(rounds["values"]).tolist() == pytest.approx([571 / 48, 6, 17 / 4, 0], abs=1e-12)
    assert "var mdpRoundEnds = (function (filled, ends)" in page
    # Greedy play beside the best: 71/6 by hand (tests/analysis/test_rounds_strategies.py), 1/16 less.
    assert re.search(r"<th scope=row>greedy<span class=help>[^<]*</span></th><td>11.8333333333</td>"
                     r"<td>0.0625000000</td>", page)  # as mdp strategies shows them: ten decimals


@pytest.mark.parametrize("game", [TWO_BOXES, "shutbox"])
@pytest.mark.slow
def test_the_strategies_left_out_are_not_valued_and_the_page_says_so(game, tmp_path, monkeypatch):
    from mdp.program.cli import main

    def valued(*args, **kwargs):
        raise AssertionError("a strategy was valued")

    monkeypatch.setattr("mdp.outputs.report.strategy_values", valued)
    out = tmp_path / "page.html"
    argv = ["report", game, "--out", str(out), "--no-strategies"] + (["-s", "tiles=1-4"] if game == "shutbox" else [])
    assert main(argv) == 0
    page = out.read_text()
    assert "<th scope=row>greedy" not in page and "<th scope=col>regret" not in page
    loaded = game if game == TWO_BOXES else "shutbox --set tiles=1-4"  # as it was loaded
    assert re.search(r'id="no-strategies">The named strategies were left out of this page. Ask '
                     rf"<code>mdp strategies {re.escape(loaded)}</code>", page), page[-3000:]


def test_a_game_of_rounds_without_a_script_of_its_ends_has_no_explorer_and_says_why(tmp_path, capsys):
    source = Path(TWO_BOXES).read_text()
    path = edited(source, "two_boxes_unscripted", tmp_path, hook="mdp_round_ends_script",
                  replace="def mdp_round_ends_script():\n    return None\n")
    out = tmp_path / "two.html"
    assert main(["report", path, "--out", str(out)]) == 0
    why = ("the game gives no script of the ends of a round (mdp_round_ends_script), which the "
           "page needs to tell what they are worth")
    assert capsys.readouterr().err.endswith(f"a round of 25 states, WITHOUT the explorer: {why}\n")
    page = out.read_text()
    assert f'id="no-explorer">This page has no explorer: {why}. Ask' in page
    assert f"mdp advise {path} COLUMN=VALUE" in page  # the game by its path, as it was loaded
    assert embedded(page)["explorer"] is None


def test_the_facts_count_in_words_and_give_a_fraction_only_where_one_is():
    # A chain of forced steps: one action a state, every state worth 7 (tests/models.py).
    from models import chain

    for length in (1, 2):
        game = mdp.load_game(chain(length))
        page = mdp.report(mdp.solve(mdp.compile(game)), game)
        actions = f"{length} action{'s' * (length != 1)}"
        assert f"where the game is over); {actions}</dd>" in page
        assert "<dd>7</dd>" in page and "7/1" not in page


KEYS = {"select": {"hint", "none"}, "toggles": {"hint", "items", "separator", "strike"},
        "multiset": {"hint", "items", "most", "none", "separator"}, "derived": set()}
CONTROL = st.fixed_dictionaries({"column": st.just("state"),
                                 "kind": st.sampled_from(["select", "toggles", "multiset", "derived"])},
                                optional={"label": st.sampled_from(["", "L", 5]),
                                          "hint": st.sampled_from(["", "h"]),
                                          "none": st.sampled_from(["", "n"]),
                                          "items": st.sampled_from([["a", "b"], "ab", [1]]),
                                          "separator": st.sampled_from(["", " ", ","]),
                                          "strike": st.sampled_from(["on", "off", "sideways"]),
                                          "most": st.sampled_from([0, 1, 1000, 1001, 10**30]),
                                          "colour": st.just("red"), "seperator": st.just(",")})


def _fine(control):
    """Whether a control is one the docs of mdp_report_controls allow, read here anew."""
    kind = control["kind"]
    if set(control) - {"column", "kind", "label"} - KEYS[kind]:
        return False  # a key a control of its kind has not: a typo would be dropped silently
    if kind in ("toggles", "multiset") and control.get("items") != ["a", "b"]:
        return False
    if kind == "multiset" and control.get("most") not in (1, 1000):
        return False
    if kind == "toggles":  # the states' texts ("walked", ...) are made of no items a and b
        return False
    return control.get("label", "L") != "" and control.get("label", "L") != 5 and \
        control.get("separator", " ") != "" and control.get("strike", "on") != "sideways"


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.lists(CONTROL, max_size=2))
def test_a_control_is_drawn_as_given_or_refused_naming_the_game(controls):
    """Typos and contradictions in the controls were drawn silently: an unknown key (a
    misspelt "separator" dropped), two controls of one column, every column derived (no
    way to name a state), strike "sideways", an empty separator, an int label, most past
    what a page draws."""
    game = mdp.load_game(BadControls(controls))
    solution = mdp.solve(mdp.compile(game))
    if all(_fine(c) for c in controls) and len(controls) < 2 and \
            not (controls and controls[0]["kind"] == "derived"):
        drawn = embedded(mdp.report(solution, game))["explorer"]["controls"]
        assert drawn == [{"label": "state", **controls[0]} if controls else
                         {"column": "state", "kind": "select", "label": "state"}]
    else:
        with pytest.raises(mdp.ModelError, match="^game table: mdp_report_controls (gave|makes every)"):
            mdp.report(solution, game)


def test_the_line_that_says_the_page_is_written_escapes_its_name(tmp_path, capsys, monkeypatch):
    # Before: the name was printed raw, an escape code or a line break in it acting on the
    # terminal, where every other command's line escapes it (R19-N7).
    monkeypatch.chdir(tmp_path)
    name = "r\x1b[31m\nx.html"
    assert main(["report", "shutbox", "--set", "tiles=1-3", "--out", name]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and err.startswith("r\\x1b[31m\\nx.html: ")


@pytest.mark.parametrize("values", [{0: 0.3, 1: 0.5}, {0: 0.25, 1: Fraction(1, 2)}])
def test_a_game_of_float_values_has_its_page_in_floats(values):
    """Round 25: ``mdp report`` of any game of one model with a float among its values was
    refused, "exact solving needs rational numbers", where no exact solve was asked for."""
    game = mdp.load_game(models.Table({"start": {"go": [(Fraction(1, 2), 0), (Fraction(1, 2), 1)]}}, values))
    page = mdp.report(mdp.solve(mdp.compile(game)), game)
    worth = (float(values[0]) + float(values[1])) / 2  # by hand: half of each
    assert f"{worth:.15g}" in page


def test_the_chart_of_how_the_game_ends_is_along_the_outcome_column_that_differs():
    """Round 26: the chart of Pig, whose every end is worth 1, had two bars both named 1 on an
    axis named value (who won told by the hover titles alone); along the first outcome column
    that differs, as --plot draws it, they are the first and the second player's wins."""
    game = mdp.load_game("pig", goal=10)
    page = mdp.report(mdp.solve(mdp.compile(game)), game)
    chart = re.search(r'<svg class="chart".*?</svg>', page, re.S)[0]
    ticks = re.findall(r'<text class="tick"[^>]*text-anchor="middle">([^<]*)</text>', chart)
    assert ticks == ["first", "second"]
    assert re.search(r'<text class="label"[^>]*>player</text>', chart)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["shutbox", "--set", "tiles=1-4"], [TWO_BOXES]])
@pytest.mark.parametrize("aim", [[], ["--minimize"]])
def test_the_page_names_the_play_and_aim_as_the_value_line_does(tmp_path, capsys, argv, aim):
    """Round 28: under --minimize the page's first line and "Value under optimal play" read
    as the best play's, where mdp solve says (minimized)."""
    assert main(["solve", *argv, *aim]) == 0
    named = capsys.readouterr().out.splitlines()[1].rsplit(": ", 1)[0]
    assert main(["report", *argv, *aim, "--out", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert f'<p class="value" id="value">{html.escape(named)}: ' in page
    play = "the play of the least value (minimized)" if aim else "optimal play"
    assert f"<dt>Value under {play}</dt>" in page and (aim == []) == ("minimized" not in page)
