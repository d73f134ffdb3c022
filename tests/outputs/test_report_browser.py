"""The page of ``mdp report`` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, which .ci/run installs) driven by Selenium sets positions through the
page's own controls, and the advice the page shows must be what ``mdp.advise`` says for
those positions: the same actions in the same order, the same values and regrets to the
last bit, the same optimal marks. Screenshots go to tests/artefacts/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import ARTEFACTS, skip_unless_available

import mdp

pytestmark = [pytest.mark.browser, skip_unless_available({"selenium": "test"})]

READ_ADVICE = """
var rows = document.querySelectorAll('#actions tbody tr');
return {
  best: (document.getElementById('best') || {}).textContent || null,
  over: (document.getElementById('game-over') || {}).textContent || null,
  missing: (document.getElementById('no-state') || {}).textContent || null,
  rows: Array.prototype.map.call(rows, function (tr) {
    return {cells: Array.prototype.map.call(tr.querySelectorAll('td.action'), function (td) { return td.textContent; }),
            numbers: Array.prototype.map.call(tr.querySelectorAll('td.num'), function (td) { return td.textContent; }),
            value: tr.dataset.value, regret: tr.dataset.regret, optimal: tr.dataset.optimal};
  }),
  resources: performance.getEntriesByType('resource').length
};
"""


def page(tmp_path, variant: str | None):
    """The report written by the command, its game and its (float) solution."""
    out = tmp_path / f"report-{variant or 'standard'}.html"
    args = ["report", "games/shutbox", "--out", str(out)] + (["--variant", variant] if variant else [])
    from mdp.program.cli import main

    cwd = os.getcwd()
    os.chdir(Path(__file__).resolve().parents[2])
    try:
        assert main(args) in (0, None)
    finally:
        os.chdir(cwd)
    game = mdp.load_game("shutbox", variant=variant)
    return out, game, mdp.solve(mdp.compile(game))


def set_position(driver, open_tiles: str, roll: int | None, keyboard: bool = False) -> None:
    """Press the tile buttons whose state is wrong (or focus them and press space), pick the roll."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    wanted = set(open_tiles.split())
    for button in driver.find_elements(By.CSS_SELECTOR, "#control-0 button"):
        on = button.get_attribute("aria-pressed") == "true"
        if on != (button.get_attribute("data-item") in wanted):
            button.send_keys(Keys.SPACE) if keyboard else button.click()
    roll_list = Select(driver.find_element(By.ID, "control-1"))
    if roll is None:
        roll_list.select_by_index(0)  # the first option: not rolled yet
    else:
        roll_list.select_by_visible_text(str(roll))


def read_advice(driver) -> dict:
    """What the page shows, once it shows something: a page of millions of numbers may be
    read while the browser is still busy (a loaded machine), so it is asked again for up to
    five seconds before an empty advice counts."""
    import time

    for _ in range(50):
        shown = driver.execute_script(READ_ADVICE)
        if shown["rows"] or shown["over"] or shown["missing"]:
            break
        time.sleep(0.1)
    return shown


def check_advice(driver, solution, game, open_tiles: str, roll: int | None) -> dict:
    shown = read_advice(driver)
    assert shown["resources"] == 0  # nothing was fetched: the page holds everything
    columns = {"open": open_tiles} if roll is None else {"open": open_tiles, "roll": roll}
    try:
        advice = mdp.advise(solution, game, **columns)
    except mdp.ParamError:
        assert shown["missing"] and "No reachable state" in shown["missing"], shown
        return shown
    expected = advice.actions
    if expected.height == 0:
        assert shown["over"] and "game is over" in shown["over"], shown
        return shown
    action_names = [c for c in expected.columns if c not in ("value", "regret", "optimal")]
    assert len(shown["rows"]) == expected.height
    for got, row in zip(shown["rows"], expected.iter_rows(named=True)):
        assert got["cells"] == [str(row[c]) for c in action_names]
        assert float(got["value"]) == row["value"]  # the same float, to the last bit
        assert float(got["regret"]) == row["regret"]
        assert (got["optimal"] == "true") == row["optimal"]
        assert got["numbers"] == [f"{row['value']:.10f}", f"{row['regret']:.10f}"]  # as the CLI prints
    best = expected.row(0, named=True)
    assert shown["best"].startswith("Best: " + ", ".join(f"{c} {best[c]}" for c in action_names))
    return shown


def screenshot(driver, name: str, width: int) -> Path:
    """The whole page at this width (the window made as tall as the page)."""
    driver.set_window_size(width, 800)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height + 100, 6000))
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    return path


# Positions of the standard box: the example (1 2 3 5 8, rolled 9), the start before
# and after a roll, a choice of dice, a roll no tiles add up to (the game is over), and a
# position no game reaches (a roll of 1 while 7 is open: one die only once all are 6 or less).
STANDARD = [("1 2 3 4 5 6 7 8 9", None), ("1 2 3 5 8", 9), ("1 2 3 4 5 6 7 8 9", 12),
            ("1 2 3 4 5 6", None), ("1 2 3", 3), ("4 5", 2), ("7 8 9", 1), ("", None)]
TWELVE = [("1 2 3 4 5 6 7 8 9 10 11 12", 12), ("1 2 3 4 5 6 7 8 9 10 11 12", 7),
          ("3 4 10 12", 7), ("1 2 11 12", None), ("1 2 3 4 5 6 7 8 9 10 11 12", 2)]


@pytest.mark.parametrize("variant, positions", [
    pytest.param(None, STANDARD, marks=pytest.mark.slow),  # about 5 s of a browser
    pytest.param("twelve-box", TWELVE, marks=pytest.mark.slow)],  # a page of 3 MB
    ids=["standard", "twelve-box"])
def test_the_page_advises_as_mdp_advise_does(browser, tmp_path, variant, positions):
    out, game, solution = page(tmp_path, variant)
    browser.set_window_size(1000, 1200)
    browser.get(out.as_uri())
    name = variant or "standard"
    # The page opens on the initial state, before the roll.
    check_advice(browser, solution, game, " ".join(str(t) for t in game.params["tiles"]), None)
    for i, (open_tiles, roll) in enumerate(positions):
        set_position(browser, open_tiles, roll, keyboard=i % 2 == 1)
        check_advice(browser, solution, game, open_tiles, roll)
    set_position(browser, *positions[1])
    screenshot(browser, f"report-{name}", 1000)
    screenshot(browser, f"report-{name}-phone", 400)
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "theme").click()
    screenshot(browser, f"report-{name}-dark", 1000)
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"


def pick_dice(driver, control: str, dice: str | None) -> None:
    """Set a dice control: its "none" button for None, else clear it and add each die."""
    from selenium.webdriver.common.by import By

    buttons = driver.find_elements(By.CSS_SELECTOR, f"#{control} .adds button")
    by_text = {b.text: b for b in buttons}
    none = [b for b in buttons if b.get_attribute("aria-pressed") is not None][0]
    if dice is None:
        if none.get_attribute("aria-pressed") != "true":
            none.click()
        return
    by_text["clear"].click()
    for face in dice.split():
        by_text[f"+{face}"].click()


# Positions of one turn, set one after another on one load of the page (each control set
# from whatever the position before left): a hand with two rolls left (which dice to keep),
# four of a kind with one roll left, two ones kept before a roll, the start of the turn.
DICE = [("2", None, "1 1 3 5 6"), ("1", None, "2 2 2 2 3"), ("1", "1 1", None), ("3", "", None)]


@pytest.mark.slow
def test_yahtzee_dice_are_picked_by_face_and_the_advice_is_mdp_advise(browser, yahtzee_turn_page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    out, game, solution = yahtzee_turn_page
    browser.set_window_size(1000, 1400)
    browser.get(out.as_uri())
    for rolls_left, kept, rolled in DICE:
        Select(browser.find_element(By.CSS_SELECTOR, "#controls select")).select_by_visible_text(rolls_left)
        pick_dice(browser, "control-1", kept)
        pick_dice(browser, "control-2", rolled)
        shown = read_advice(browser)
        named = {"rolls_left": int(rolls_left), **({"kept": kept} if kept is not None else {}),
                 **({"rolled": rolled} if rolled is not None else {})}
        expected = mdp.advise(solution, game, **named).actions
        names = [c for c in expected.columns if c not in ("value", "regret", "optimal")]
        assert len(shown["rows"]) == expected.height > 0, (named, shown)
        for got, row in zip(shown["rows"], expected.iter_rows(named=True)):
            # As the page shows them: a column that does not apply as a dash, no dice as (none).
            assert got["cells"] == [{None: "—", "": "(none)"}.get(row[c], str(row[c])) for c in names]
            assert float(got["value"]) == row["value"] and float(got["regret"]) == row["regret"]
            assert (got["optimal"] == "true") == row["optimal"]
        if rolled == "1 1 3 5 6":
            screenshot(browser, "report-yahtzee-dice", 1000)


# A game of rounds: the page solves the round of the round state set, with the game's script of
# the ends of a round (mdp_round_ends_script), and must advise as mdp.advise does.

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
# The whole game on each card (tests/conftest.py): compiled once a session.
CARDS = ["yahtzee_full", "yahtzee_full_free_joker", "yahtzee_full_no_bonus", "yahtzee_yatzy"]


def compare_script(driver, script: str, keys, expected) -> list:
    """Run a game's script of round ends in the browser for every key; the rows where its next
    round states, or its points where an end is allowed, differ from ``expected``."""
    return driver.execute_script("""
        var f = eval("(" + arguments[0] + ")"), keys = arguments[1], ends = arguments[2];
        var next = arguments[3], points = arguments[4], wrong = [];
        keys.forEach(function (key, row) {
          var got = f(key, ends);
          for (var e = 0; e < ends.length; e++)
            if (got.next[e] !== next[row][e] || (next[row][e] >= 0 && got.points[e] !== points[row][e])) {
              wrong.push([key, ends[e], got.next[e], got.points[e], next[row][e], points[row][e]]);
              break;
            }
        });
        return wrong.slice(0, 5);
    """, script, keys.tolist(), expected["ends"], expected["next"], expected["points"])


@pytest.mark.slow  # Chromium: a process of its own, seconds of CPU to start
@pytest.mark.parametrize("whole", [None, *CARDS])
def test_a_games_script_of_round_ends_is_its_mdp_round_ends(browser, request, whole):
    import numpy as np

    from mdp.outputs.explorer import json_ready

    if whole is None:
        game = mdp.load_game(TWO_BOXES)
        model = mdp.compile(game)
    else:
        card = request.getfixturevalue(whole)
        game, model = card.game, card.model
    # Some hundreds of round states of every round at random (for a card: jokers, bonuses won
    # and out of reach among them), each round's asked of the game on its own.
    rng = np.random.default_rng(1)
    rounds = [np.sort(rng.choice(keys, min(300, len(keys)), replace=False)) for keys in model.keys]
    asked = [model.rule(keys) for keys in rounds]
    keys = np.concatenate(rounds)
    expected = {"ends": [json_ready(e) for e in model.round.states[:model.round.n_terminal]],
                "next": np.concatenate([a.next for a in asked]).tolist(),
                "points": np.concatenate([np.asarray(a.points, dtype=np.float64) for a in asked]).tolist()}
    browser.get("about:blank")
    assert compare_script(browser, game.call("mdp_round_ends_script"), keys, expected) == []
    assert min(map(min, expected["next"])) == -1 and max(map(max, expected["next"])) >= 0


def set_controls(driver, position: dict) -> None:
    """Set the explorer's controls by their columns: toggles pressed as listed, selects by
    their text, multisets (dice) with pick_dice."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    specs = driver.execute_script("return JSON.parse(document.getElementById('mdp-data').textContent)"
                                  ".explorer.controls")
    for i, spec in enumerate(specs):
        if spec["column"] not in position:
            continue
        value, control = position[spec["column"]], f"control-{i}"
        if spec["kind"] == "toggles":
            wanted = set(value.split())
            for button in driver.find_elements(By.CSS_SELECTOR, f"#{control} .toggles button"):
                if (button.get_attribute("aria-pressed") == "true") != (button.text in wanted):
                    button.click()
        elif spec["kind"] == "multiset":
            pick_dice(driver, control, value)
        else:
            shown = (str(value).lower() if isinstance(value, bool)  # as Polars writes them
                     else {None: "—", "": "(none)"}.get(value, str(value)))
            Select(driver.find_element(By.ID, control)).select_by_visible_text(shown)


def check_round_advice(driver, solution, game, position: dict) -> dict:
    """The advice shown is mdp.advise's: the same actions in the same order, with values and
    regrets to 1e-9 (the page sums a round's chances in an order of its own), the same
    optimal marks."""
    shown = read_advice(driver)
    assert shown["resources"] == 0
    named = {c: v for c, v in position.items() if v is not None}
    try:
        expected = mdp.advise(solution, game, **named).actions
    except mdp.ParamError:
        assert shown["missing"] and "No reachable" in shown["missing"], shown
        return shown
    if expected.height == 0:
        assert shown["over"] and "game is over" in shown["over"], shown
        return shown
    names = [c for c in expected.columns if c not in ("value", "regret", "optimal")]
    rows = {tuple({None: "—", "": "(none)"}.get(r[c], str(r[c])) for c in names): r
            for r in expected.iter_rows(named=True)}
    assert len(shown["rows"]) == expected.height, (shown, expected)
    for got in shown["rows"]:
        row = rows[tuple(got["cells"])]
        assert float(got["value"]) == pytest.approx(row["value"], rel=1e-12, abs=1e-9)
        assert float(got["regret"]) == pytest.approx(row["regret"], rel=1e-9, abs=1e-9)
        assert (got["optimal"] == "true") == row["optimal"]
    # In mdp.advise's order: best first, actions tied to 1e-12 in the game's order.
    assert [tuple(got["cells"]) for got in shown["rows"]] == list(rows)
    return shown


# By hand (docs/writing-a-game.rst): with FACE filled and a 4 thrown with a throw left, EVEN is
# worth 8 and another throw 4; the first round's throw is worth 571/48.
TWO_BOXES_POSITIONS = [
    {"filled": "", "throws_left": 2, "face": None},
    {"filled": "FACE", "throws_left": 1, "face": 4},
    {"filled": "", "throws_left": 0, "face": 3},
    {"filled": "EVEN", "throws_left": 0, "face": 5},
    {"filled": "FACE EVEN", "throws_left": 2, "face": None},   # no round left: the game is over
]


@pytest.mark.slow
def test_the_page_of_a_game_of_rounds_advises_as_mdp_advise_does(browser, tmp_path):
    from mdp.program.cli import main

    out = tmp_path / "two.html"
    assert main(["report", TWO_BOXES, "--out", str(out)]) == 0
    game = mdp.load_game(TWO_BOXES)
    solution = mdp.solve(mdp.compile(game))
    browser.set_window_size(1000, 1200)
    browser.get(out.as_uri())
    first = check_round_advice(browser, solution, game, TWO_BOXES_POSITIONS[0])
    assert first["best"] == "Best: action throw, points still to score 11.8958333333"  # 571/48
    # Its strategies: the best play, then greedy 71/6 (by hand in
    # tests/analysis/test_rounds_strategies.py), 1/16 below it.
    ways = browser.execute_script(
        "return [...document.querySelectorAll('#strategies-h ~ div tbody tr')].map(r => "
        "[r.querySelector('th').firstChild.textContent, ...[...r.querySelectorAll('td')]"
        ".map(d => d.textContent)])")
    assert ways == [["optimal", "11.8958333333", "0.0000000000"], ["greedy", "11.8333333333", "0.0625000000"]]
    for position in TWO_BOXES_POSITIONS[1:]:
        set_controls(browser, position)
        shown = check_round_advice(browser, solution, game, position)
        if position is TWO_BOXES_POSITIONS[1]:  # FACE filled: EVEN's 8 is what is still to come,
            # not the total (round 24: "expected total 8", though FACE's points were scored)
            assert shown["best"] == "Best: action EVEN, points still to score 8.0000000000"


# Whole games of Yahtzee: the start, a hand to keep from, a five of a kind with the Yahtzee box
# holding 50 and ones filled (a joker: under the forced rule a lower box only), a last box to
# fill, the bonus out of reach, and a card no game reaches (an upper total with no upper box filled).
YAHTZEE_POSITIONS = [
    {"filled": "", "upper": 0, "holds_50": False, "rolls_left": 2, "kept": None, "rolled": "1 1 3 5 6"},
    {"filled": "ones yahtzee", "upper": 3, "holds_50": True, "rolls_left": 0, "kept": None,
     "rolled": "1 1 1 1 1"},
    {"filled": "ones twos threes fours fives sixes three-of-a-kind four-of-a-kind full-house "
               "small-straight large-straight yahtzee", "upper": 63, "holds_50": False,
     "rolls_left": 1, "kept": None, "rolled": "2 3 4 6 6"},
    {"filled": "sixes", "upper": 0, "holds_50": False, "rolls_left": 1, "kept": "5 5", "rolled": None},
    {"filled": "", "upper": 12, "holds_50": False, "rolls_left": 3, "kept": "", "rolled": None},
]


@pytest.mark.slow
def test_the_page_of_whole_yahtzee_advises_as_mdp_advise_does(browser, tmp_path, yahtzee_full):
    # The page mdp report yahtzee --variant full --no-strategies writes (mdp.report of the
    # solution; the command itself is run on two boxes above, and the strategies' rows are
    # read from its page: valuing the two of the whole card would take three times as long
    # as the rest of this test), of the game solved once a session.
    game, solution = yahtzee_full.game, yahtzee_full.solution
    out = tmp_path / "yahtzee.html"
    out.write_bytes(mdp.report(solution, game, strategies=False).encode("utf-8"))
    browser.set_window_size(1000, 1600)
    browser.get(out.as_uri())
    check_round_advice(browser, solution, game, {"filled": "", "upper": 0, "holds_50": False,
                                                  "rolls_left": 3, "kept": "", "rolled": None})
    note = browser.find_element("id", "no-strategies").text
    assert "left out" in note and "mdp strategies yahtzee" in note
    for position in YAHTZEE_POSITIONS:
        set_controls(browser, position)
        check_round_advice(browser, solution, game, position)
        if position is YAHTZEE_POSITIONS[1]:
            screenshot(browser, "report-yahtzee-full", 1000)
            screenshot(browser, "report-yahtzee-full-phone", 400)
