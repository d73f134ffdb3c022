"""A game with no end on some path is said to perhaps have none, early, while it is walked:
else it runs silently until the state limit."""

import types
import warnings

import pytest
from models import ENDLESS

import mdp
from mdp.engine import budget
from mdp.program.cli import main

# By hand: every state leads to a new one, so the walk's path holds every state found. The
# watch looks every 1,024 states: at 1,024 it notes the depth, at 2,048 it finds it grown
# (with no wait, as set below), on a path of 2,048 states: 2,047 moves.
WARNING = ("game endless: 2,048 states so far, on paths 2,047 moves deep and growing: the game may have "
           "no end; make every path end (a cap on a score, a limit on turns), or stop sooner with "
           "--max-states N (max_states= in Python)")


@pytest.fixture
def no_wait(monkeypatch):
    monkeypatch.setattr(budget, "ENDLESS_AFTER", 0.0)


def _game(source, name):
    namespace = {}
    exec(source, namespace)
    hooks = {key: value for key, value in namespace.items() if key.startswith("mdp_")}
    return mdp.load_game(types.SimpleNamespace(GAME_NAME=name, **hooks))


@pytest.mark.slow
def test_an_endless_game_is_warned_of_once_while_it_is_walked(no_wait):
    with pytest.warns(mdp.UnboundedWarning) as record, pytest.raises(mdp.TooLarge):
        mdp.compile(_game(ENDLESS, "endless"), max_states=10_000)
    assert [str(w.message) for w in record] == [WARNING]


DEEP = '''
from fractions import Fraction

import mdp


@mdp.hookimpl
def mdp_initial_state():
    return 0


@mdp.hookimpl
def mdp_actions(state):
    return [] if isinstance(state, tuple) else ["on"]


@mdp.hookimpl
def mdp_outcomes(state, action):
    if state < 600:
        return [(1, state + 1)]
    return [(Fraction(1, 5000), ("end", k)) for k in range(5000)]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[1]
'''


@pytest.mark.slow
def test_a_deep_game_with_an_end_is_not_warned_of(no_wait):
    # A path of 600 moves, then 5,000 ends: the depth stops growing within the first 1,024
    # states, and every later look finds it the same.
    with warnings.catch_warnings():
        warnings.simplefilter("error", mdp.UnboundedWarning)
        model = mdp.compile(_game(DEEP, "deep"))
    assert model.n_states == 601 + 5000


@pytest.mark.slow
def test_the_command_line_prints_the_warning_as_one_line(no_wait, tmp_path, capsys):
    path = tmp_path / "endless.py"
    path.write_text(ENDLESS)
    assert main(["solve", str(path), "--max-states", "10000"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"mdp: warning: {WARNING}\n"
                   "mdp: error: game endless: more than 10,000 states; raise the limit with --max-states "
                   "(max_states= in Python)\n")


@pytest.mark.parametrize("action", ["error", "ignore"])
@pytest.mark.slow
def test_a_filter_of_the_users_decides_and_an_error_is_one_line(no_wait, tmp_path, capsys, action):
    # Round 33, U33-05: PYTHONWARNINGS=error made the warning a traceback, exit 1; the
    # user's filter decides, and an error is one line, exit 3 as the default budget's is.
    path = tmp_path / "endless.py"
    path.write_text(ENDLESS)
    with warnings.catch_warnings():
        warnings.simplefilter(action)
        assert main(["solve", str(path), "--max-states", "10000"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"mdp: error: {WARNING}\n" if action == "error" else
                   "mdp: error: game endless: more than 10,000 states; raise the limit with --max-states "
                   "(max_states= in Python)\n")
