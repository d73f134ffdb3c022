"""``mdp distribution --at-least T --json`` says the value of the play it shows, toward T: its
``value``, ``objective`` and ``exact`` are those of ``mdp solve --at-least T --json``, not
best-mean play's (the two commands answer for one play)."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

TWO_BOXES = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


def _json(capsys, argv):
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 20), st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_distribution_toward_a_total_is_valued_as_solve_values_it(capsys, total, exact):
    more = ["--exact"] if exact else []
    solved = _json(capsys, ["solve", TWO_BOXES, "--at-least", str(total), "--json", *more])
    shown = _json(capsys, ["distribution", TWO_BOXES, "--at-least", str(total), "--json", *more])
    for key in ("objective", "value", "at_least", *(["exact"] if exact else [])):
        assert shown[key] == solved[key], key
    assert shown["objective"] == f"chance of at least {total} points"
    # The chance is the outcomes' own: the share of the totals of at least T.
    assert abs(sum(row["probability"] for row in shown["outcomes"] if row["points"] >= total)
               - shown["value"]) < 1e-12


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 20), st.integers(1, 6))
def test_the_advice_toward_a_total_names_it_in_its_table(tmp_path_factory, capsys, total, points):
    # FACE filled has earned 1 to 6 points (its face); its own tests refuse others.
    # Before: advise --out wrote the chances without the total they are of, nor the points.
    import polars as pl

    out = tmp_path_factory.mktemp("advice") / "a.csv"
    argv = ["advise", TWO_BOXES, "filled=FACE", "throws_left=1", "face=4", "--at-least", str(total),
            "--points", str(points), "--out", str(out)]
    assert main(argv) == 0
    table = pl.read_csv(out)
    assert table.columns[-2:] == ["at_least", "points"]
    assert table["at_least"].to_list() == [total] * table.height
    assert table["points"].to_list() == [points] * table.height


ADVISED = [
    (["advise", TWO_BOXES, "filled=FACE", "throws_left=1", "face=4", "--at-least", "14", "--points", "2"],
     {"at_least": 14, "points": 2}),
    (["advise", TWO_BOXES, "filled=", "throws_left=1", "face=4", "--after", "9"],
     {"after_1": "9", "points": 0}),
    (["advise", "shutbox", "--set", "tiles=1-4", "open=1 2 3 4", "roll=7", "--after", "6",
      "--after", "3"], {"after_1": "6", "after_2": "3"}),
]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ADVISED), st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_advice_says_what_its_values_are_against_in_json_and_table_alike(capsys, case, exact):
    """Advice toward a total, or for a later player of a match, is not an expected total: its
    --json and its table say what it is against, the same keys (round 17, R17-N6: --json had
    neither at_least nor points, and --after was said nowhere)."""
    import io

    import polars as pl

    argv, against = case
    argv = [*argv, *(["--exact"] if exact else [])]
    shown = _json(capsys, [*argv, "--json"])
    recorded = ("game", "variant", "params", "plugins", "rules", "state", "actions")
    assert {k: shown[k] for k in shown if k not in recorded} == against
    capsys.readouterr()
    assert main([*argv, "--format", "csv"]) == 0
    table = pl.read_csv(io.StringIO(capsys.readouterr().out), infer_schema=False)
    assert table.columns[-len(against):] == list(against)
    for name, value in against.items():
        assert table[name].to_list() == [str(value)] * table.height
