"""A game's mdp_check raises mdp.ParamError saying what is wrong, or returns None: a check
that returns anything else (its complaint, say) or raises an empty ParamError is the game's
fault, one line naming it (round 18, P27: the returned complaint was passed over, and the
empty one printed "mdp: error: " and nothing else)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from models import Table

import mdp


def _game(check):
    class Checked(Table):
        @mdp.hookimpl
        def mdp_check(self):
            return check()

    return Checked({"start": {"go": [(1, "end")]}}, {"end": 1})


@given(st.one_of(st.text(min_size=1), st.integers(), st.booleans(), st.lists(st.integers())))
def test_a_check_that_returns_anything_but_none_is_refused(answer):
    with pytest.raises(mdp.ModelError, match=r"^game table: mdp_check returned .*; a check raises "
                       r"mdp.ParamError saying what is wrong, and returns None$"):
        mdp.load_game(_game(lambda: answer))


@given(st.text(st.sampled_from(" \t"), max_size=3))
def test_an_empty_refusal_is_refused_as_the_games_fault(blank):
    def check():
        raise mdp.ParamError(blank)

    with pytest.raises(mdp.ModelError, match=r"^game table: mdp_check raised an empty ParamError"):
        mdp.load_game(_game(check))


def test_a_check_that_says_what_is_wrong_is_the_users_line_and_none_passes():
    def check():
        raise mdp.ParamError("x must be 2")

    with pytest.raises(mdp.ParamError, match="^x must be 2$"):
        mdp.load_game(_game(check))
    assert mdp.solve(mdp.compile(mdp.load_game(_game(lambda: None)))).value == 1


@given(st.lists(st.one_of(st.none(), st.integers(), st.text(min_size=1).filter(str.strip)), max_size=3)
       .filter(lambda args: not (len(args) == 1 and isinstance(args[0], str))))
def test_a_refusal_that_is_not_one_text_is_the_games_fault(args):
    # Round 24: ParamError(None) printed "mdp: error: None", ParamError("a", "b") its tuple.
    def check():
        raise mdp.ParamError(*args)

    with pytest.raises(mdp.ModelError, match=r"^game table: mdp_check raised (an empty ParamError|"
                       r"ParamError\(.*\), not one text); it says what is wrong with the parameters$"):
        mdp.load_game(_game(check))


def test_a_refusal_of_a_page_is_its_start_and_length():
    class Lying(str):
        def __str__(self):
            return "FAKE"

    def check(text):
        def raising():
            raise mdp.ParamError(text)
        return raising

    with pytest.raises(mdp.ParamError) as error:
        mdp.load_game(_game(check("x" * 100_000)))
    assert len(str(error.value)) < 1100 and "100,000" in str(error.value)
    with pytest.raises(mdp.ParamError, match="^real text$"):  # as given, not as its class shows it
        mdp.load_game(_game(check(Lying("real text"))))
