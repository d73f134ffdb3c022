"""A table over rule sets (``--vary``) shows the values of a parameter whatever its parser
gives, in every format: a rule plugin's parameter parsed into a list ended ``mdp match
--vary lst=1,2`` with "the csv format raised ComputeError", after every match was solved
(round ten). A column of values that not every format holds is their text."""

from __future__ import annotations

import itertools
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

# Text shown on one line (a control character in a value is refused: tests/program/test_cli_param_shown.py).
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.text(max_size=5).filter(lambda t: t.replace(" ", "").isprintable()),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.fractions(max_denominator=9).map(Fraction))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.tuples(SCALARS, SCALARS),
                   st.dictionaries(st.text(max_size=3), SCALARS, max_size=2),
                   st.sets(st.integers(0, 9))).filter(lambda v: v is not None)  # a parser gives a value
PLUGIN = """import mdp
from fractions import Fraction

GAME = "shutbox"
VALUES = {values!r}


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("v", "0", lambda s: VALUES[int(s)], "a value of any type")]
"""
made = itertools.count()


def _read_as_another(values: list) -> bool:
    """Whether a number is recorded by a text (``2``, a fraction's ``1``) that the plugin's
    parser (a code: the place of its value) reads as another value, as mdp tells values
    apart (tests/game/test_param_set_recorded.py)."""
    from mdp.game.params import alike

    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            continue
        try:
            code = int(str(v))
        except ValueError:
            continue
        if -len(values) <= code < len(values) and alike(values[code], v) is False:
            return True
    return False


def _as_text(values: list) -> list:
    """What the table shows: the values where they are all of one kind every format holds,
    else each as text."""
    def kind(v):
        if isinstance(v, (str, bool)):
            return type(v)
        return "number" if isinstance(v, float) or isinstance(v, int) and -2**63 <= v < 2**63 else "other"
    kinds = {kind(v) for v in values}
    plain = len(kinds) == 1 and "other" not in kinds
    return [v if plain else str(v) for v in values]


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(VALUES, min_size=2, max_size=3, unique_by=repr))
@example([0, 0.0])  # an int and a float of one value: a number column holds both
@pytest.mark.parametrize("command", ["solve", "match"])
def test_a_varied_parameter_of_any_type_shows_in_every_format(tmp_path, capsys, command, values):
    plugin = tmp_path / f"any_value_{next(made)}.py"  # a module of its own each time
    plugin.write_text(PLUGIN.format(values=values))
    vary = ["--vary", "v=" + ",".join(str(i) for i in range(len(values)))]
    if _read_as_another(values):  # a whole number recorded, which --set reads as a code
        assert main([command, "shutbox", "-p", str(plugin), "--set", "tiles=1-3", *vary]) == 2
        assert "give the parameter a show that writes the text --set takes back" in capsys.readouterr().err
        return
    for fmt in sorted(mdp.formats()):
        out = tmp_path / f"{plugin.stem}.{fmt}"
        code = main([command, "shutbox", "-p", str(plugin), "--set", "tiles=1-3", *vary,
                     "--format", fmt, "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 0, err
        assert err == f"{len(values)} rows written to {out}\n"
    table = mdp.solve_table("shutbox", {"v": [str(i) for i in range(len(values))]},
                            params={"tiles": "1-3"}, plugins=[str(plugin)])
    assert table["v"].to_list() == _as_text(values)
    back = pl.read_parquet(tmp_path / f"{plugin.stem}.parquet")
    expected = _as_text(values)
    # match lists the fairest first: every rule set here is the same game, as fair, so the
    # ties keep the order given. A number column shows ints among floats as floats (0 as 0.0).
    assert back["v"].to_list() == expected
