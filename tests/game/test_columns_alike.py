"""Two of a game's own columns that read alike (other capitals, full-width letters: the one
rule of names, mdp.game.names.one_name) are refused as two of one name are: in one hook, a
state's beside an action's, and a round column beside either (P35-1: ``pts`` beside ``PTS``
made a table of two columns that a reader ignoring case takes for one). Names that read
otherwise are the game's."""

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

GAME = '''
import numpy as np
import mdp
from fractions import Fraction

GAME_NAME = "alike"


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return ["safe", "risky"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "safe":
        return [(1, ("end", 1))]
    return [(Fraction(1, 2), ("end", 0)), (Fraction(1, 2), ("end", 3))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[1]


@mdp.hookimpl
def mdp_state_columns(state):
    return {{name: -1 if state == "start" else state[1] for name in {state!r}}}


@mdp.hookimpl
def mdp_action_columns(state, action):
    return {{name: action for name in {action!r}}} or None


@mdp.hookimpl
def mdp_round_start():
    return 0


@mdp.hookimpl
def mdp_round_rule(ends):
    points = np.array([end[1] for end in ends])

    def rule(states):
        following = np.where(states[:, None] < 2, states[:, None] + 1, -1) + 0 * points
        return mdp.RoundEnds(following, np.broadcast_to(points, following.shape))

    return rule


@mdp.hookimpl
def mdp_round_columns(states):
    return {{{round!r}: states.tolist()}}
'''


def _alike(name):
    """``name`` with each letter as itself, in capitals, or full-width."""
    def letter(c):
        wide = unicodedata.lookup(f"FULLWIDTH LATIN {'CAPITAL' if c.isupper() else 'SMALL'} "
                                  f"LETTER {c.upper()}")
        return st.sampled_from([c, c.swapcase(), wide])
    return st.tuples(*map(letter, name)).map("".join).filter(lambda other: other != name)


def _policy(folder, capsys, state, action=(), round="filled"):
    game = folder / "alike.py"
    game.write_text(GAME.format(state=list(state), action=list(action), round=round), encoding="utf-8")
    code = main(["policy", str(game), "--within", "all"])
    return code, capsys.readouterr()


SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("where", ["state", "state and action", "round"])
@SETTINGS
@given(data=st.data())
def test_two_columns_that_read_alike_are_refused(tmp_path_factory, capsys, where, data):
    other = data.draw(_alike("pts"), label="other")
    given = {"state": (["pts", other], [], "filled"), "state and action": (["pts"], [other], "filled"),
             "round": (["pts"], [], other)}[where]
    code, said = _policy(tmp_path_factory.mktemp("g"), capsys, *given)
    assert code == 2 and said.out == "", said
    assert said.err.startswith("mdp: error: game alike: ") and said.err.count("\n") == 1
    assert ("'pts'" in said.err and repr(other) in said.err
            and ("read alike" in said.err or "in any capitals" in said.err))


def test_columns_that_read_otherwise_are_the_games(tmp_path, capsys):
    code, said = _policy(tmp_path, capsys, ["pts", "pts2"], ["act"], "filled")
    assert code == 0, said.err
    assert said.out.splitlines()[0] == "filled,pts,pts2,act,value,optimal,regret"
