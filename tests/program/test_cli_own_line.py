"""mdp's own lines on standard error start a line of their own, whatever a game's print left
open before them (round 18, P36: "working...mdp: error: ..." in the game's red): a line a
game left open on standard error, or on standard output where both go to the same place, is
ended first, and on a terminal its colour is reset."""

import os
import pty
import subprocess
import sys

import pytest
from models import WALK

RED = "\x1b[31m"
GAME = WALK.replace("import mdp", "import os, sys\nimport mdp").replace(
    "def mdp_initial_state():\n", 'def mdp_initial_state():\n    PRINTS\n')
PRINTS = {  # what the game leaves open, and on which streams
    "stdout": 'print("working...", end="", flush=True)',
    "stderr": 'sys.stderr.write("working...")',
    "both": f'print("working...", end="", flush=True); sys.stderr.write("{RED!r}"[1:-1] + "red")',
}
LEFT = {"stdout": "working...", "stderr": "working...", "both": f"working...{RED}red"}
RAISE = 'raise ValueError("boom")'  # in mdp_terminal_value, after the prints


def _game(tmp_path, prints, raises):
    game = GAME.replace("PRINTS", PRINTS[prints])
    if raises:
        game = game.replace('    return {"walk": WORTH', f'    {RAISE}\n    return {{"walk": 3')
    (tmp_path / "game.py").write_text(game.replace("WORTH", "3"))


@pytest.mark.slow  # a process each
@pytest.mark.parametrize("prints", PRINTS)
@pytest.mark.parametrize("raises", [True, False])
def test_mdp_s_line_starts_a_line_of_its_own(tmp_path, prints, raises):
    _game(tmp_path, prints, raises)
    done = subprocess.run([sys.executable, "-m", "mdp", "policy", "game.py", "--out", "p.csv"],
                          cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    # the one state where a choice is made, a row for each of its two actions; not a
    # terminal, so nothing reset
    said = "mdp: error: game walk: mdp_terminal_value raised ValueError: boom (state 'walk')" \
        if raises else "2 rows written to p.csv"
    assert done.stdout == f"{LEFT[prints]}\n{said}\n"


@pytest.mark.slow  # a process
def test_on_a_terminal_the_colour_a_game_left_is_reset(tmp_path):
    _game(tmp_path, "both", raises=True)
    leader, follower = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", "game.py"], cwd=tmp_path,
                          stdout=follower, stderr=follower, timeout=120)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: all read
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert done.returncode == 2
    # (a terminal ends a line with \r\n)
    assert seen.decode() == (f"working...{RED}red\x1b[0m\r\nmdp: error: game walk: "
                             "mdp_terminal_value raised ValueError: boom (state 'walk')\r\n")


@pytest.mark.parametrize(("texts", "left"), [
    (["working..."], (True, False)),
    (["done\n"], (False, False)),
    (["\r\x1b[K"], (False, False)),  # a progress line cleared: nothing to end, no blank line
    (["\r\x1b[Ksolving  [1.0 s]"], (True, False)),
    ([f"{RED}red"], (True, True)),
    ([f"{RED}red\x1b[0m\n"], (False, False)),
    (["\x1b[1;31m", "bold red\n"], (False, True)),  # the colour outlives the line
])
def test_what_is_left_open_and_set_is_read_from_what_was_written(texts, left):
    import io

    from mdp.program.stdout import Errors

    stream = Errors(io.StringIO())
    for text in texts:
        stream.write(text)
    assert (stream.open, stream.styled) == left
    stream.line_start()  # not a terminal: the line ended, no colour reset written
    assert stream.stream.getvalue() == "".join(texts) + ("\n" if left[0] else "")
