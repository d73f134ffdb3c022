"""How a state is shown to be named again: every hint's ``COLUMN=VALUE`` is what a shell
(bash) passes back whole, whatever the text holds (spaces, quotes, ``$``, ``|``, a control
character), and a value given with the right words in another order, or spaced otherwise, is
shown as the game writes it."""

import subprocess

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.game.naming import near, quoted, written
from mdp.program.cli import main

TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=12)


def shell_words(line):
    """The words of ``line`` as bash reads them (no word of a command line holds a NUL)."""
    done = subprocess.run(["bash", "-c", 'printf "%s\\0" ' + line], capture_output=True, check=True,
                          env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    return done.stdout.decode().split("\0")[:-1]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z_]{1,6}", fullmatch=True), TEXT, min_size=1, max_size=3))
def test_a_hint_is_given_back_whole_by_a_shell(columns):
    back = dict(word.split("=", 1) for word in shell_words(written(columns)))
    assert back == columns


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["1", "2", "3", "5", "8", "ones", "twos"]), min_size=2, max_size=5),
       st.randoms(use_true_random=False), st.integers(1, 3))
def test_the_right_words_in_another_order_are_shown_as_the_game_writes_them(words, random, gap):
    cell = " ".join(sorted(words))
    table = pl.DataFrame({"open": [cell, "9"], "roll": [4, 4]})
    shuffled = list(words)
    random.shuffle(shuffled)
    given_text = (" " * gap).join(shuffled)
    hint = near(table, {"open": given_text, "roll": "4"})
    if given_text == cell:  # the cell itself: nothing to suggest
        assert hint == ""
    else:
        assert hint == f" (did you mean open={quoted(cell)}?)"
    assert near(table, {"open": "7 7", "roll": "4"}) == ""  # no cell of those words


def test_tiles_typed_in_another_order_are_shown_in_the_games_order(capsys):
    assert main(["advise", "shutbox", "open=8 5 3 2 1", "roll=9"]) == 2
    err = capsys.readouterr().err
    assert "no reachable state has open='8 5 3 2 1', roll='9' (did you mean open=\"1 2 3 5 8\"?)" in err
