"""Small games drawn at random, their states coming back or not, their values anywhere in 64
bits and beyond, maximized or minimized: each is exported as a PRISM model that Storm reads,
whose property Storm's exact mode values as ``mdp solve --exact`` does, or refused in one line
(round 28: a loop a play may keep to forever made Rmax infinite in Storm; an expected value
past 64 bits, and a game of values all 0, written in files Storm cannot read)."""

import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from models import Sensed
from test_prism import storm, storm_value

import mdp
from mdp.outputs.prism import write_prism

VALUES = st.sampled_from([0, 1, -1, 2**62, 2**63 - 1, -2**63 + 1, -2**63, 2**64, Fraction(1, 3)]) \
    | st.integers(-5, 5)


@st.composite
def games(draw):
    """``{state: {action: [(chance, next)]}}`` over states 0..n-1 and two ends; a move may
    stay where it is (a loop a play may keep to), a gamble come back."""
    n = draw(st.integers(1, 3))
    places = st.sampled_from([*range(n), "won", "lost"])
    table = {}
    for s in range(n):
        actions = {}
        for k in range(draw(st.integers(1, 3))):
            targets = draw(st.lists(places, min_size=1, max_size=3))
            weights = draw(st.lists(st.integers(1, 3), min_size=len(targets), max_size=len(targets)))
            actions[f"a{k}"] = [(Fraction(w, sum(weights)), t) for w, t in zip(weights, targets)]
        table[s] = actions
    return table, {"won": draw(VALUES), "lost": draw(VALUES)}


@pytest.mark.slow  # Storm builds and checks a model per draw
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=games(), sense=st.sampled_from(["max", "min"]))
def test_storm_values_the_export_as_mdp_does_or_it_is_refused(tmp_path_factory, drawn, sense):
    storm()
    table, values = drawn
    try:
        solution = mdp.solve(mdp.compile(mdp.load_game(Sensed(table, values, sense))), exact=True)
    except mdp.ModelError:  # no play that ends from some state: nothing to export
        event("no play ends")
        return
    path = tmp_path_factory.mktemp("prism") / "model.prism"
    try:
        write_prism(solution.model, str(path))
    except mdp.ParamError as error:
        assert "\n" not in str(error) and "it is not exported" in str(error)
        assert not path.exists()
        event("refused: " + str(error).split(": ")[1][:20])
        return
    event("checked by Storm")
    assert storm_value(path)[0] == solution.value


STAYING = '''
import mdp
@mdp.hookimpl
def mdp_initial_state():
    return "s"
@mdp.hookimpl
def mdp_actions(state):
    return ["wait", "stop"] if state == "s" else []
@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "s" if action == "wait" else "stopped")]
@mdp.hookimpl
def mdp_terminal_value(state):
    return 1
'''


def test_the_command_refuses_a_play_that_may_go_round_for_ever(tmp_path):
    (tmp_path / "loop.py").write_text(STAYING)
    done = subprocess.run([sys.executable, "-m", "mdp", "export", "loop.py", "--out", "l.prism"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == (
        "mdp: error: game loop: from state 's' a play may go round for ever, which PRISM's "
        "Rmax counts as worth infinity, where mdp takes the best play that ends; it is not "
        "exported\n")
    assert list(tmp_path.iterdir()) == [tmp_path / "loop.py"]
