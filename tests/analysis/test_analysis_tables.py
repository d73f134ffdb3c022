"""An analysis's table is checked where the analysis returns it: a column no format can write
(Python objects, nested values, dates...) is the analysis's fault, named as its plugin's, not
the format's; a table that passes is written by every format. A ``SystemExit`` of a plugin's
analysis names the plugin."""

import datetime
import decimal

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main
from mdp.program.registry import plugins

COLUMNS = {  # a column of each kind of Polars type, as an analysis might return it
    "int": pl.Series([1, -2], dtype=pl.Int64),
    "uint8": pl.Series([1, 2], dtype=pl.UInt8),
    "float": pl.Series([0.5, float("nan")]),
    "bool": pl.Series([True, False]),
    "text": pl.Series(["a", "b,c"]),
    "null": pl.Series([None, None]),
    "categorical": pl.Series(["x", "y"], dtype=pl.Categorical),
    "object": pl.Series([object(), object()], dtype=pl.Object),
    "list": pl.Series([[1], [2, 3]]),
    "struct": pl.Series([{"a": 1}, {"a": 2}]),
    "date": pl.Series([datetime.date(2020, 1, 1)] * 2),
    "duration": pl.Series([datetime.timedelta(1)] * 2),
    "binary": pl.Series([b"a", b"b"]),
    "decimal": pl.Series([decimal.Decimal("1.5")] * 2),
}


class Tables:
    """An analysis ``t`` whose table holds the columns it is set to."""

    def __init__(self):
        self.frame = None
        self.exit = False

    @mdp.hookimpl
    def mdp_analyses(self):
        def run(solution, game):
            if self.exit:
                raise SystemExit(0)
            return self.frame

        def vary(game, values, **settings):
            return self.frame

        return [mdp.Analysis("t", "a table", run), mdp.Analysis("v", "a table", run, vary=vary)]


@pytest.fixture
def tables():
    plugin = Tables()
    plugins().register(plugin, name="tables")
    yield plugin
    plugins().unregister(plugin)


@pytest.fixture(scope="module")
def solved():
    game = mdp.load_game("shutbox", tiles="1-2")
    return mdp.solve(mdp.compile(game)), game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(sorted(COLUMNS)), min_size=1, max_size=4, unique=True))
@pytest.mark.slow  # half a second or more of CPU
def test_a_table_every_format_writes_or_the_analysis_is_blamed(tables, solved, tmp_path_factory, kinds):
    tables.frame = pl.DataFrame([COLUMNS[kind].alias(kind) for kind in kinds])
    try:
        table = mdp.analyse(*solved[:1], "t", solved[1])
    except mdp.ModelError as error:
        first = next(kind for kind in kinds if kind not in
                     {"int", "uint8", "float", "bool", "text", "null", "categorical", "decimal"})
        assert str(error).startswith(f"plugin tables's analysis t gave a table whose column {first!r} holds ")
        return
    folder = tmp_path_factory.mktemp("formats")
    for fmt in mdp.formats().values():  # every format writes what a table may hold
        with open(folder / f"t{fmt.extensions[0]}", "wb") as file:
            fmt.dump(table, file, str(file.name))
        assert (folder / f"t{fmt.extensions[0]}").stat().st_size > 0


def test_a_table_no_format_writes_is_the_analysis_s_fault_on_the_command_line(tables, tmp_path, capsys):
    tables.frame = pl.DataFrame({"a": pl.Series([object()], dtype=pl.Object)})
    for out in ("t.csv", "t.md", "t.parquet"):  # before: blamed on csv; markdown wrote "<object ...>"
        assert main(["t", "shutbox", "--set", "tiles=1-2", "--out", str(tmp_path / out)]) == 2
        assert capsys.readouterr().err == (
            "mdp: error: plugin tables's analysis t gave a table whose column 'a' holds Object: a "
            "table holds numbers, true or false, text and empty values, which every format writes\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("made", [5, None, [1, 2], pl.DataFrame({"a": pl.Series([object()], dtype=pl.Object)})])
@pytest.mark.parametrize("how", [[], ["--json"], ["--out", "t.parquet"], ["--format", "markdown"]])
def test_a_table_of_vary_is_checked_as_one_of_run(tables, tmp_path, monkeypatch, capsys, made, how):
    """What an analysis's vary gave was written unchecked: blamed on mdp's own formats ("the
    csv format raised ..."), or, with --json, an object written as its repr, exit 0."""
    monkeypatch.chdir(tmp_path)
    tables.frame = made
    assert main(["v", "shutbox", "--vary", "tiles=1-2,1-3", *how]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: plugin tables's analysis v gave ") and " through vary" in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_system_exit_of_a_plugin_s_analysis_names_the_plugin(tables, capsys):
    tables.exit = True
    assert main(["t", "shutbox", "--set", "tiles=1-2"]) == 2
    assert capsys.readouterr().err == ("mdp: error: plugin tables's analysis t raised SystemExit(0); "
                                       "an analysis never ends mdp\n")
