"""A game that reconfigures standard output or standard error (``sys.stdout.reconfigure``:
its encoding, its error handler, its ends of lines) is refused in one line naming it and its
hook, whichever stream ``sys.stdout`` is as it runs (the answer's, or standard error while a
table or JSON is printed): before, mdp's answer came out in the game's encoding or with
"\\r\\n" ends of lines (round 18, P35)."""

import subprocess
import sys

import pytest
from models import WALK

GAME = WALK.replace("import mdp", "import sys\nimport mdp").replace(
    '    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')

CHANGES = ['sys.stdout.reconfigure(encoding="ascii")', 'sys.stdout.reconfigure(newline="\\r\\n")',
           'sys.stdout.reconfigure(errors="ignore")', 'sys.stderr.reconfigure(encoding="latin-1")']


@pytest.mark.slow  # a process each
@pytest.mark.parametrize("json", [[], ["--json"]])
@pytest.mark.parametrize("change", CHANGES)
def test_a_game_that_reconfigures_a_standard_stream_is_refused(tmp_path, change, json):
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", change))
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", "game.py", *json],
                          cwd=tmp_path, capture_output=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert done.stderr == (b"mdp: error: game walk: mdp_terminal_value raised "
                           b"UnsupportedOperation: standard output and standard error are mdp's: "
                           b"a game or plugin prints there, and does not reconfigure them "
                           b"(state 'walk')\n")
