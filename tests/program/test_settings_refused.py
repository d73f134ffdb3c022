"""What --set and --vary cannot mean is refused in one line before any work: a parameter
given twice with two values (a contradiction; the last no longer silently wins), and the
names of load_game's own arguments (variant, plugins), which are no parameters."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

TILES = st.sampled_from(["1-4", "1-5", "1-6", "2-6"])


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=TILES, second=TILES)
def test_a_parameter_set_twice_is_one_value_or_refused(capsys, first, second):
    capsys.readouterr()  # what an earlier example printed
    code = main(["solve", "shutbox", "--set", f"tiles={first}", "--set", f"tiles={second}"])
    err = capsys.readouterr().err
    if first == second:  # the same twice says nothing new
        assert code == 0, err
    else:
        assert code == 2 and err == f"mdp: error: tiles is given twice (tiles={first} and tiles={second}): give it once\n"


@pytest.mark.parametrize("name", ["variant", "plugins"])
@pytest.mark.parametrize("how", [["--set", "{}=x"], ["--vary", "{}=x,y"]])
def test_load_game_s_own_arguments_are_no_parameters(capsys, name, how):
    code = main(["solve", "shutbox", how[0], how[1].format(name)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"mdp: error: {name} is not a parameter of a game") and err.count("\n") == 1


@pytest.mark.parametrize("name", ["variant", "plugins"])
def test_solve_table_refuses_them_too(name):
    with pytest.raises(mdp.ParamError, match=f"{name} is not a parameter"):
        mdp.solve_table("shutbox", {name: ["x", "y"]})
    with pytest.raises(mdp.ParamError, match=f"{name} is not a parameter"):
        mdp.solve_table("shutbox", {"tiles": ["1-4"]}, params={name: "x"})
