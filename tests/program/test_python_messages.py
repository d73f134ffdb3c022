"""A mistake made in Python is told in Python's words: the function and its argument
(``mdp.simulate: games is 0; ...``), an analysis's option as an option, and a format as
``format=``, never the command line's ``--format``. Cases are generated."""

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

GAME = mdp.load_game("shutbox", tiles="1-3")
SOLUTION = mdp.solve(mdp.compile(GAME))
wrong_counts = st.one_of(st.integers(max_value=0), st.booleans(), st.floats(allow_nan=False),
                         st.text(max_size=4), st.just(None))
wrong_seeds = st.one_of(st.integers(max_value=-1), st.booleans(), st.floats(allow_nan=False),
                        st.text(max_size=4))


@settings(max_examples=40, deadline=None)
@given(games=wrong_counts)
def test_simulate_names_itself_and_its_argument(games):
    with pytest.raises(mdp.ParamError, match=r"^mdp\.simulate: games is .*; expected a whole "
                                             r"number of 1 or more$"):
        mdp.simulate(SOLUTION, GAME, games=games)


@settings(max_examples=40, deadline=None)
@given(seed=wrong_seeds)
def test_simulate_names_its_seed(seed):
    with pytest.raises(mdp.ParamError, match=r"^mdp\.simulate: seed is .*; expected a whole "
                                             r"number of 0 or more or None$"):
        mdp.simulate(SOLUTION, GAME, games=3, seed=seed)


@settings(max_examples=20, deadline=None)
@given(games=st.sampled_from(["1e3", "0", "-2", "x", "1.5"]))
def test_an_analysis_names_its_options_as_options(games):
    with pytest.raises(mdp.ParamError) as raised:
        mdp.analyse(SOLUTION, "simulate", GAME, games=games)
    assert str(raised.value).startswith(f"analysis simulate: option games={games}: ")
    with pytest.raises(mdp.ParamError, match=r"^unknown option 'gamez' for analysis simulate; "
                                             "did you mean games\\?"):
        mdp.analyse(SOLUTION, "simulate", GAME, gamez=3)


@settings(max_examples=20, deadline=None)
@given(extension=st.sampled_from(["txt", "xlsx", "CSVX", ""]))
def test_write_table_names_format_as_python_does(tmp_path_factory, extension):
    path = tmp_path_factory.mktemp("table") / (f"t.{extension}" if extension else "t")
    with pytest.raises(mdp.ParamError) as raised:
        mdp.write_table(pl.DataFrame({"a": [1]}), str(path))
    assert str(raised.value).endswith("; or name a format with format=)")
    assert "--" not in str(raised.value)


@pytest.mark.parametrize("name", [".", "..", "folder", "folder.csv"])
@pytest.mark.parametrize("kind", [str, __import__("pathlib").Path])
def test_write_table_to_a_folder_says_it_is_one(tmp_path, monkeypatch, name, kind):
    """As the command line says it, whatever the folder's name ends with ('.' was "unknown
    file type '.'"); a path given as a Path is returned as its text, as the signature says."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(mdp.ParamError, match=rf"^{__import__('re').escape(name)}: is a folder; name a file to write$"):
        mdp.write_table(pl.DataFrame({"a": [1]}), kind(name))
    assert mdp.write_table(pl.DataFrame({"a": [1]}), kind("t.csv")) == "t.csv"


def test_a_required_option_is_named_with_its_analysis():
    with pytest.raises(mdp.ParamError, match=r"^analysis simulate: games is required \(the "
                                             r"number of games to play\)$"):
        mdp.analyse(SOLUTION, "simulate", GAME)
