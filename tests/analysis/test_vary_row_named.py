"""A ``--vary`` grid is checked whole before any row is solved; where the rules of one row are
refused and several parameters vary, the line names that row (round 32, U32-01: ``dice=1,2,3``
by ``one_die=never,always`` was refused for ``one_die=always`` alone, which is right beside
two or three dice). Generated: grids of Shut the Box's dice and one_die in any order, the
refused row named as the first of the grid that its game's check refuses."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["1", "2", "3"]), min_size=1, max_size=3, unique=True),
       st.lists(st.sampled_from(["never", "always"]), min_size=1, max_size=2, unique=True),
       st.booleans(), st.sampled_from(["solve", "match"]))
def test_the_row_refused_is_named(capsys, dice, one_die, dice_first, command):
    vary = {"dice": dice, "one_die": one_die}
    names = ["dice", "one_die"] if dice_first else ["one_die", "dice"]
    argv = [command, "shutbox", "--set", "tiles=1-4", *(a for n in names for a in ("--vary", f"{n}={','.join(vary[n])}"))]
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    rows = [dict(zip(names, values)) for values in itertools.product(*(vary[n] for n in names))]
    bad = [row for row in rows if row["dice"] == "1" and row["one_die"] == "always"]
    if not bad:
        assert code == 0, err
        return
    row = ", ".join(f"{n}={bad[0][n]}" for n in names)
    assert code == 2 and out == "" and err.startswith(f"mdp: error: vary: the row {row}: parameter one_die=always"), err
