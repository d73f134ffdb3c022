"""The help of ``--out`` says what each command prints without it: the report for a command
that shows one (it said "standard output, as CSV" for every command, while distribution,
advise, simulate and the others print their report there)."""

import io

import polars as pl
import pytest

from mdp.analysis.registry import analyses
from mdp.program.cli import _parser, main


def _out_help(name):
    help_text = _parser(name)._subparsers._group_actions[0].choices[name].format_help()
    return " ".join(help_text.split("--out FILE, -o FILE", 1)[1].split("--format NAME")[0].split())


@pytest.mark.parametrize("name", [n for n, a in analyses().items() if a.vary is None])
def test_the_help_of_out_says_what_is_printed_without_it(name):
    shows = analyses()[name].show is not None
    said = _out_help(name)
    assert ("default: the report on standard output" in said) == shows, said
    assert ("default: standard output, as CSV" in said) == (not shows), said


@pytest.mark.slow  # the first solve imports what the rest share
@pytest.mark.parametrize(("name", "csv"), [("policy", True), ("distribution", False)])
def test_what_is_printed_is_what_the_help_says(capsys, name, csv):
    assert main([name, "shutbox", "--set", "tiles=1-3"]) == 0
    out = capsys.readouterr().out
    assert ("default: standard output, as CSV" in _out_help(name)) == csv
    try:
        table = pl.read_csv(io.StringIO(out))
        read = "value" in table.columns and table.height > 1
    except Exception:  # noqa: BLE001  (a report is no CSV)
        read = False
    assert read == csv
