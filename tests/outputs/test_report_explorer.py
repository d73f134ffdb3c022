"""The explorer of ``mdp report``'s page as a player meets it: entering the dice rolled gives
advice at once (the other controls follow the dice), and a game's JavaScript copy of its
round rule (mdp_round_ends_script) is checked against mdp_round_ends: refused when the page
is made where a JavaScript engine is installed, flagged by the page when it opens."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from browser import ARTEFACTS, console, skip_unless_available
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
SMALL_CARD = ["--set", "card=yahtzee", "--set", "boxes=ones,full-house,yahtzee"]
NO_JOKER = '''
"""Yahtzee's script of round ends with the joker rule taken out: a wrong copy."""
import mdp
from mdp_games import yahtzee


@mdp.hookimpl
def mdp_round_ends_script(params):
    script = yahtzee.mdp_round_ends_script(params)
    assert "if (C.joker && C.five >= 0 && face > 0) {" in script
    return script.replace("if (C.joker && C.five >= 0 && face > 0) {", "if (false) {")
'''
browser_needed = skip_unless_available({"selenium": "test"})
engine_needed = pytest.mark.skipif(importlib.util.find_spec("py_mini_racer") is None,
                                   reason="mini-racer is not installed (pip install -e '.[test]')")


def _no_javascript_engine(monkeypatch):
    """As where mini-racer is not installed: the page is made unchecked."""
    monkeypatch.setitem(sys.modules, "py_mini_racer", None)


def _controls(driver) -> dict[str, int]:
    specs = driver.execute_script(
        "return JSON.parse(document.getElementById('mdp-data').textContent).explorer.controls")
    return {spec["column"]: i for i, spec in enumerate(specs)}


def _press(driver, control: int, text: str) -> None:
    from selenium.webdriver.common.by import By

    (button,) = [b for b in driver.find_elements(By.CSS_SELECTOR, f"#control-{control} button")
                 if b.text == text]
    button.click()


def _advice(driver) -> dict:
    return driver.execute_script("""
        var rows = document.querySelectorAll('#actions tbody tr');
        function text(id) { var e = document.getElementById(id); return e ? e.textContent : null; }
        return {best: text('best'), missing: text('no-state'), fault: text('script-fault'),
                rows: Array.prototype.map.call(rows, function (tr) {
                  return [Array.prototype.map.call(tr.querySelectorAll('td.action'),
                                                   function (td) { return td.textContent; }),
                          Number(tr.dataset.value)]; })};""")


def _selected(driver, control: int) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    return Select(driver.find_element(By.ID, f"control-{control}")).first_selected_option.text


def _screenshot(driver, name: str) -> None:
    """The explorer, scrolled to, in tests/artefacts/ (git-ignored)."""
    driver.execute_script("document.getElementById('explorer-h').scrollIntoView()")
    ARTEFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTEFACTS / f"{name}.png"))


@pytest.mark.slow
@browser_needed
@pytest.mark.parametrize("card", [False, True], ids=["one-turn", "small-card"])
def test_entering_the_dice_rolled_gives_the_advice_at_once(browser, request, tmp_path, card):
    # The page opens at the start of a turn (3 rolls left, no die kept). Entering a hand rolled
    # names the state after the first roll: the advice must follow the fifth die, with the
    # rolls left and the dice kept set to that state, not "No reachable state" until they
    # are set by hand. The advice is mdp.advise's for that state. One turn's page is the
    # one mdp report yahtzee writes once a session (tests/conftest.py).
    if card:
        out = tmp_path / "yahtzee.html"
        assert main(["report", "yahtzee", *SMALL_CARD, "--out", str(out)]) == 0
    else:
        out = request.getfixturevalue("yahtzee_turn_page")[0]
    browser.set_window_size(1000, 1400)
    browser.get(out.as_uri())
    controls = _controls(browser)
    assert _advice(browser)["best"]  # the start of the turn
    for face in "1 1 3 5 6".split():
        _press(browser, controls["rolled"], f"+{face}")
    shown = _advice(browser)
    assert shown["missing"] is None and shown["best"], shown
    assert _selected(browser, controls["rolls_left"]) == "2"
    if card:
        game = mdp.load_game("yahtzee", card="yahtzee", boxes="ones,full-house,yahtzee")
        solution = mdp.solve(mdp.compile(game))
    else:
        _, game, solution = request.getfixturevalue("yahtzee_turn_page")
    named = {"rolls_left": 2, "rolled": "1 1 3 5 6", **({"filled": "", "upper": 0, "holds_50": False} if card else {})}
    expected = mdp.advise(solution, game, **named).actions
    assert [value for _, value in shown["rows"]] == pytest.approx(expected["value"].to_list(), rel=1e-12)
    if not card:  # the one-turn page's numbers are mdp's own, to the last bit
        assert [value for _, value in shown["rows"]] == expected["value"].to_list()
        _screenshot(browser, "report-dice-entered")
    # A die taken away leaves no full hand: no state, said so, and the controls stay as set.
    _press(browser, controls["rolled"], "6")
    assert "No reachable state" in _advice(browser)["missing"]
    assert _selected(browser, controls["rolls_left"]) == "2"


@pytest.mark.slow
@engine_needed
def test_a_wrong_script_of_round_ends_is_refused_when_the_page_is_made(tmp_path, capsys):
    # The joker rule taken out of Yahtzee's copy: the card with only the Yahtzee box filled
    # (round state 4: the third bit) lets a joker of ones go in full house, which the forced
    # joker forbids while ones is open.
    plugin = tmp_path / "no_joker_made.py"
    plugin.write_text(NO_JOKER)
    out = tmp_path / "bad.html"
    assert main(["report", "yahtzee", *SMALL_CARD, "-p", str(plugin), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"mdp: error: game yahtzee: plugin {plugin}'s mdp_round_ends_script disagrees with "
                   "mdp_round_rule at round state 4 (filled=yahtzee upper=0 holds_50=False), end "
                   "('full-house', 0, 1): "
                   'it gives the next round state 6 (filled="full-house yahtzee" upper=0 holds_50=False) '
                   "and 0 points, mdp_round_rule -1 and 0\n")
    assert not out.exists()


@engine_needed
@pytest.mark.parametrize(("script", "says"), [
    ("function (key, ends) { return {next: ends.map(function () { return -1; }), "
     "points: ends.map(function () { return 0; })}; }", "disagrees with mdp_round_rule at round state 0"),
    ("function (key, ends) { return nothing; }", "ReferenceError: nothing is not defined"),
    ("function (key, ends) {", "mdp_round_ends_script does not run: "),
])
def test_a_script_that_disagrees_or_does_not_run_is_refused(tmp_path, capsys, script, says):
    plugin = tmp_path / f"wrong_{len(script)}.py"  # a module name of its own
    plugin.write_text(f"import mdp\n\n\n@mdp.hookimpl\ndef mdp_round_ends_script():\n    return {script!r}\n")
    out = tmp_path / "two.html"
    code = main(["report", str(ROOT / "docs" / "examples" / "two_boxes.py"), "-p", str(plugin),
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and says in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"mdp: error: game two-boxes: plugin {plugin}'s mdp_round_ends_script "), err
    assert not out.exists()


@pytest.mark.slow
@browser_needed
def test_a_wrong_script_of_round_ends_is_flagged_when_the_page_opens(browser, tmp_path, monkeypatch):
    # Made where no JavaScript engine is installed, the page with the copy that lacks the
    # joker rule is written; it checks itself when it opens and gives no advice.
    _no_javascript_engine(monkeypatch)
    plugin = tmp_path / "no_joker_opened.py"
    plugin.write_text(NO_JOKER)
    bad, good = tmp_path / "bad.html", tmp_path / "good.html"
    assert main(["report", "yahtzee", *SMALL_CARD, "-p", str(plugin), "--out", str(bad)]) == 0
    assert main(["report", "yahtzee", *SMALL_CARD, "--out", str(good)]) == 0
    browser.set_window_size(1000, 1400)
    console(browser)  # (what pages before wrote, left out)
    browser.get(bad.as_uri())
    shown = _advice(browser)
    # Once in a whole suite's run the page showed neither advice nor the fault: its console
    # is in the message, to tell why.
    assert shown["best"] is None and shown["rows"] == [], (shown, console(browser))
    assert shown["fault"] == (
        "The game's script of round ends (mdp_round_ends_script) disagrees with its mdp_round_ends at "
        "round state 4 (filled yahtzee, upper 0, holds_50 false): it gives end [\"full-house\",0,1] "
        "the next round state 6 and 0 points, where mdp_round_rule gives -1 and 0. The explorer "
        "gives no advice from it."), (shown, console(browser), browser.find_element(
            "id", "advice").get_attribute("outerHTML")[:2000])
    _screenshot(browser, "report-script-fault")
    browser.get(good.as_uri())
    shown = _advice(browser)
    assert shown["fault"] is None and shown["best"]


@engine_needed
@pytest.mark.slow
def test_a_script_that_never_ends_is_stopped_with_one_line(tmp_path):
    """Stopped after SCRIPT_SECONDS (here made 1 s): the line and nothing else (V8's late
    answer, after its engine was closed, printed a 12-line "Exception ignored ... Event loop is
    closed" above it)."""
    import subprocess

    plugin = tmp_path / "endless.py"
    plugin.write_text("import mdp\n\n\n@mdp.hookimpl\ndef mdp_round_ends_script():\n"
                      "    return 'function (k, ends) { while (true) {} }'\n")
    run = subprocess.run([sys.executable, "-c", "import sys; from mdp.outputs import explorer; "
                          "explorer.SCRIPT_SECONDS = 1; from mdp.program import main; sys.exit(main())", "report", str(ROOT / "docs" / "examples" / "two_boxes.py"),
                          "-p", str(plugin), "--out", str(tmp_path / "two.html")],
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (2, f"mdp: error: game two-boxes: plugin {plugin}'s "
                                            "mdp_round_ends_script does not run: JavaScript was "
                                            "terminated by timeout\n")


def test_v8_s_late_answers_alone_are_left_unsaid(monkeypatch):
    from types import SimpleNamespace

    from mdp.outputs.explorer import _quiet_late_callbacks

    said = []
    monkeypatch.setattr(sys, "unraisablehook", said.append)
    _quiet_late_callbacks()
    _quiet_late_callbacks()  # once is enough: not a hook around a hook
    late = SimpleNamespace(object=SimpleNamespace(__module__="py_mini_racer._mini_racer"))
    other = SimpleNamespace(object=SimpleNamespace(__module__="a_plugin"))
    sys.unraisablehook(late)
    sys.unraisablehook(other)
    assert said == [other]


POINTS = ['"1"', "NaN", "Infinity", "undefined", "[1]", "true", "-1", "new Number(1)"]


@pytest.mark.slow
@engine_needed
@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(POINTS))
def test_a_script_s_wrong_points_are_shown_as_javascript_gives_them(tmp_path, capsys, points):
    """Points the script gives as the string "1" were shown as 1 beside the rule's 1 (the
    line said they differ and showed them equal), NaN as None."""
    plugin = tmp_path / f"points_{POINTS.index(points)}.py"  # a module name of its own
    script = ("function (k, ends) { return {next: ends.map(function (e, i) { return i % 2 ? 1 : 1; }), "
              f"points: ends.map(function () {{ return {points}; }})}}; }}")
    plugin.write_text(f"import mdp\n\n\n@mdp.hookimpl\ndef mdp_round_ends_script():\n    return {script!r}\n")
    code = main(["report", str(ROOT / "docs" / "examples" / "two_boxes.py"), "-p", str(plugin),
                 "--out", str(tmp_path / "two.html")])
    err = capsys.readouterr().err
    shown = {'"1"': '"1"', "[1]": "[1]", "true": "true", "-1": "-1",
             "new Number(1)": "1 (a Number object, not a number)"}.get(
        points, "null (NaN, Infinity or undefined)")
    assert code == 2 and (f"it gives the next round state 1 (filled=FACE) and {shown} points, "
                          "mdp_round_rule 1 and 1") in err, err
