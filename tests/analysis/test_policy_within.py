"""``within`` of mdp.policy and mdp.policy_pieces is checked with the other arguments: None,
``"all"`` or a dict of round columns, anything else a ParamError in one line. A numpy array
raised numpy's "The truth value of an array ... is ambiguous"."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

WRONG = st.one_of(
    st.lists(st.integers(-2, 5), max_size=3), st.lists(st.integers(0, 3), min_size=1, max_size=3).map(np.array),
    st.integers(), st.floats(), st.booleans(), st.text(max_size=4).filter(lambda t: t != "all"),
    st.dictionaries(st.integers(), st.integers(), min_size=1, max_size=2), st.just(b"all"),
    st.just(("filled", 1)))


@pytest.fixture(scope="module")
def two_boxes():
    from models import two_boxes

    game = two_boxes()
    return game, mdp.solve(mdp.compile(game), exact=True)


@settings(max_examples=80, deadline=None)
@given(WRONG)
def test_a_within_that_names_no_round_states_is_refused_in_one_line(two_boxes, within):
    game, solution = two_boxes
    for function in (mdp.policy, mdp.policy_pieces):
        with pytest.raises(mdp.ParamError) as error:
            function(solution, game, within=within)
        assert str(error.value).startswith(f"mdp.{function.__name__}: within is ")
        assert str(error.value).endswith("expected None or 'all', or round columns naming round "
                                         "states, a dict {COLUMN: VALUE}")


def test_all_and_round_columns_are_taken(two_boxes):
    game, solution = two_boxes
    # Two boxes' round states 0 to 2 are played from (3, both filled, ends the game); the
    # round has one throw (a state of one action) and six faces (each two boxes): 13 rows
    # at round state 0; at 1 and 2 one box is filled, so each face has one row, not two.
    assert mdp.policy(solution, game, within="all").height == 3 * 13 - 2 * 6
    assert mdp.policy(solution, game, within={"round_state": 0}).height == 13


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["round_state", "nosuch", "filled", "Round_State"]),
                       st.integers(0, 2), min_size=1, max_size=3))
def test_a_column_that_is_no_round_column_is_named(two_boxes, within):
    # Before: "name a round state of two-boxes by its columns round_state" for {"nosuch": 1},
    # without a word of nosuch; with a round column beside it, nosuch was left unsaid too.
    game, solution = two_boxes
    unknown = [column for column in within if column != "round_state"]
    if not unknown:
        rows = 13 if within["round_state"] == 0 else 7  # one box filled: a row per face (above)
        assert mdp.policy(solution, game, within=within).height == rows
        return
    with pytest.raises(mdp.ParamError) as error:
        mdp.policy(solution, game, within=within)
    verb = "is no round column" if len(unknown) == 1 else "are no round columns"
    assert str(error.value) == (f"within: {', '.join(unknown)} {verb} of two-boxes (its round "
                                "columns: round_state)")


@pytest.mark.parametrize("within", ["round_state=0 round_state=1", "round_state=1 round_state=1",
                                    "nosuch=1 x=2 nosuch=2"])
def test_a_column_given_twice_is_said_so_as_advise_says(within, capsys):
    # Before: "within '...': expected all, or the round columns of round states as
    # COLUMN=VALUE ...", which the user had given.
    from pathlib import Path

    from mdp.program.cli import main

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py"
    assert main(["policy", str(example), "--within", within]) == 2
    twice = next(c for c in [w.partition("=")[0] for w in within.split()]
                 if within.count(c + "=") > 1)
    given = ", ".join(repr(w) for w in within.split() if w.startswith(twice + "="))
    assert capsys.readouterr().err == (f"mdp: error: within: column {twice} is given twice "
                                       f"({given}); give each column once\n")
