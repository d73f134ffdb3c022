"""`mdp advise` prints each column as wide as its widest cell, the action's own columns too
(U35-13: Yahtzee's box names were padded to ten characters, and ``small-straight`` pushed its
row's value and regret out of line): every row as long as the header, the marks aside."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

GAME = '''import mdp

NAMES = {names!r}


@mdp.hookimpl
def mdp_initial_state():
    return ("start",)


@mdp.hookimpl
def mdp_actions(state):
    return list(range(len(NAMES))) if state == ("start",) else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, ("end", action))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[1]


@mdp.hookimpl
def mdp_state_columns(state):
    return {{"at": state[0]}}


@mdp.hookimpl
def mdp_action_columns(state, action):
    return {{"box": NAMES[action], "n": action}}
'''

NAMES = st.lists(st.text(alphabet="abcdefghij-", min_size=1, max_size=20), min_size=1, max_size=5,
                 unique=True)


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES)
def test_every_row_is_as_long_as_its_header(tmp_path_factory, capsys, names):
    game = tmp_path_factory.mktemp("g") / "named.py"
    game.write_text(GAME.format(names=names), encoding="utf-8")
    assert main(["advise", str(game), "at=start"]) == 0
    lines = capsys.readouterr().out.splitlines()[-len(names) - 1:]
    rows = [line.removesuffix("  optimal") for line in lines]
    assert len({len(row) for row in rows}) == 1, lines
    assert sorted(row.split()[0] for row in rows[1:]) == sorted(names)
