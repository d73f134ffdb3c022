"""An analysis's table in pieces (mdp.Pieces) is made again where a piece widens its types;
each making must give the same pieces (round 19, F19: a make that gave a generator already
taken, or fewer pieces the second time, lost rows and said "2 rows written", exit 0), and
what its make does wrong is the analysis's, its plugin named (F20: "the csv format raised")."""

import itertools
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
REROLL = str(ROOT / "docs" / "examples" / "reroll.py")
NUMBER = itertools.count()

PLUGIN = """import polars as pl
import mdp

SIZES, WIDE, KIND, TOTAL = {sizes!r}, {wide!r}, {kind!r}, {total!r}


def pieces(call):
    sizes = list(SIZES)
    if call and KIND == "fewer":
        sizes = sizes[:-1]
    if call and KIND == "resized":
        sizes[-1] += 1
    start = 0
    for at, size in enumerate(sizes):
        values = [start + i + (0.5 if at == WIDE else 0) for i in range(size)]
        start += size
        yield pl.DataFrame({{"a": values}})


def run(solution, game):
    calls = []
    shared = pieces(0)

    def make():
        calls.append(1)
        return shared if KIND == "shared" else pieces(len(calls) - 1)

    return mdp.Pieces(make, pl.DataFrame({{"a": [0]}}), total=TOTAL)


@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("pcs", "pieces", run)]
"""


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(1, 3), min_size=1, max_size=4), wide=st.integers(0, 4),
       kind=st.sampled_from(["fresh", "shared", "fewer", "resized"]), off=st.sampled_from([None, 0, 0, 1, -1]),
       suffix=st.sampled_from([".csv", ".md"]))
def test_a_table_in_pieces_is_written_whole_or_refused(tmp_path_factory, capsys, sizes, wide, kind, off, suffix):
    """Never a part of the table written: every row of the first making, or one line naming
    the plugin's analysis and no file. A widening piece, with a make that gives the pieces
    once (a generator) or other pieces the second time, is refused, and a total not made."""
    where = tmp_path_factory.mktemp("pieces")
    total = None if off is None else sum(sizes) + off
    plugin = where / f"pcs{next(NUMBER)}.py"
    plugin.write_text(PLUGIN.format(sizes=sizes, wide=wide, kind=kind, total=total))
    out = where / f"p{suffix}"  # (Markdown takes the whole table: round 32, P32-13)
    code = main(["-p", str(plugin), "pcs", REROLL, "--out", str(out)])
    err = capsys.readouterr().err
    start = [0, *itertools.accumulate(sizes)]
    rows = [start[at] + i + (0.5 if at == wide else 0) for at, size in enumerate(sizes) for i in range(size)]
    made_again = wide < len(sizes)  # a piece of floats widens the sample's integers
    if code == 0:
        written = pl.read_csv(out)["a"].to_list() if suffix == ".csv" else \
            [float(line.strip("| ")) for line in out.read_text().splitlines()[2:]]
        assert written == rows and err.endswith(f"{len(rows)} row{'s' * (len(rows) != 1)} written to {out}\n")
    else:
        assert code == 2 and err.count("\n") == 1 and not out.exists(), err
        assert err.startswith(f"mdp: error: the table of plugin {plugin}'s analysis pcs: "), err
    assert (code == 2) == (bool(off) or made_again and kind != "fresh"), err


MAKES = {"raise": ("def make():\n    yield pl.DataFrame({'a': [1]})\n    raise ValueError('mid-stream')\n",
                   "raised ValueError: mid-stream"),
         "dict": ("def make():\n    yield {'a': 1}\n", "gave a piece of type dict, not a table (a Polars DataFrame)"),
         "lazy": ("def make():\n    yield pl.DataFrame({'a': [1]}).lazy()\n",
                  "gave a piece of type LazyFrame, not a table (a Polars DataFrame)"),
         "none": ("def make():\n    yield None\n", "gave a piece of type NoneType, not a table (a Polars DataFrame)"),
         "exit": ("def make():\n    raise SystemExit(0)\n", "raised SystemExit: 0"),
         "columns": ("def make():\n    yield pl.DataFrame({'b': [1]})\n",
                     "the table of {plugin}'s analysis pcs: some rows have no column 'a'")}


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(make=st.sampled_from(sorted(MAKES)), suffix=st.sampled_from([".csv", ".parquet", ".json"]))
def test_what_a_pieces_make_does_wrong_is_its_analysis_fault(tmp_path_factory, capsys, make, suffix):
    where = tmp_path_factory.mktemp("pieces")
    plugin = where / f"bad{next(NUMBER)}.py"
    plugin.write_text("import polars as pl\nimport mdp\n\n" + MAKES[make][0] +
                      "\n\ndef run(solution, game):\n    return mdp.Pieces(make, pl.DataFrame({'a': [0]}))\n\n"
                      "@mdp.hookimpl\ndef mdp_analyses():\n    return [mdp.Analysis('pcs', 'pieces', run)]\n")
    out = where / f"p{suffix}"
    assert main(["-p", str(plugin), "pcs", REROLL, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    said = MAKES[make][1].format(plugin=f"plugin {plugin}")
    expected = f"mdp: error: {said}" if said.startswith("the table") else \
        f"mdp: error: plugin {plugin}'s analysis pcs {said}"
    assert err.startswith(expected) and err.count("\n") == 1 and not out.exists(), err


@settings(max_examples=40, deadline=None)
@given(whole=st.lists(st.integers(-2**63, 2**63 - 1) | st.integers(-2**53, 2**53), min_size=1, max_size=3),
       floats=st.lists(st.floats(-1e3, 1e3, allow_nan=False).filter(lambda f: not f.is_integer()),
                       min_size=1, max_size=3), ints_first=st.booleans())
def test_whole_numbers_widened_to_floats_are_kept_whole_or_refused(whole, floats, ints_first):
    """Round 33, P33-03: a piece of floats widened a column of whole numbers to floats, and
    2**60 + 1 was written 2**60, without a word; refused where a float would round one."""
    import mdp

    pieces = [pl.DataFrame({"x": whole}), pl.DataFrame({"x": floats})]
    pieces = pieces if ints_first else pieces[::-1]
    table = mdp.Pieces(lambda: iter([p.clone() for p in pieces]), pieces[0].head(1), name="mixed")
    if all(int(float(v)) == v for v in whole):
        assert table.frame()["x"].to_list() == [float(v) for v in (whole + floats if ints_first else floats + whole)]
    else:
        with pytest.raises(mdp.ModelError, match=r"^mixed: column 'x' holds whole numbers in some pieces "
                                                 r"and floats in others, and a column of floats would round"):
            table.frame()


@pytest.mark.parametrize("suffix", [".csv", ".md", ".json"])
def test_a_piece_changed_in_place_after_it_was_given_is_written_as_given(tmp_path, suffix):
    """Round 33, P33-11: a make that yields one table changed in place, piece after piece,
    was written right by the formats that stream and as its last piece over and over by
    Markdown, which keeps them all."""
    import mdp

    def make():
        table = pl.DataFrame({"i": [0, 0], "x": [0, 0]})
        for i in range(4):
            table[0, "i"], table[1, "i"], table[0, "x"], table[1, "x"] = i, i, 10 * i, 10 * i + 1
            yield table

    out = tmp_path / f"t{suffix}"
    mdp.write_table(mdp.Pieces(make, pl.DataFrame({"i": [0], "x": [0]}), name="reused", total=8), str(out))
    rows = pl.read_csv(out) if suffix == ".csv" else pl.read_json(out) if suffix == ".json" else \
        pl.DataFrame([[int(c) for c in line.strip("| ").split(" | ")] for line in out.read_text().splitlines()[2:]],
                     schema=["i", "x"], orient="row")
    assert rows["x"].to_list() == [0, 1, 10, 11, 20, 21, 30, 31]
