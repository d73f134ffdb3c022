"""Numbers for people: a float to 15 significant digits on the terminal and in a Markdown
table (17/4 as 4.25, not the 4.249999999999999 float arithmetic leaves), every digit in
files and JSON for programs."""

import io
import json

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.readable import readable, readable_table
from mdp.program.cli import main

# A die whose every face pays 17/4: worth 6 x 1/6 x 17/4 = 17/4, which in floats (1/6 has no
# exact float) comes out one unit in the last place below 17/4: 4.249999999999999.
GAME = '''
from fractions import Fraction

import mdp


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return ["roll"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 6), face) for face in range(1, 7)]


@mdp.hookimpl
def mdp_terminal_value(state):
    return {PAYS}
'''
NOISY = 17 / 4 - 2**-50


@pytest.fixture
def die(tmp_path, monkeypatch):
    """The game file, paying ``pays`` (Python source) on every face."""
    monkeypatch.chdir(tmp_path)

    def make(pays: str, name: str) -> str:
        (tmp_path / f"{name}.py").write_text(GAME.replace("{PAYS}", pays))
        return f"{name}.py"

    return make


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_noise_is_there_to_be_rounded_away():
    assert repr(NOISY) == "4.249999999999999"


def test_a_float_is_shown_to_15_significant_digits():
    assert readable(NOISY) == "4.25"
    assert readable(0.1 + 0.2) == "0.3"  # 0.30000000000000004
    assert readable(956177159 / 9795520512) == "0.0976137161704307"  # 15 digits, none lost
    assert readable(1 / 3) == "0.333333333333333"
    assert readable(1e-20) == "1e-20" and readable(2.0) == "2" and readable(-0.5) == "-0.5"
    assert readable(None) == "" and readable(7) == "7" and readable("14/3") == "14/3"


def test_a_table_for_people_turns_floats_and_nulls_to_text_and_leaves_the_rest():
    frame = pl.DataFrame({"value": [NOISY, None], "count": [1, 2], "face": [3, None],
                          "exact": ["17/4", "1/2"]})
    shown = readable_table(frame)
    assert shown.to_dict(as_series=False) == {"value": ["4.25", ""], "count": [1, 2],
                                              "face": ["3", ""], "exact": ["17/4", "1/2"]}
    assert shown.schema["count"] == pl.Int64


def test_the_markdown_format_rounds_every_float_column_and_csv_keeps_every_digit():
    # A float column with a null in it was written as text in full (4.249999999999999); one
    # without, by Polars' display, to six digits (0.333333).
    frame = pl.DataFrame({"value": [NOISY, None], "chance": [1 / 3, 0.5]})
    markdown, csv = io.BytesIO(), io.BytesIO()
    mdp.formats()["markdown"].dump(frame, markdown, "a buffer")
    mdp.formats()["csv"].dump(frame, csv, "a buffer")
    assert markdown.getvalue().decode().splitlines()[2:] == [
        "| 4.25  | 0.333333333333333 |", "|       | 0.5               |"]
    assert csv.getvalue().decode().splitlines() == [
        "value,chance", "4.249999999999999,0.3333333333333333", ",0.5"]


def test_17_4_in_floats_is_4_25_in_a_markdown_table_and_every_digit_in_csv_and_json(capsys, die):
    game = die("Fraction(17, 4)", "noisy")
    lines = run(capsys, "policy", game, "--format", "markdown").splitlines()
    assert [cell.strip() for cell in lines[2].split("|")[1:-1]] == ["start", "roll", "4.25", "true", "0"]
    csv = run(capsys, "policy", game, "--format", "csv").splitlines()
    assert csv == ["state,action,value,optimal,regret", "start,roll,4.249999999999999,true,0.0"]
    assert json.loads(run(capsys, "solve", game, "--json"))["value"] == NOISY
    assert run(capsys, "solve", game).splitlines()[1] == "value: 4.25"


def test_an_analysis_shows_a_float_outcome_for_people(capsys, die):
    # Every face pays 0.1 * 3, which floats make 0.30000000000000004; the chance of it, six
    # sixths, 0.9999999999999999.
    game = die("0.1 * 3", "tenths")
    lines = run(capsys, "distribution", game).splitlines()
    assert lines[1:] == ["value: 0.3", "   value  probability   cumulative",
                         "     0.3   100.0000%   100.0000%"]
    assert run(capsys, "distribution", game, "--format", "csv").splitlines()[1] == "0.30000000000000004,0.9999999999999999"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_text_for_people_is_one_line_and_printable_text_is_kept(text):
    # A game's label or state value shown by advise: a line break printed raw split its row.
    shown = readable(text)
    assert all(c.isprintable() or c == " " for c in shown)
    if text.isprintable():
        assert shown == text
    else:  # each control character as its escape, the rest kept in order
        assert shown == "".join(c if c.isprintable() or c == " " else
                                c.encode("unicode_escape").decode() for c in text)


def test_advise_shows_a_label_with_a_line_break_on_its_row(tmp_path, capsys):
    game = tmp_path / "labels.py"
    game.write_text("import mdp\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 's'\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return ['roll\\nagain', 'stop'] if state == 's' else []\n"
                    "@mdp.hookimpl\ndef mdp_outcomes(state, action): return [(1, action)]\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 2 if state == 'stop' else 1\n"
                    "@mdp.hookimpl\ndef mdp_state_columns(state): return {'pos': state}\n"
                    "@mdp.hookimpl\ndef mdp_action_columns(state, action): return {'move': action}\n")
    assert main(["advise", str(game), "pos=s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:] == ["       move         value        regret",  # as wide as the widest
                         "       stop  2.0000000000  0.0000000000  optimal",
                         "roll\\nagain  1.0000000000  1.0000000000"]
