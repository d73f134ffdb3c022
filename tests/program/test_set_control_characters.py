"""A value the user types with a control character or a line break is the user's mistake,
said so for every parameter of every game and every option of an analysis (round 24: a box
name of ``--set boxes=`` with an escape was "game yahtzee: parameter boxes: its show gave
..., a value is shown on one line", blamed on the game's show)."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

CONTROLS = [chr(c) for c in [*range(32), *range(127, 160)]] + ["\u2028", "\u2029"]
GAMES = {name: sorted(mdp.load_game(name).params) for name in ("shutbox", "yahtzee", "pig")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(GAMES)), data=st.data(),
       text=st.text(string.ascii_lowercase + "0123456789,", min_size=2, max_size=6), control=st.sampled_from(CONTROLS))
@pytest.mark.slow  # half a second or more of CPU
def test_a_control_character_typed_is_the_user_s_mistake(game, data, text, control, capsys):
    name = data.draw(st.sampled_from(GAMES[game]))
    at = data.draw(st.integers(1, len(text) - 1))  # within: blanks around a value are let go
    value = text[:at] + control + text[at:]
    assert main(["solve", game, "--set", f"{name}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not err.startswith("mdp: error: game ") and "its show" not in err, err
    if err.startswith(f"mdp: error: parameter {name}="):  # (not a rule of which parameters go together)
        assert err.endswith(": text with a control character or a line break; a value is typed on one line\n")


def test_an_option_typed_with_a_line_break_is_refused_as_a_parameter_is(capsys):
    assert main(["simulate", "shutbox", "--set", "tiles=1-3", "--games", "5\n"]) == 2
    assert capsys.readouterr().err == ("mdp: error: --games '5\\n': text with a control character or a "
                                       "line break; a value is typed on one line\n")
