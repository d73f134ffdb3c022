"""A did-you-mean names only a close match: the dashes every option shares do not count
(they made ``--at-least`` look close to ``--against``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

words = st.text(st.sampled_from("abcdefst-"), min_size=1, max_size=8).filter(
    lambda w: not w.startswith("-"))


def test_an_option_like_none_of_a_commands_suggests_none(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["lengths", "games/shutbox", "--at-least", "5"])
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("mdp lengths: error: unrecognized arguments: --at-least 5 "
                                       "(mdp lengths --help lists every option)\n")


def test_a_misspelt_option_still_suggests_it():
    assert mdp.did_you_mean("--sed", ["--set", "--seed", "--games"]) == "; did you mean --seed?"


@given(words, st.lists(words, min_size=1, max_size=5, unique=True))
def test_dashes_shared_by_every_name_change_nothing(wanted, known):
    plain = mdp.did_you_mean(wanted, known)
    dashed = mdp.did_you_mean("--" + wanted, ["--" + k for k in known])
    assert dashed == plain.replace("mean ", "mean --").replace(" or ", " or --")
