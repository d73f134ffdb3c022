"""``mdp policy GAME --within COLUMN=VALUE`` writes the same table in every format: a
Markdown table (--format markdown, or --out FILE.md) was refused, its round states looked for
by the round columns of no game ("filled is no round column of two-boxes (its round columns:
round_state)"), since the count of its rows, checked before the solve, did not have the game.
Generated round states named by their columns, written in each format the program offers."""

from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.registry import formats
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
TWO_BOXES = str(ROOT / "docs" / "examples" / "two_boxes.py")
GAME = mdp.load_game(TWO_BOXES)
PLAYED = mdp.policy(mdp.solve(mdp.compile(GAME)), GAME)  # round states played from, by column
NAMED = sorted({f for f, r in zip(PLAYED["filled"], PLAYED["round"]) if r is not None})


def _rows(path, name):
    """The rows of a table written in the format ``name``, read back."""
    if name == "markdown":
        return len(path.read_text().splitlines()) - 2  # less the header and its rule
    read = {"csv": pl.read_csv, "parquet": pl.read_parquet, "json": pl.read_json,
            "ndjson": pl.read_ndjson}[name]
    return read(path).height


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(formats()))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(filled=st.sampled_from(NAMED), by_extension=st.booleans())
def test_the_policy_within_named_round_states_is_written_in_every_format(name, tmp_path, capsys,
                                                                         filled, by_extension):
    within = f"filled={filled!r}" if filled else "filled=''"
    expected = mdp.policy(mdp.solve(mdp.compile(GAME)), GAME, within={"filled": filled}).height
    out = tmp_path / f"w{formats()[name].extensions[0]}"
    chosen = [] if by_extension else ["--format", name]
    assert main(["policy", TWO_BOXES, "--within", within, "--out", str(out), *chosen]) == 0, \
        capsys.readouterr().err
    assert _rows(out, name) == expected > 0
