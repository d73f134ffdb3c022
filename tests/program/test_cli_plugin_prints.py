"""What a game's code prints while a command works goes to standard error wherever standard
output carries something for programs: JSON, or a table (in the format asked for, or the one
standard output gets by default: CSV where it is not a terminal). Before, a noisy hook's lines
landed inside the CSV of ``mdp policy GAME > p.csv``."""

import contextlib
import io
import itertools
import json

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

NOISY = '''
import mdp
print("noise at import")


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("top", 2, mdp.parse_int(1, 5), "the best end")]


@mdp.hookimpl
def mdp_initial_state():
    print("noise", "initial")
    return 0


@mdp.hookimpl
def mdp_actions(state):
    print("noise actions", state)
    return ["a", "b"] if state == 0 else []


@mdp.hookimpl
def mdp_outcomes(state, action, params):
    print("noise outcomes")
    return [(1, 1 if action == "a" else params["top"])]


@mdp.hookimpl
def mdp_terminal_value(state):
    print("noise value")
    return state


@mdp.hookimpl
def mdp_describe():
    print("noise describe")
    return "noisy"
'''

# Each a command whose standard output is for programs, and how to read it back.
COMMANDS = [
    (["policy"], "csv"),
    (["policy", "--format", "csv"], "csv"),
    (["policy", "--format", "json"], "json"),
    (["policy", "--format", "ndjson"], "ndjson"),
    (["solve", "--json"], "json"),
    (["solve", "--vary", "top=2,3"], "csv"),
    (["solve", "--vary", "top=2,3", "--json"], "json"),
    (["distribution", "--json"], "json"),
    (["distribution", "--format", "csv"], "csv"),
    (["simulate", "--games", "3", "--seed", "1", "--json"], "json"),
    (["strategies", "--json"], "json"),
    (["params", "--json"], "json"),
]


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    path = tmp_path_factory.mktemp("noisy") / "noisy.py"
    path.write_text(NOISY)
    return str(path)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(COMMANDS))
@pytest.mark.slow  # half a second or more of CPU
def test_a_hooks_prints_never_land_in_what_standard_output_carries_for_programs(noisy, command):
    argv, kind = command
    # Not a terminal: a table is CSV by default.
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main([argv[0], noisy, *argv[1:]]) == 0
    out.flush()
    text = out.buffer.getvalue().decode()
    assert "noise" not in text
    assert argv[0] == "params" or "noise" in err.getvalue()  # said, on standard error
    if kind == "csv":
        assert pl.read_csv(io.StringIO(text)).height >= 1
    elif kind == "json":
        json.loads(text)
    else:
        assert all(json.loads(line) for line in text.splitlines())


FRESH = itertools.count()

RULE_PLUGIN = '''
import mdp
print("noise at import")


@mdp.hookimpl(wrapper=True)
def mdp_describe():
    return (yield)
'''

PROGRAM_PLUGIN = '''
import mdp
print("noise at import")


@mdp.hookimpl
def mdp_formats():
    return []
'''

# Commands whose standard output is for programs, each with a -p plugin printing as it is
# imported: a rule plugin of Shut the Box, or one of the program's.
GIVEN = [
    (["policy", "shutbox", "--set", "tiles=1-3"], "csv", RULE_PLUGIN),
    (["solve", "shutbox", "--set", "tiles=1-3", "--json"], "json", RULE_PLUGIN),
    (["simulate", "shutbox", "--set", "tiles=1-3", "--games", "3", "--json"], "json", RULE_PLUGIN),
    (["formats", "--json"], "json", PROGRAM_PLUGIN),
    (["games", "--json"], "json", PROGRAM_PLUGIN),
]


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(GIVEN))
def test_what_a_plugin_given_prints_as_it_is_imported_goes_to_standard_error(tmp_path, command):
    argv, kind, source = command
    path = tmp_path / f"p{next(FRESH)}.py"  # a module not imported before: its print happens
    path.write_text(source)
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["-p", str(path), *argv]) == 0
    out.flush()
    text = out.buffer.getvalue().decode()
    assert "noise" not in text and "noise at import" in err.getvalue()
    if kind == "csv":
        assert pl.read_csv(io.StringIO(text)).height >= 1
    else:
        json.loads(text)
