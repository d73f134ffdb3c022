"""States that come back to one another with a chance close to 1, in a ring of several
(round 19, F30): value iteration settled on the values of the float form of the game, whose
``1 - p`` holds few digits, and a value was 3e-4 off while the residual said 2e-16. A small
cyclic layer is now solved from the chances of leaving (mdp/engine/rings.py), as a state's
return to itself is (mdp/engine/loops.py); checked against the exact solve (policy iteration
in rationals, an independent route), and against values worked out by hand."""

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from models import HandedOver

import mdp
from mdp.program.cli import main

# A ring of K states: from state i, "go" on to i + 1 (mod K) with chance W/(W+1), else to an
# end worth ENDS[i]; state 0 may also "quit" for QUIT. By hand, where every end is worth 1
# and quitting 0, each value is 1 (every play of "go" ends, at an end worth 1).
RING = '''
from fractions import Fraction
import mdp
W, ENDS, QUIT = {w!r}, {ends!r}, {quit!r}
K = len(ENDS)
@mdp.hookimpl
def mdp_initial_state(params):
    return 0
@mdp.hookimpl
def mdp_actions(params, state):
    if isinstance(state, str):
        return []
    return ["go", "quit"] if state == 0 else ["go"]
@mdp.hookimpl
def mdp_outcomes(params, state, action):
    if action == "quit":
        return [(1, "quit")]
    return [(Fraction(W, W + 1), (state + 1) % K), (Fraction(1, W + 1), f"end {{state}}")]
@mdp.hookimpl
def mdp_terminal_value(params, state):
    return QUIT if state == "quit" else ENDS[int(state.split()[1])]
@mdp.hookimpl
def mdp_strategies(params):
    return [mdp.Strategy.per_state("go", "always go on", lambda state, actions: [
        1 if action == "go" else 0 for action in actions])]
'''


def _game(folder, w, ends, quit):
    path = folder / "ring.py"
    path.write_text(RING.format(w=w, ends=ends, quit=quit))
    return path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(w=st.sampled_from([10**3, 10**6, 10**9, 10**12, 10**14]) | st.integers(1, 10**13),
       ends=st.lists(st.integers(0, 9), min_size=1, max_size=5), quit=st.integers(0, 9))
# Quitting is worth 5 and going on 5 + 2e-10: the gain of going on at one step is of the order
# of the chance of leaving squared (1e-18), below the values' rounding, and shows only once
# round the ring (mdp/engine/rings.py tries the actions within the rounding too).
@example(w=10**9, ends=[9, 0, 7, 1, 8], quit=5)
@pytest.mark.slow  # half a second or more of CPU
def test_a_slow_ring_is_solved_as_the_exact_solve_says(tmp_path_factory, w, ends, quit):
    model = mdp.compile(mdp.load_game(str(_game(tmp_path_factory.mktemp("ring"), w, ends, quit))))
    exact = mdp.solve(model, exact=True)
    floats = mdp.solve(model)
    assert floats.value == pytest.approx(float(exact.value), rel=1e-12, abs=1e-12)
    assert floats.residual <= 1e-12 * max(1, *ends, quit)  # relative to the largest end


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("strategy", [[], ["--strategy", "go"]])
def test_a_slow_ring_of_ends_worth_one_is_worth_one(tmp_path, capsys, k, strategy):
    """The finding's game: every end worth 1 (by hand, every value 1), W = 10**12."""
    game = _game(tmp_path, 10**12, [1] * k, 0)
    assert main(["solve", str(game), "--json", *strategy]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(1.0, rel=1e-14)


def test_the_exact_solve_agrees_by_hand():
    """The ring's values by hand, for K = 2, ends 1 and 3, W = 10**12, no quitting worth it:
    v0 = p v1 + q 1, v1 = p v0 + q 3 (p = W/(W+1), q = 1/(W+1)), so v0 = (q + 3 p q) / (1 - p^2)
    = (1 + 3p) / (1 + p)."""
    p = Fraction(10**12, 10**12 + 1)
    assert (1 + 3 * p) / (1 + p) == Fraction(4 * 10**12 + 1, 2 * 10**12 + 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(w=st.sampled_from([10**3, 10**6, 10**9, 10**12]) | st.integers(1, 10**12),
       ends=st.lists(st.integers(0, 9), min_size=1, max_size=5), quit=st.integers(0, 9),
       strategy=st.sampled_from(["go", None]))
# Going on round a ring of one is worth 1 - 1e-12, quitting 1: within the tie of one step,
# but played for ever, going on loses all (it ended at 0 while the value said 1).
@example(w=10**12, ends=[0], quit=1, strategy=None)
@pytest.mark.slow  # half a second or more of CPU
def test_how_a_slow_ring_ends_is_followed_as_the_exact_solve_says(tmp_path_factory, w, ends, quit, strategy):
    """The chance of each end, forward, under a strategy and under optimal play: a ring left
    with a chance of 1e-9 a step took a billion sweeps and was refused, "some play may never
    end" (round 28, P28-09); a small cyclic layer's flow is solved by elimination, as its
    values are. Optimal play in floats ends as its value says: its mean is the value."""
    game = mdp.load_game(str(_game(tmp_path_factory.mktemp("ring"), w, ends, quit)))
    model = mdp.compile(game)
    solved = [mdp.solve(model, exact=exact) if strategy is None else
              mdp.evaluate(model, strategy, game=game, exact=exact) for exact in (True, False)]
    exact, floats = (mdp.distribution(s, game) for s in solved)
    mean = sum(v * p for v, p in zip(floats["value"].to_list(), floats["probability"].to_list()))
    assert mean == pytest.approx(solved[1].value, rel=1e-9, abs=1e-9)
    if strategy is None and exact["value"].to_list() != floats["value"].to_list():
        return  # optimal plays that tie exactly may end apart: each one's mean is its value
    assert floats["value"].to_list() == exact["value"].to_list()
    for chance, fraction in zip(floats["probability"].to_list(), exact["exact"].to_list(), strict=True):
        assert chance == pytest.approx(float(Fraction(fraction)), rel=1e-12, abs=1e-15)


class Pass(HandedOver):
    """Two players: ``go`` hands the state to the other with chance W/(W+1), else the mover
    loses; ``stop`` wins with chance ``c``. At c = 1/2, by hand, v = max(p (1 - v), 1/2) =
    1/2, ``stop`` alone optimal; ``go`` is short of it by q/2 = 5e-13 a step, within the tie
    of one step, and played by both for ever is a play whose value sweeps cannot settle."""

    GAME_NAME = "pass"

    def __init__(self, c):
        p = Fraction(10**12, 10**12 + 1)
        super().__init__({"s": {"go": [(p, "s"), (1 - p, "lost")], "stop": [(c, "won"), (1 - c, "lost")]}},
                         {"won": 1, "lost": 0}, initial="s")


@pytest.mark.slow
@pytest.mark.parametrize("c", [Fraction(1, 2), Fraction(1, 2) - Fraction(1, 10**13)])
def test_two_players_near_a_tie_play_as_the_exact_solve_says(c):
    game = mdp.load_game(Pass(c))
    model = mdp.compile(game)
    exact, floats = mdp.solve(model, exact=True), mdp.solve(model)
    assert exact.value == c and floats.value == pytest.approx(float(c), abs=1e-15)
    assert floats.action_values().optimal.tolist() == exact.action_values().optimal.tolist() == [False, True]
    ends = mdp.distribution(floats, game)
    assert ends["probability"].to_list() == pytest.approx([1 - float(c), float(c)], abs=1e-15)
