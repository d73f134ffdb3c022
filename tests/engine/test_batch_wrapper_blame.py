"""A rule plugin's wrapper of a batch game's mdp_expand whose answer's numbers are wrong (its
probabilities, their table, its terminal values) is named, as one whose sizes are wrong was,
and as a per-state hook's wrapper is (round 34, P34-03: "game bcoin: mdp_expand:
probabilities sum to 2/3, not 1", the game blamed for the plugin's answer). The same fault in
the game's own answer names the game alone."""

import pytest

from mdp.program.cli import main

# State 0 chooses between a fair coin (1 or 0) and a sure 2/5 (by hand: 1/2, the coin).
GAME = '''from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "bcoin"
TV = {1: 1, 2: 0, 3: Fraction(2, 5)}


def change(e):
    return e


@mdp.hookimpl
def mdp_initial_state():
    return 0


@mdp.hookimpl
def mdp_stage(states):
    return np.where(states == 0, 1, 0)


@mdp.hookimpl
def mdp_expand(states, labels):
    ac, acts, oc, nxt, pr, tv = [], [], [], [], [], []
    for s in states.tolist():
        if s == 0:
            ac.append(2); acts += ["a", "b"]; oc += [2, 1]; nxt += [1, 2, 3]; pr += [0, 0, 1]
        else:
            ac.append(0); tv.append(TV[s])
    return OWN(mdp.Expansion(np.array(ac), acts if labels else None, np.array(oc, dtype=np.int64),
                             np.array(nxt, dtype=np.int64), np.array(pr, dtype=np.int64),
                             (Fraction(1, 2), 1), tv))
'''
WRAPPERS = {
    "new": '''
@mdp.hookimpl(wrapper=True)
def mdp_expand(states, labels):
    return change((yield))
''',
    "old": '''
@mdp.hookimpl(hookwrapper=True)
def mdp_expand(states, labels):
    outcome = yield
    outcome.force_result(change(outcome.get_result()))
''',
}
# Each fault: the expansion with one field replaced, and the words of the line that says it.
FAULTS = {
    "probability_table=(Fraction(1, 3), 1)": "probabilities sum to 2/3, not 1 (state 0, action 'a')",
    "probability_table=(Fraction(-1, 2), 1)": "negative probability -1/2",
    "probability_table=(0.5, float('nan'))": "probability nan is not finite",
    "probabilities=e.probabilities + 5": "outside its probability_table of 2",
    "terminal_values=[float('nan')] * len(e.terminal_values)": "terminal value nan is not finite",
    "terminal_values=[10**400] * len(e.terminal_values)": "past what a float holds",
}
PLUGIN = '''import math
from fractions import Fraction
import attrs
import mdp

GAME = "bcoin"


def change(e):
    return attrs.evolve(e, FAULT)
'''


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("form", sorted(WRAPPERS))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_wrapper_that_makes_the_numbers_wrong_is_named(tmp_path, capsys, form, fault):
    (tmp_path / "bcoin.py").write_text(GAME.replace("OWN", ""))
    (tmp_path / "wrap.py").write_text(PLUGIN.replace("FAULT", fault) + WRAPPERS[form])
    assert main(["solve", str(tmp_path / "bcoin.py"), "-p", str(tmp_path / "wrap.py"), "--exact"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: game bcoin: plugin {tmp_path / 'wrap.py'}'s mdp_expand: "), err
    assert FAULTS[fault] in err and err.count("\n") == 1, err


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_the_same_fault_in_the_game_s_own_answer_names_the_game(tmp_path, capsys, fault):
    (tmp_path / "bcoin.py").write_text(GAME.replace("OWN", "change").replace(
        "def change(e):\n    return e", f"def change(e):\n    import attrs, math\n    return attrs.evolve(e, {fault})"))
    (tmp_path / "innocent.py").write_text(PLUGIN.replace("FAULT", "") + WRAPPERS["new"])
    assert main(["solve", str(tmp_path / "bcoin.py"), "-p", str(tmp_path / "innocent.py"), "--exact"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: game bcoin: mdp_expand: ") and FAULTS[fault] in err, err


def test_the_game_alone_is_solved_by_hand(tmp_path, capsys):
    (tmp_path / "bcoin.py").write_text(GAME.replace("OWN", ""))
    assert main(["solve", str(tmp_path / "bcoin.py"), "--exact", "--json"]) == 0
    assert '"exact": "1/2"' in capsys.readouterr().out
