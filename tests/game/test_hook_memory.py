"""A MemoryError raised inside a game's hook (its own allocation ran out, or it raised one)
is the hook's fault: one line naming the game, the hook and the state, exit code 2, like any
other exception of a hook; before, it was "out of memory ... solve a smaller game", exit 3,
for a game of a few states. mdp's own work running out of memory stays exit 3."""

import re

import pytest
from edited import edited
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

GAME = '''
import mdp
import numpy as np
from fractions import Fraction

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["bet", "walk"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "bet":
        return [(Fraction(1, 2), "won"), (Fraction(1, 2), "lost")]
    return [(1, "walked")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {"won": 1, "lost": 0, "walked": Fraction(1, 3)}[state]

@mdp.hookimpl
def mdp_state_columns(state):
    return {"where": state}

@mdp.hookimpl
def mdp_round_start():
    return 0

@mdp.hookimpl
def mdp_round_rule(ends):
    def rule(states):
        next_ = np.where(states[:, None] < 1, 1, -1) * np.ones((len(states), len(ends)), dtype=np.int64)
        return mdp.RoundEnds(next_, np.zeros(next_.shape, dtype=np.int64))
    return rule
'''

# Each hook, with its arguments, and what it returns when it does not run out.
HOOKS = {
    "mdp_initial_state": ("", '"start"'),
    "mdp_actions": ("state", '["bet", "walk"] if state == "start" else []'),
    "mdp_outcomes": ("state, action", '[(1, "walked")]'),
    "mdp_terminal_value": ("state", "0"),
    "mdp_state_columns": ("state", '{"where": state}'),
}
RUNNING_OUT = ["raise MemoryError", "raise MemoryError('no room')",
               "len(bytearray(10 ** 16))"]  # an allocation no machine makes


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hook=st.sampled_from(sorted(HOOKS)), running_out=st.sampled_from(RUNNING_OUT),
       command=st.sampled_from([["solve"], ["policy"], ["solve", "--exact"]]))
@pytest.mark.slow
def test_a_hook_that_runs_out_of_memory_is_named_exit_2(hook, running_out, command, tmp_path,
                                                        capsys):
    arguments, answer = HOOKS[hook]
    source = GAME.split("@mdp.hookimpl\ndef mdp_round_start")[0]  # one model
    path = edited(source, "memory", tmp_path, f"def {hook}({arguments}):\n    {running_out}\n"
                  f"    return {answer}\n", hook)
    code = main([command[0], path, *command[1:]])
    out, err = capsys.readouterr()
    if code == 0:  # a hook the command does not call
        assert hook == "mdp_state_columns" and command[0] == "solve"
        return
    assert code == 2, err
    assert re.fullmatch(rf"mdp: error: game memory_\w+: {hook} raised MemoryError(: no room)?"
                        r"( \(.*\))?\n", err), err


def test_a_round_rule_that_runs_out_of_memory_is_named_exit_2(tmp_path, capsys):
    path = edited(GAME, "memory", tmp_path, "def mdp_round_rule(ends):\n    def rule(states):\n"
                  "        raise MemoryError\n    return rule\n", "mdp_round_rule")
    assert main(["solve", path]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(r"mdp: error: game memory_\w+: mdp_round_rule's function raised "
                        r"MemoryError \(asked about .*\)\n", err), err


def test_mdp_s_own_work_running_out_of_memory_stays_exit_3(tmp_path, capsys, monkeypatch):
    path = edited(GAME.split("@mdp.hookimpl\ndef mdp_round_start")[0], "memory", tmp_path, "")

    def too_large(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(mdp, "solve", too_large)
    assert main(["solve", path]) == 3
    assert capsys.readouterr().err.startswith("mdp: error: out of memory (mdp may use ")


@pytest.mark.parametrize("raised", [MemoryError(), MemoryError("no room")])
def test_fault_words_a_hook_s_memory_error_and_raises_another_s_again(raised):
    with pytest.raises(MemoryError):
        mdp.errors.fault(raised)
    assert mdp.errors.fault(raised, hook=True).startswith("MemoryError")
