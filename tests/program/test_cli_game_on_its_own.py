"""What Python says of a game's code on its own (a thread's exception, an exception in a
``__del__`` or an exit callback, a warning) is one line each, ``mdp: warning: ...``, with its
control characters escaped, never a traceback; an exit callback that calls ``os._exit`` is
refused, and the exit code is the command's. Before, each printed Python's traceback (or its
two-line warning with a raw ESC), and ``atexit.register(lambda: os._exit(0))`` turned an
error's exit 2 into 0."""

import json
import subprocess
import sys
import threading
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK

from mdp.program import main

# The program itself, as the mdp command runs it (its exit callbacks run as it ends).
MDP = [sys.executable, "-c", "import sys; from mdp.program import main; sys.exit(main())"]

# What the game's code does on its own, at import or in its hook.
DEEDS = {
    "thread": "t = threading.Thread(target=lambda: 1 / 0); t.start(); t.join()",
    "del": "Boom()",
    "atexit": "atexit.register(lambda: [][1])",
    "exit0": "atexit.register(lambda: os._exit(0))",
    "exit0 itself": "atexit.register(os._exit, 0)",
    "warn": 'warnings.warn("careful\\x1b[31m now")',
    # kept in the game's module until Python's shutdown (round 27: its traceback then)
    "kept": "globals().setdefault('_kept', []).append(Boom())",
}

PREAMBLE = '''import atexit, os, threading, warnings

class Boom:
    def __del__(self):
        raise RuntimeError("del \\x1b[31mboom")
'''

# How the command ends, and its exit code: an answer (0), a mistake (2), too large (3).
ENDS = {"answer": ([], 0), "mistake": (["--set", "nope=1"], 2), "too large": (["--max-states", "1"], 3)}


def _game(deeds: list[str], where: str) -> str:
    game = PREAMBLE + WALK.replace("WORTH", "3")
    lines = [DEEDS[d] for d in deeds]
    if where == "import":
        return game + "\n" + "\n".join(lines) + "\n"
    return game.replace("def mdp_terminal_value(state):\n", "def mdp_terminal_value(state):\n" +
                        "".join(f"    {line}\n" for line in lines))


@pytest.mark.slow  # a process per case
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deeds=st.lists(st.sampled_from(sorted(DEEDS)), min_size=1, max_size=3, unique=True),
       where=st.sampled_from(["import", "hook"]), end=st.sampled_from(sorted(ENDS)))
def test_what_python_says_of_a_games_code_is_one_line_and_the_exit_code_is_mdps(
        tmp_path, deeds, where, end):
    path = tmp_path / "walk.py"
    path.write_text(_game(deeds, where))
    words, code = ENDS[end]
    done = subprocess.run([*MDP, "solve", str(path), "--json", *words], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and "\x1b" not in done.stderr
    assert all(line.startswith("mdp: ") for line in done.stderr.splitlines()), done.stderr
    if code == 0:
        assert json.loads(done.stdout)["value"] == 3.0  # walk away with 3, by hand
    if "exit0" in deeds and (where == "import" or code == 0):  # (the hook runs once compiled)
        assert "called os._exit(0), which is refused: the exit code is mdp's" in done.stderr


def test_the_hooks_are_given_back_after_a_command_in_the_process(tmp_path, capsys):
    path = tmp_path / "walk.py"
    path.write_text(_game(["warn", "thread"], "hook"))
    before = threading.excepthook, sys.unraisablehook, warnings.showwarning
    # Warnings recorded by whoever runs mdp (here, as pytest does) are left to them.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert main(["solve", str(path)]) == 0
        assert main(["solve", str(path), "--set", "nope=1"]) == 2
    assert (threading.excepthook, sys.unraisablehook, warnings.showwarning) == before
    assert [str(w.message) for w in seen] == ["careful\x1b[31m now"] * 2  # walk and stay
    err = capsys.readouterr().err
    assert "mdp: warning: game walk: its thread " in err and "ZeroDivisionError" in err


@pytest.mark.slow  # a process: the game's module lives to its end
@pytest.mark.parametrize("where", ["import", "hook"])
def test_an_object_a_game_keeps_to_the_end_is_one_line_as_it_dies(tmp_path, where):
    """Round 27: an object the game's module holds till Python's shutdown, whose __del__
    raises, had Python's traceback printed after mdp's answer (its hook no longer in place)."""
    path = tmp_path / "walk.py"
    path.write_text(_game(["kept"], where))
    done = subprocess.run([*MDP, "solve", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "value: 3" in done.stdout.splitlines()
    said = done.stderr.splitlines()  # one object a call of the hook (once at import)
    assert said and set(said) == {"mdp: warning: game walk: Exception ignored in Boom.__del__: "
                                  "RuntimeError: del \\x1b[31mboom"}
