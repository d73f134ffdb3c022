"""A game that grows forever is refused within seconds under the default limits, in one line
with exit code 3; a walk's memory counts what its states really take."""

import subprocess
import sys
import time
import types

import pytest
from models import ENDLESS

import mdp
from mdp.engine import budget


def _game(source, name):
    namespace = {}
    exec(source, namespace)
    hooks = {key: value for key, value in namespace.items() if key.startswith("mdp_")}
    return mdp.load_game(types.SimpleNamespace(GAME_NAME=name, **hooks))


@pytest.mark.slow
def test_the_command_line_refuses_an_endless_game_in_seconds(tmp_path):
    # Before: a warning, then minutes of walking until the state limit or memory ran out.
    path = tmp_path / "endless.py"
    path.write_text(ENDLESS)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", str(path)], capture_output=True,
                          text=True, timeout=120)
    seconds = time.perf_counter() - start
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("mdp: error: game endless: ")
    assert "deep and growing: the game may have no end" in done.stderr
    assert "--max-states N" in done.stderr
    assert seconds < 10 + budget.ENDLESS_AFTER, seconds


WIDE = '''
import mdp


@mdp.hookimpl
def mdp_initial_state():
    return {start}


@mdp.hookimpl
def mdp_actions(state):
    return list(range({actions}))


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, {after})]
'''


@pytest.mark.parametrize(("start", "after"), [
    ("(0, 0)", "(state[0] + 1, action)"),  # a counter beside the action taken
    ("0", "state * {actions} + action + 1"),  # integers that grow {actions}-fold a move
])
@pytest.mark.slow
def test_an_endless_game_of_many_actions_a_state_is_refused_in_seconds(monkeypatch, start, after):
    # Before: looked at every 1,024 states, 3,000 actions a state made it 44 s (and growing
    # integers were not refused in 400 s, their memory past 3.8 GB); now by the work done.
    monkeypatch.setattr(budget, "ENDLESS_AFTER", 0.5)
    actions = 3000
    game = _game(WIDE.format(start=start, actions=actions, after=after.format(actions=actions)), "wide")
    # The work done, its CPU time: on a busy machine (load 13 on two cores) the 2 s of it took
    # 5 to 7 s of the clock, and the test failed; mdp looks at the clock, so that the CPU time
    # before the refusal is at most the clock's, on a machine of its own as on a busy one.
    began = time.process_time()
    with pytest.raises(mdp.TooLarge, match="deep and growing: the game may have no end"):
        mdp.compile(game)
    assert time.process_time() - began < 5, time.process_time() - began


def test_under_the_default_limit_an_endless_walk_is_refused_not_warned_of(monkeypatch):
    monkeypatch.setattr(budget, "ENDLESS_AFTER", 0.0)
    # By hand: the watch notes the depth at 1,024 states and finds it grown at 2,048, on a
    # path of 2,048 states, 2,047 moves.
    with pytest.raises(mdp.TooLarge, match=r"^game endless: 2,048 states so far, on paths 2,047 moves "
                       r"deep and growing: the game may have no end; make every path end \(a cap on a "
                       r"score, a limit on turns\), or if it has one, let it go on with --max-states N "
                       r"\(max_states= in Python\)$"):
        mdp.compile(_game(ENDLESS, "endless"))


HEAVY = '''
import mdp


@mdp.hookimpl
def mdp_initial_state():
    return ()


@mdp.hookimpl
def mdp_actions(state):
    return ["on"] if len(state) < 4000 else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, state + (len(state),))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return len(state)
'''


@pytest.mark.slow
def test_a_walk_counts_the_memory_its_states_take():
    # Each state is the tuple of the moves so far: 4,001 states of 0 to 4,000 items, about
    # 8 bytes an item, 64 MB in all. The estimate per state (a few hundred bytes) would let
    # a budget of 30 MB pass; what the process holds does not.
    with pytest.raises(mdp.TooLarge, match=r"^game heavy: the model would need more than .* of "
                       r"memory \([\d,]+ states so far\), past the budget of 30 MB; raise it with "
                       r"--max-memory \(max_memory= in Python\)$"):
        mdp.compile(_game(HEAVY, "heavy"), max_memory=30_000_000)
    assert mdp.solve(mdp.compile(_game(HEAVY, "heavy"), max_memory=None)).value == 4000


def _batch_endless():
    # Key k is at stage -k and leads to key k + 1: one state a stage, for ever.
    import numpy as np

    hooks = dict(
        mdp_initial_state=lambda: 0,
        mdp_stage=lambda states: -np.asarray(states, dtype=np.int64),
        mdp_expand=lambda states: mdp.Expansion.choices(
            np.ones(len(states), dtype=np.int64), None, np.asarray(states) + 1, []),
    )
    for function in hooks.values():
        mdp.hookimpl(function)
    return mdp.load_game(types.SimpleNamespace(GAME_NAME="stairs", **hooks))


@pytest.mark.slow
def test_a_batch_game_of_endless_stages_is_refused_in_seconds(monkeypatch):
    # Half a second of walking, not the default five (the command line's test above walks
    # those): the stages are counted alike however long the watch waits.
    monkeypatch.setattr(budget, "ENDLESS_AFTER", 0.5)
    monkeypatch.setattr(budget, "ENDLESS_STAGES", 300)
    start = time.perf_counter()
    with pytest.raises(mdp.TooLarge, match=r"^game stairs: [\d,]+ states so far, in [\d,]+ stages and "
                       r"more to come: the game may have no end; .* let it go on with --max-states N"):
        mdp.compile(_batch_endless())
    assert time.perf_counter() - start < 10 + budget.ENDLESS_AFTER


def test_a_batch_game_under_a_limit_the_caller_set_is_warned_of_and_goes_on(monkeypatch):
    monkeypatch.setattr(budget, "ENDLESS_AFTER", 0.0)
    monkeypatch.setattr(budget, "ENDLESS_STAGES", 300)
    # By hand: the watch tells at the 300th stage, before its one state is counted: 299.
    with pytest.warns(mdp.UnboundedWarning, match=r"^game stairs: 299 states so far, in 300 stages "
                      r"and more to come: .* or stop sooner with --max-states N") as record, \
            pytest.raises(mdp.TooLarge, match="more than 1,000 states"):
        mdp.compile(_batch_endless(), max_states=1000)
    assert len(record) == 1 and record[0].filename == __file__
