"""A state of a batch game, an integer key mdp stores in the narrowest type that holds it,
is named in a message as the number the game gave, never as numpy's ``np.uint8(101)``
(round 28, in the line of a game that never ends)."""

import numpy as np
import pytest

from mdp.errors import said
from mdp.program.cli import main

ENDLESS = '''
import numpy as np
import mdp

@mdp.hookimpl
def mdp_initial_state():
    return KEY

@mdp.hookimpl
def mdp_stage(states):
    return (np.asarray(states) >= KEY).astype(np.int64)

@mdp.hookimpl
def mdp_expand(states):
    live = [k for k in states.tolist() if k >= KEY]
    return mdp.Expansion(np.array([int(k >= KEY) for k in states.tolist()]), np.zeros(len(live), int),
                         np.ones(len(live), int), np.array(live, dtype=np.int64),
                         np.zeros(len(live), int), (1,), [0] * (len(states) - len(live)))
'''


@pytest.mark.parametrize("kind", ["uint8", "int16", "uint32", "int64", "float64", "bool"])
def test_a_number_of_numpy_is_said_as_the_number(kind):
    value = np.array([1], dtype=kind)[0]
    assert said(value) == repr(value.item())


@pytest.mark.parametrize("key", [101, 100_001, 2**40])
def test_a_batch_game_that_never_ends_names_its_state_as_given(tmp_path, capsys, key):
    (tmp_path / "loop.py").write_text(ENDLESS.replace("KEY", str(key)))
    assert main(["solve", str(tmp_path / "loop.py")]) == 2
    err = capsys.readouterr().err
    assert f"from state {key}: " in err and "np." not in err, err
