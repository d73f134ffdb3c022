"""A parameter's value as JSON and people see it is the text ``--set`` takes back, or a
number: a float parser's NaN or infinity is its text (JSON has no number for it: a traceback,
or ``null`` that --set cannot take back), and a ``show`` that raises, or gives text of more
than one line or with a control character, or an object, or a value of bytes with no show,
is one line naming the parameter, exit code 2 (tracebacks, and untrue messages)."""

import json
from types import SimpleNamespace

import pytest
from models import WALK

from mdp.program.cli import main

PLUGIN = '''
import mdp

GAME = "walk"

def show(value):
    SHOW

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("y", "1", PARSE, "a number", show=SHOWN)]
'''

# Taken back: (show's body, parser, --set y=, what the JSON says of y)
TAKEN_BACK = [
    ("return value", "float", "nan", "nan"),
    ("return value", "float", "inf", "inf"),
    ("return value", "float", "-inf", "-inf"),
    ("return value", "float", "2.5", 2.5),
    ("return f'{value:g}'", "float", "1e300", "1e+300"),
]
# Refused: (show's body or None for no show, parser, the words of the line)
REFUSED = [
    ("raise ValueError('cannot show')", "int", "its show raised ValueError: cannot show"),
    ("return object()", "int", "not text or a number"),
    ("return 'a\\nb'", "int", "control character or a line break"),
    ("return 'a\\x1b[31mb'", "int", "control character or a line break"),
    (None, "str.encode", "its value is b'1' (bytes), not text or a number"),
    # one that answers otherwise when asked again (round 26: said as a hook changing it)
    ("show.n = getattr(show, 'n', 0) + 1; return '0' * (show.n % 2) + str(value)", "int",
     "for one value; a show gives one text per value"),
]


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    """``run(show, parse, *argv)``: ``mdp solve`` of the game with the plugin of ``show`` and
    ``parse``, in this process (what is shown of a parameter is mdp's code alone, whatever
    process runs it); its exit code, standard output and standard error."""
    monkeypatch.chdir(tmp_path)

    def run(show, parse, *argv):
        (tmp_path / "game.py").write_text(WALK.replace("WORTH", "3"))
        plugin = PLUGIN.replace("PARSE", parse).replace(
            "SHOWN", "None" if show is None else "show").replace("SHOW", show or "pass")
        (tmp_path / "plug.py").write_text(plugin)
        capsys.readouterr()
        code = main(["solve", "game.py", "-p", "plug.py", "--json", *argv])
        out, err = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out, stderr=err)

    return run


@pytest.mark.slow
@pytest.mark.parametrize(("show", "parse", "given", "seen"), TAKEN_BACK)
def test_a_value_is_written_as_set_takes_it_back(run, show, parse, given, seen):
    done = run(show, parse, "--set", f"y={given}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["params"]["y"] == seen
    again = run(show, parse, "--set", f"y={seen}")
    assert again.returncode == 0 and json.loads(again.stdout)["params"]["y"] == seen


@pytest.mark.parametrize(("show", "parse", "words"), REFUSED)
def test_a_show_that_breaks_is_one_line_naming_the_parameter(run, show, parse, words):
    done = run(show, parse)
    assert done.returncode == 2 and done.stdout == ""
    # Named with the plugin that declared it, as the plugin loads (its default shown).
    assert done.stderr.startswith("mdp: error: game walk: plugin plug.py's ") and \
        done.stderr.count("\n") == 1
    assert "parameter y" in done.stderr and words in done.stderr


# Reads "y2" (a show's text) as 2, and 2 as 2.
Y_TEXT = "lambda v: int(str(v).removeprefix('y'))"


@pytest.mark.parametrize(("show", "refused"), [("return 'same' if value > 1 else 'y1'", True),
                                               ("return f'y{value}'", False)])
def test_rows_of_vary_that_would_read_alike_are_refused(run, show, refused):
    """Two values a show gives one text: their rows of --vary read the same (exit code 0).
    (A show whose text its parser does not read back is refused where it is first shown.)"""
    done = run(show, Y_TEXT, "--vary", "y=1,2")
    if refused:
        assert done.returncode == 2 and done.stderr == (
            "mdp: error: game walk: plugin plug.py's parameter y: its show gave 'same' for y=2, "
            "which its parser refuses (invalid literal for int() with base 10: 'same'); a value "
            "is shown as the text --set takes back\n")
    else:
        assert done.returncode == 0, done.stderr
        assert [row["y"] for row in json.loads(done.stdout)] == ["y1", "y2"]
