"""A game's column is never headed as a column mdp's tables add beside it (round 19, F21: an
outcome column named `cumulative` gave `mdp distribution` two columns headed `cumulative`,
exit 0): such a column is refused in one line naming the hook, or the headers read apart,
in capitals too (round 31, P31-15: `VALUE` beside `value`). Whether two headers read alike
is judged here by unicodedata itself and str.casefold."""

import itertools
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

NUMBER = itertools.count()
GAME = '''from fractions import Fraction
import mdp

GAME_NAME = "headed"


@mdp.hookimpl
def mdp_initial_state(params):
    return "start"


@mdp.hookimpl
def mdp_actions(params, state):
    return ["flip"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    return [(Fraction(1, 2), "heads"), (Fraction(1, 2), "tails")]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    return int(state == "heads")


@mdp.hookimpl
def mdp_state_columns(params, state):
    return {{{name!r}: int(state == "heads")}}


@mdp.hookimpl
def mdp_outcome_columns(params):
    return [{name!r}]
'''
ADDED = ["probability", "cumulative", "exact", "value", "frequency"]
NAMES = st.one_of(st.sampled_from(ADDED),
                  st.sampled_from(ADDED).map(lambda n: "".join(chr(ord(c) + 0xFEE0) for c in n)),
                  st.sampled_from(ADDED).map(str.upper), st.sampled_from(ADDED).map(str.title),
                  st.text("abcelmtuv", min_size=1, max_size=8))


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, command=st.sampled_from([["distribution", "--exact"], ["distribution"]]))
def test_an_outcome_column_is_never_headed_as_a_column_a_table_adds(tmp_path_factory, capsys, name, command):
    where = tmp_path_factory.mktemp("headed")
    game = where / f"headed{next(NUMBER)}.py"
    game.write_text(GAME.format(name=name))
    code = main([command[0], str(game), *command[1:]])
    out, err = capsys.readouterr()
    if code == 2:
        assert err == (f"mdp: error: game headed: mdp_state_columns names a column {name!r}, which mdp's "
                       "tables add themselves (value, value_exact, optimal, regret, regret_exact, probability, "
                       "cumulative, exact, games, frequency); name it otherwise\n"), err
    else:
        head = next(line.split() for line in out.splitlines() if "probability" in line.split())
        headers = [unicodedata.normalize("NFKC", h).casefold() for h in head]
        assert code == 0 and len(set(headers)) == len(headers) and name in head, out
