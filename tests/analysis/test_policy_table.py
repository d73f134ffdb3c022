"""The policy table made a piece at a time: what is written equals the whole table, rows in
their stated order, columns' types found across pieces, and a Markdown table's bound."""

import functools

import polars as pl
import pytest
from models import HALF, Table

import mdp
import mdp.analysis.policy_table as policy_table
from mdp.program.cli import main

READ = {"csv": pl.read_csv, "parquet": pl.read_parquet, "json": pl.read_json, "ndjson": pl.read_ndjson}


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of at most 100 rows: the standard box's policy comes in about 80 of them."""
    monkeypatch.setattr(policy_table, "ROWS", 100)


@functools.cache
def _standard_box(exact: bool):
    """The standard box solved, and its whole policy table (a third of a second to make): once
    for the four formats. Tests must not change them."""
    game = mdp.load_game("shutbox", one_die="never")
    solution = mdp.solve(mdp.compile(game), exact=exact)
    return game, solution, mdp.policy(solution, game)


@pytest.mark.slow
@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("fmt", ["csv", "parquet", "json", "ndjson"])
def test_a_policy_written_a_piece_at_a_time_is_the_whole_table(small_pieces, tmp_path, fmt, exact):
    game, solution, whole = _standard_box(exact)  # whole: through Polars' own writer of a frame
    mdp.write_table(whole, str(tmp_path / f"whole.{fmt}"))
    pieces = mdp.policy_pieces(solution, game)
    mdp.write_table(pieces, str(tmp_path / f"pieces.{fmt}"))
    assert pieces.rows == whole.height == solution.model.n_actions
    if fmt == "parquet":  # the same table; the files differ by their row groups
        assert READ[fmt](tmp_path / "pieces.parquet").equals(whole)
    else:
        assert (tmp_path / f"pieces.{fmt}").read_bytes() == (tmp_path / f"whole.{fmt}").read_bytes()
    read = READ[fmt](tmp_path / f"pieces.{fmt}")
    assert read["value"].to_list() == whole["value"].to_list()


def test_every_action_has_one_row_the_initial_state_first():
    game = mdp.load_game("shutbox", tiles="1-6")
    model = mdp.compile(game)
    table = mdp.policy(mdp.solve(model))  # no game: the state as the model holds it
    assert table.height == model.n_actions
    assert table.select("state", "action").unique().height == model.n_actions
    assert table["state"][0] == str(model.states[model.initial])


def letters():
    """From ``start``, ``pick`` leads to ``c``, ``a`` or ``b`` (found in that order), each
    worth its ``take``: a third of 1, 2 or 3. ``start`` is worth 2 by hand (6/3)."""
    return Table({"start": {"pick": [(1 / 3, "c"), (1 / 3, "a"), (1 / 3, "b")]},
                  "a": {"take": [(1, "one")]}, "b": {"take": [(1, "two")]},
                  "c": {"take": [(1, "three")], "leave": [(1, "none")]}},
                 {"one": 1, "two": 2, "three": 3, "none": 0})


def test_within_a_layer_the_states_come_in_the_order_of_their_keys():
    game = mdp.load_game(letters())
    table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    assert table.select("state", "action").rows() == [
        ("start", "pick"), ("a", "take"), ("b", "take"), ("c", "take"), ("c", "leave")]
    assert table["value"][0] == pytest.approx(2.0, rel=1e-15)


def sample_and_pieces(*pieces):
    return mdp.Pieces(lambda: iter(pieces), pieces[0], name="the test table")


def test_a_column_given_only_beyond_the_sample_widens_the_types_and_is_written(tmp_path):
    first = pl.DataFrame({"state": ["a"], "bonus": [None], "never": [None], "value": [1]})
    later = pl.DataFrame({"state": ["b", "c"], "bonus": [None, 5], "never": [None, None],
                          "value": [2.5, 3.0]})
    for fmt in READ:
        pieces = sample_and_pieces(first, later)
        assert pieces.columns == ["state", "value"]  # what the sample shows
        mdp.write_table(pieces, str(tmp_path / f"t.{fmt}"))
        read = READ[fmt](tmp_path / f"t.{fmt}")
        assert read.columns == ["state", "bonus", "value"]  # "never" never applies
        assert read["bonus"].to_list() == [None, None, 5]
        assert read["value"].to_list() == [1.0, 2.5, 3.0]
        assert pieces.rows == 3
    assert pl.read_parquet(tmp_path / "t.parquet").schema == {
        "state": pl.String, "bonus": pl.Int64, "value": pl.Float64}


def test_a_column_of_text_in_one_piece_and_numbers_in_another_is_refused():
    pieces = sample_and_pieces(pl.DataFrame({"x": [1]}), pl.DataFrame({"x": ["one"]}))
    with pytest.raises(mdp.ModelError, match=r"^the test table: column 'x' holds Int64 in some rows "
                                             r"and String in others; a column must hold one kind of value$"):
        pieces.frame()


def test_a_piece_without_a_column_is_refused():
    pieces = sample_and_pieces(pl.DataFrame({"x": [1], "y": [2]}), pl.DataFrame({"x": [3]}))
    with pytest.raises(mdp.ModelError, match=r"^the test table: some rows have no column 'y'; every "
                                             r"row must have the same columns$"):
        pieces.frame()


def test_a_piece_with_a_column_the_first_lack_is_refused_not_made_again_forever():
    pieces = sample_and_pieces(pl.DataFrame({"x": [1]}), pl.DataFrame({"x": [3], "z": [4]}))
    with pytest.raises(mdp.ModelError, match=r"^the test table: some rows have a column 'z' the "
                                             r"first lack; every row must have the same columns$"):
        pieces.frame()


def test_progress_is_told_the_rows_made(small_pieces):
    game = mdp.load_game("shutbox", tiles="1-4")
    solution = mdp.solve(mdp.compile(game))
    pieces, told = mdp.policy_pieces(solution, game), []
    pieces.progress = told.append
    frame = pieces.frame()
    total = solution.model.n_actions
    assert told[-1] == f"writing the policy table: {total:,} of {total:,} rows"
    assert len(told) > 1 and frame.height == total


def test_a_markdown_table_past_its_bound_is_refused_and_nothing_written(capsys, tmp_path, monkeypatch):
    import mdp.outputs.formats as core

    monkeypatch.setattr(core, "MARKDOWN_ROWS", 1000)
    out = tmp_path / "p.md"
    code = main(["policy", "shutbox", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 3
    # Refused before the solve: the model has 7,675 actions, a row each.
    assert err == ("mdp: error: the policy table has 7,675 rows or more, too many for a Markdown table "
                   "(at most 1,000), which is for people to read; write CSV or Parquet (--out FILE.csv)\n")
    assert list(tmp_path.iterdir()) == []
    assert main(["policy", "shutbox", "--set", "tiles=1-3", "--out", str(out)]) == 0
    assert out.read_text().startswith("| open ")


def test_a_whole_frame_past_the_markdown_bound_is_refused_too(monkeypatch):
    import io

    import mdp.outputs.formats as core

    monkeypatch.setattr(core, "MARKDOWN_ROWS", 2)
    with pytest.raises(mdp.TooLarge, match=r"^a Markdown table of 3 rows is too large to read \(at "
                                           r"most 2\); write CSV or Parquet \(--out FILE.csv\)$"):
        core._markdown(pl.DataFrame({"x": [1, 2, 3]}), io.BytesIO())


def test_half_is_exact_in_the_table():
    # The shared coin of tests/models.py: the value of betting is exactly 1/2.
    from models import coin

    game = mdp.load_game(coin())
    table = mdp.policy(mdp.solve(mdp.compile(game), exact=True), game)
    assert table.filter(pl.col("action") == "bet")["value_exact"].to_list() == [str(HALF)]


class Scored(Table):
    """:func:`letters` with readable columns: ``name``, and ``score`` for the ends alone."""

    @mdp.hookimpl
    def mdp_state_columns(self, state):
        return {"name": state, "score": self.values.get(state)}


def test_a_column_that_applies_to_no_decision_is_left_out_of_the_policy(tmp_path):
    game = mdp.load_game(Scored(letters().transitions, letters().values))
    solution = mdp.solve(mdp.compile(game))
    assert sorted(solution.model.terminals["score"].to_list()) == [0, 1, 2, 3]  # the ends keep it
    table = mdp.policy(solution, game)
    assert table.columns == ["name", "action", "value", "optimal", "regret"]
    mdp.write_table(mdp.policy_pieces(solution, game), str(tmp_path / "p.parquet"))
    assert pl.read_parquet(tmp_path / "p.parquet").columns == table.columns
