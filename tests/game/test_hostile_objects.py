"""A game's states and actions are the game's objects: whatever their ``repr``, ``str``,
``__hash__`` or ``__eq__`` raise (GeneratorExit, SystemExit, KeyboardInterrupt, a class of
the game's own made from BaseException, not only an Exception) is the game's fault, one line
and exit 2 naming the game, or where only the text is broken, the object shown as "(a A whose
repr raised ...)". Before: a state's repr raising GeneratorExit was a traceback, and an
action's hash raising SystemExit was blamed on "command solve"."""

import pytest

from mdp.program.cli import main

GAME = '''
from fractions import Fraction
import mdp

class Odd(BaseException):
    pass

class Thing:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        if "hash" == PLACE and self.n == BROKEN:
            raise RAISED
        return hash(self.n)
    def __eq__(self, other):
        if "eq" == PLACE and BROKEN in (self.n, getattr(other, "n", None)) and self is not other:
            raise RAISED
        return isinstance(other, Thing) and other.n == self.n
    def __repr__(self):
        if "repr" == PLACE and self.n == BROKEN:
            raise RAISED
        return f"Thing({self.n!r})"

@mdp.hookimpl
def mdp_initial_state():
    return Thing(0)

@mdp.hookimpl
def mdp_actions(state):
    return [Thing("flip"), Thing("stay")] if state.n == 0 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    if action.n == "stay":
        return [(1, Thing(3))]
    return [(Fraction(1, 2), Thing(1)), (Fraction(1, 2), Thing(2))]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {1: 1, 2: 0, 3: Fraction(1, 3)}[state.n]
'''


@pytest.mark.slow  # 60 games loaded and solved: about 7 s
@pytest.mark.parametrize("raised", ["GeneratorExit", "SystemExit(3)", "KeyboardInterrupt", "Odd",
                                    "ValueError('x')"])
@pytest.mark.parametrize(("place", "broken"), [("repr", 0), ("repr", 2), ("repr", "stay"),
                                               ("hash", "stay"), ("hash", 2), ("eq", "stay")])
@pytest.mark.parametrize("command", ["solve", "policy"])
def test_what_a_games_object_raises_is_the_games_fault(tmp_path, capsys, raised, place, broken, command):
    game = tmp_path / "hostile.py"
    game.write_text(GAME.replace("PLACE", repr(place)).replace("BROKEN", repr(broken))
                    .replace("RAISED", raised))
    code = main([command, str(game)])
    out, err = capsys.readouterr()
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith("mdp: error: game hostile: ") and err.count("\n") == 1, err
        assert "command " not in err and out == "", err
    if place == "hash":  # asked of every state and action: refused, naming what must answer
        assert code == 2 and " must answer" in err, err
    elif code == 0:  # an == never asked (no two of one hash), or a text that shows otherwise
        assert "0.5" in out  # the value of the game: flip, 1/2 of winning 1
    else:
        assert " must answer" in err or "alike" in err, err
