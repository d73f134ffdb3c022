"""A game's script of round ends that changes JavaScript's own objects (JSON.stringify,
Object.prototype.toJSON) is one line naming the script, never a Python traceback (round 19,
F12: "TypeError: 'int' object is not subscriptable", "cannot reshape array", a
JSONDecodeError); mdp reads the script's answers with JSON.stringify as it was before the
script ran, and checks what comes back before it reads it."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
NUMBER = itertools.count()
GAME = '''import importlib.util

spec = importlib.util.spec_from_file_location("two_boxes_{n}", {example!r})
two_boxes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(two_boxes)
globals().update({{k: v for k, v in vars(two_boxes).items() if k.startswith(("mdp_", "GAME_"))}})
ORIGINAL = two_boxes.mdp_round_ends_script()


@two_boxes.mdp.hookimpl
def mdp_round_ends_script():
    return "(function () {{ " + {change!r} + "; return " + ORIGINAL + "; }})()"
'''
RETURNS = ["1", "null", "'x'", "[[1]]", "[[1], [2]]", "{}", "[1, 2]", "'[[1]]'"]
CHANGES = st.one_of(
    st.builds("Object.prototype.toJSON = function () {{ return {}; }}".format, st.sampled_from(RETURNS)),
    st.builds("Array.prototype.toJSON = function () {{ return {}; }}".format, st.sampled_from(RETURNS)),
    st.builds("JSON.stringify = function () {{ return {}; }}".format, st.sampled_from(RETURNS)),
    st.just("Number.prototype.toJSON = function () { return 'n'; }"),
    st.just("JSON.stringify = undefined"))


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("py_mini_racer") is None, reason="mini-racer is not installed")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(change=CHANGES)
def test_a_script_that_changes_javascript_s_objects_is_one_line(tmp_path_factory, capsys, change):
    where = tmp_path_factory.mktemp("script")
    n = next(NUMBER)
    game = where / f"changed{n}.py"
    game.write_text(GAME.format(n=n, example=str(ROOT / "docs" / "examples" / "two_boxes.py"), change=change))
    out = where / "page.html"
    code = main(["report", str(game), "--out", str(out)])
    err = capsys.readouterr().err
    if code == 0:  # the change never touched what mdp reads the answers with (a number's
        assert out.exists() and not change.startswith("Object"), err  # toJSON: never asked)
    else:
        assert code == 2 and err.count("\n") == 1 and not out.exists(), err
        assert err.startswith("mdp: error: game two-boxes: mdp_round_ends_script "), err
