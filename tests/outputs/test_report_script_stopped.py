"""The check of a game's JavaScript round-ends script (mdp report, with mini-racer) stops at
once when mdp is interrupted (a signal while the script runs: before, Ctrl-C waited for the
script's end or its 10 s timeout, and V8's late answer printed a traceback), and a script
that takes memory without end is refused in one line naming the game and the script, where
V8's fatal error killed the process (exit 133)."""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from mdp.outputs import explorer
from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")

pytestmark = pytest.mark.skipif(importlib.util.find_spec("py_mini_racer") is None,
                                reason="needs mini-racer (pip install -e '.[report]')")


def _report(tmp_path: Path, script: str) -> list[str]:
    plugin = tmp_path / "script.py"
    plugin.write_text("import mdp\n\n\n@mdp.hookimpl\ndef mdp_round_ends_script():\n"
                      f"    return {script!r}\n")
    return ["report", TWO_BOXES, "-p", str(plugin), "--out", str(tmp_path / "two.html")]


# Runaway allocations, each of its own kind of object, in pieces of n: arrays of numbers,
# typed arrays (outside V8's heap: 100,000 at a time, so that many are made before the
# last fails), objects of many keys, arrays of strings.
GROWING = [
    ("var a = []; for (;;) {{ a.push(new Array({n}).fill(1)); }}", 1_000_000),
    ("var a = []; for (;;) {{ a.push(new Float64Array({n})); }}", 100_000),
    ("var a = []; for (var i = 0;; i++) {{ var o = {{}}; for (var j = 0; j < {n} / 1000; j++) "
     "o['k' + j] = i; a.push(o); }}", 1_000_000),
    ("var a = []; for (;;) {{ a.push(Array.from({{length: {n}}}, function (_, i) {{ return "
     "'s' + i; }})); }}", 1_000_000),
]


@pytest.mark.slow
@pytest.mark.parametrize(("growing", "n"), GROWING, ids=["numbers", "typed", "objects", "strings"])
def test_a_script_that_takes_memory_without_end_is_one_line(growing, n, tmp_path, capsys, monkeypatch):
    # The memory's cap is what stops the script, not its time: on a busy machine the strings
    # took more than the 10 s a script is given before they took 512 MB (a timeout, said as
    # such, and tested in tests/outputs/test_report_explorer.py).
    monkeypatch.setattr(explorer, "SCRIPT_SECONDS", 120)
    script = "function (k, ends) { " + growing.format(n=n) + " }"
    assert main(_report(tmp_path, script)) == 2
    out, err = capsys.readouterr()
    # The heap's cap, or (typed arrays live outside the heap) the script's own RangeError
    # where V8 cannot give it a buffer: either is one line naming the game and its script.
    assert re.fullmatch(r"mdp: error: game two-boxes: plugin \S+script\.py's mdp_round_ends_script does not run: "
                        r"(it took more than the 512 MB of memory a script may take|"
                        r"\S+ RangeError: Array buffer allocation failed)\n", err), err
    assert not (tmp_path / "two.html").exists()


def _signal_while_the_script_runs(number: int) -> threading.Thread:
    """Send signal ``number`` to this process once the script runs (its thread is there; one
    of a script stopped before is left waiting for an answer that never comes)."""
    before = set(threading.enumerate())

    def send() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(t.name == "javascript" for t in set(threading.enumerate()) - before):
                time.sleep(0.2)  # well inside V8's run of the script
                os.kill(os.getpid(), number)
                return
            time.sleep(0.01)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    return sender


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("script", ["function (k, ends) { while (true) {} }",
                                    "function (k, ends) { var t = Date.now(); "
                                    "while (Date.now() - t < 3000) {} return {next: [], points: []}; }"])
def test_a_signal_while_the_script_runs_stops_it_at_once(number, script, tmp_path, capsys):
    sender = _signal_while_the_script_runs(number)
    began = time.monotonic()
    code = main(_report(tmp_path, script))
    took = time.monotonic() - began
    sender.join()
    out, err = capsys.readouterr()
    assert (code, err) == (130, "mdp: interrupted\n")
    assert took < 2.5  # the script alone would run 3 s a round state, or 10 s to its timeout
    assert not (tmp_path / "two.html").exists()
