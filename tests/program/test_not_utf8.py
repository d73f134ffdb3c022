"""Text that is not UTF-8 (a lone surrogate: what Python makes of a byte that is not UTF-8 in
an argument, ``$'\\xff'`` or a Latin-1 terminal's ``é``, or of a file name's) is refused in one
line, exit 2, wherever it comes from: a word the user typed (but a file's name, which keeps
its bytes), a game's column value, action or parameter. Each was a traceback from Polars or
an encoder (UnicodeEncodeError) in policy, advise, distribution, report and --vary tables."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main
from mdp.shown import typed

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
SURROGATE = st.integers(0xDC80, 0xDCFF).map(chr)  # the bytes 0x80 to 0xff, as Python hands them on
TEXT = st.tuples(st.text("abc", max_size=2), SURROGATE, st.text("xyz", max_size=2)).map("".join)

# Each typed word, by where it goes (WORD stands for the text).
TYPED = [
    ["advise", "shutbox", "--set", "tiles=1-3", "open=WORD"],
    ["advise", str(EXAMPLES / "two_boxes.py"), "filled=WORD", "throws_left=1", "face=4"],
    ["policy", str(EXAMPLES / "two_boxes.py"), "--within", "filled=WORD"],
    ["solve", "shutbox", "--vary", "tiles=1-2,WORD"],
    ["solve", "shutbox", "--set", "tiles=WORD"],
    ["distribution", "shutbox", "--strategy", "WORD"],
    ["solve", "shutbox", "--variant", "WORD"],
]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, argv=st.sampled_from(TYPED))
def test_a_typed_word_that_is_not_utf8_is_refused(capsys, text, argv):
    assert main([a.replace("WORD", text) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: ") and err.count("\n") == 1, err
    assert "not UTF-8" in err
    assert "\\udc" not in err, err  # a byte is shown as the byte typed, \xff, never Python's \udcff


def test_a_file_name_keeps_its_bytes(tmp_path, capsys):
    out = tmp_path / "t\udcff.csv"
    assert main(["solve", "shutbox", "--vary", "tiles=1-2,1-3", "--out", str(out)]) == 0
    assert out.exists()
    assert "t\\xff.csv" in capsys.readouterr().err  # the byte as typed, not Python's \udcff


GAME = '''
import mdp
@mdp.hookimpl
def mdp_params():
    return [mdp.Param("w", DEFAULT, str, "a word")]
@mdp.hookimpl
def mdp_initial_state():
    return 0
@mdp.hookimpl
def mdp_actions(state):
    return [ACTION, "b"] if state == 0 else []
@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, 1 if action == "b" else 2)]
@mdp.hookimpl
def mdp_terminal_value(state):
    return state
@mdp.hookimpl
def mdp_state_columns(state):
    return {"c": COLUMN + str(state)}
'''


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, where=st.sampled_from(["DEFAULT", "ACTION", "COLUMN"]),
       command=st.sampled_from([["policy"], ["distribution"], ["advise", "c=s0"], ["report", "--out", "r.html"]]))
def test_a_games_text_that_is_not_utf8_is_the_games_fault(tmp_path_factory, capsys, text, where, command):
    folder = tmp_path_factory.mktemp("game")
    source = GAME
    for name in ("DEFAULT", "ACTION", "COLUMN"):
        source = source.replace(name, repr(text if name == where else {"COLUMN": "s"}.get(name, "a")))
    (folder / "odd.py").write_text(source, encoding="utf-8", errors="surrogatepass")
    argv = [command[0], str(folder / "odd.py"), *command[1:]]
    code = main([a if a != "r.html" else str(folder / a) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("mdp: error: game odd: ") and err.count("\n") == 1, err
    assert "lone surrogate" in err  # (as the game's Python writes it: \udc80)
    assert not (folder / "r.html").exists()


@given(st.lists(st.sampled_from(["a", "\\", "u", "d", "c", "f", "8", "'", '"']) | SURROGATE, max_size=12).map("".join))
def test_a_word_is_quoted_as_its_bytes_were_typed(text):
    """A word quoted in a message shows each byte that is not UTF-8 as ``\\xff``, as Python
    quotes bytes, and a backslash typed before ``udcff`` as the backslash it is."""
    assert typed(text) == repr(os.fsencode(text))[1:]
