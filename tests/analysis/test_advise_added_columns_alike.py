"""The columns `mdp advise` adds beside each action (``at_least`` and ``points`` played toward
a total, ``after_1`` in a match) are refused in a game's action columns in any form that reads
as one of them (other capitals, full-width letters: mdp.game.names.one_name), not only as
spelt: a table holding ``Points`` beside ``points`` is two columns of one name to a reader
that does not tell capitals apart. A name that reads otherwise is the game's."""

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

TWO_BOXES = (Path(__file__).parents[2] / "docs" / "examples" / "two_boxes.py").read_text()
ARGS = ["filled=", "throws_left=1", "face=4", "--at-least", "14", "--format", "csv"]


def _forms(name):
    """``name`` written with each letter as itself, in capitals, or full-width."""
    def letter(c):
        options = [c, c.upper()]
        wide = unicodedata.lookup(f"FULLWIDTH {unicodedata.name(c.upper())}") if c.isalpha() else c
        return st.sampled_from([*options, wide])
    return st.tuples(*map(letter, name)).map("".join)


def _advise(tmp_path, capsys, column):
    game = tmp_path / "boxes_column.py"
    game.write_text(TWO_BOXES + "\n\n@mdp.hookimpl\ndef mdp_action_columns(state, action):\n"
                    f"    return {{{column!r}: action}}\n", encoding="utf-8")
    code = main(["advise", str(game), *ARGS])
    return code, capsys.readouterr()


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["at_least", "points"]).flatmap(_forms))
def test_a_column_that_reads_as_one_advice_adds_is_refused_in_one_line(tmp_path_factory, capsys, column):
    code, said = _advise(tmp_path_factory.mktemp("g"), capsys, column)
    ours = unicodedata.normalize("NFKC", column).casefold()  # (the one rule, by its oracle)
    read = "" if column == ours else f" (read as {ours!r})"
    assert code == 2 and said.out == ""
    assert said.err == (f"mdp: error: game two-boxes: an action has a column {column!r}{read}, "
                        "which advice adds beside each action (at_least, points: what its values "
                        "are against); name it otherwise\n")


def test_a_column_that_reads_otherwise_is_the_games(tmp_path, capsys):
    code, said = _advise(tmp_path, capsys, "Points2")
    assert code == 0, said.err
    assert said.out.splitlines()[0] == "Points2,value,regret,optimal,at_least,points"
