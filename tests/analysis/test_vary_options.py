"""Every option of an analysis that takes ``--vary`` (``mdp match``) acts on the table, read as
its parser reads it: ``--players 3`` was refused as "needs 2 players or more, not '3'" (the
text handed on unread), and ``--max-memory`` was a traceback (handed twice). Each table is
compared with the one the Python API makes from the same values."""

import numpy as np
import polars as pl
import pytest

import mdp
from mdp.analysis.registry import analyses
from mdp.program.cli import main

# A value of each option, as typed and as Python takes it; a new option of a --vary analysis
# fails the first test until it is given one here.
SAMPLES = {"players": ("3", 3), "max_memory": ("4G", 4 * 2**30)}
VARIED = [(name, a) for name, a in analyses().items() if a.vary is not None]


def test_every_option_of_a_varying_analysis_has_a_sample():
    assert VARIED
    for _, analysis in VARIED:
        assert {o.name for o in analysis.options} <= SAMPLES.keys()


@pytest.mark.parametrize(("name", "option"), [(name, o.name) for name, a in VARIED for o in a.options])
def test_an_option_given_with_vary_acts_as_in_python(tmp_path, capsys, name, option):
    typed, value = SAMPLES[option]
    out = tmp_path / "t.csv"
    assert main([name, "shutbox", "--vary", "tiles=1-3,1-4", f"--{option.replace('_', '-')}", typed,
                 "--out", str(out)]) == 0, capsys.readouterr().err
    table = getattr(mdp, f"{name}_table")("shutbox", {"tiles": ["1-3", "1-4"]}, **{option: value})
    assert pl.read_csv(out).equals(pl.read_csv(table.write_csv().encode()))


def test_a_number_of_players_is_refused_saying_what_it_must_be(capsys):
    assert main(["match", "shutbox", "--vary", "tiles=1-3,1-4", "--players", "1"]) == 2
    assert capsys.readouterr().err == "mdp: error: --players 1: expected a whole number of 2 or more\n"
    with pytest.raises(mdp.ParamError, match=r"^players=True: a match needs a whole number of 2"):
        mdp.match_table("shutbox", {"tiles": ["1-3"]}, players=True)
    # NumPy's whole numbers are whole numbers (was: "needs 2 players or more, not np.int64(3)")
    assert mdp.match_table("shutbox", {"tiles": ["1-3"]}, players=np.int64(3)).columns[-1] == "player_3"


# Two values of each parameter that Shut the Box's match alone reads.
MATCH_ALONE = {"shut_pays": ["1", "2"], "shut_wins": ["yes", "no"]}


def test_solving_over_a_parameter_of_the_match_alone_is_refused_before_the_work(capsys):
    """Solved, each value of a parameter that only a match reads is one game: the table's rows
    were that game solved again, alike; refused in one line naming it, before any compile."""
    from mdp.analysis.match_rules import match_params

    assert set(match_params(mdp.load_game("shutbox"))) == MATCH_ALONE.keys()
    for name, values in MATCH_ALONE.items():
        assert main(["solve", "shutbox", "--vary", f"{name}={','.join(values)}"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"mdp: error: parameter {name} is read by a match alone "), err
        # the match itself takes it (the fair stake of the rule set)
        assert mdp.match_table("shutbox", {name: values}, params={"tiles": "1-3"}).height == 2
