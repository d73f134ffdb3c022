"""Every error line is one line with no character a terminal acts on: a hook's exception
whose message held ESC (``\\x1b[31m``) turned the terminal red, where a line break was
escaped already."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from mdp.errors import MdpError
from mdp.program.cli import main

SEPARATORS = {"\u2028", "\u2029"}


@given(st.text())
def test_an_error_says_any_text_on_one_line_with_no_control_character(text):
    said = str(MdpError(text))
    assert not any(unicodedata.category(c) == "Cc" or c in SEPARATORS for c in said)
    if not any(unicodedata.category(c) == "Cc" or c in SEPARATORS for c in text):
        assert said == text  # nothing else changes


def test_a_hooks_message_with_an_escape_sequence_is_printed_escaped(tmp_path, capsys):
    game = tmp_path / "red.py"
    game.write_text(
        "import mdp\nGAME_NAME = 'red'\n"
        "@mdp.hookimpl\ndef mdp_initial_state():\n    return 0\n"
        "@mdp.hookimpl\ndef mdp_actions(state):\n    raise ValueError('one\\ntwo\\x1b[31mred\\x07')\n"
        "@mdp.hookimpl\ndef mdp_outcomes(state, action):\n    return []\n"
        "@mdp.hookimpl\ndef mdp_terminal_value(state):\n    return 0\n")
    assert main(["solve", str(game)]) == 2
    err = capsys.readouterr().err
    assert err == ("mdp: error: game red: mdp_actions raised ValueError: one\\ntwo\\x1b[31mred\\x07 "
                   "(state 0)\n")
