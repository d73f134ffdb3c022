"""The walk asks whether a state met again is the same value as the one it equals, by its
class's own ``repr`` where it has one (:mod:`mdp.engine.same`). A ``repr`` that raises
(anything: a plain error, ``SystemExit``, ``KeyboardInterrupt`` of itself, one of the game's
own ``BaseException``) or that gives no text tells nothing apart: ``==`` is trusted there,
and the game is solved, where before the error ended mdp with a traceback (or, for a
``KeyboardInterrupt``, a line that named neither the game nor the state).

The games: from state 0, two actions (or a coin toss) that lead to states equal by their
``k``, a new object each time, each worth ``k`` at the end; the value by hand below."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import keyed_states

import mdp
from mdp.engine.same import form, same
from mdp.errors import watch_interruptions


class Own(BaseException):
    """A class of the game's own, made from BaseException."""


RAISES = (RuntimeError("no"), SystemExit(0), KeyboardInterrupt(), GeneratorExit(), Own())
GIVES = (5, None, b"bytes", ["a"])  # not text: repr() itself refuses


def state_class(what):
    """States ``St(k)``, equal and hashed by ``k``, whose ``__repr__`` raises ``what`` (an
    exception) or returns it (anything else)."""
    return keyed_states(what, name="St")


def game(St):
    """From St(0), ``a`` and ``b`` lead to St(1), a new object each (met again: asked of
    :func:`same`); from St(1), ``c`` tosses a coin to St(2) or St(3), terminal, each worth
    its k: St(1) is worth (2 + 3) / 2 = 5/2, and so is St(0), by hand."""
    return SimpleNamespace(
        GAME_NAME="reprs",
        mdp_initial_state=mdp.hookimpl(lambda: St(0)),
        mdp_actions=mdp.hookimpl(lambda state: ["a", "b"] if state.k == 0 else ["c"] if state.k == 1 else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(1, St(1))] if state.k == 0
                                  else [(Fraction(1, 2), St(2)), (Fraction(1, 2), St(3))]),
        mdp_terminal_value=mdp.hookimpl(lambda state: state.k),
    )


@settings(max_examples=20, deadline=None)
@given(what=st.sampled_from(RAISES + GIVES), k=st.integers(-3, 3))
def test_a_repr_that_fails_trusts_equality(what, k):
    St = state_class(what)
    with watch_interruptions():  # as a command runs: a KeyboardInterrupt raised of itself
        assert same(St(k), St(k))  # equal, and nothing else tells them apart
        assert form(St(k)) == form(St(k))
        assert form(St(k)) != form(St(k + 1))  # still told apart by ==


def test_the_users_interruption_goes_on():
    # From Python, where Ctrl-C is Python's own, a KeyboardInterrupt is the user's.
    St = state_class(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        same(St(1), St(1))


@pytest.mark.parametrize("what", [RuntimeError("no"), ValueError(), 5, None],
                         ids=lambda w: type(w).__name__)
def test_the_game_is_solved(what):
    solution = mdp.solve(mdp.compile(mdp.load_game(game(state_class(what)))), exact=True)
    assert solution.value == Fraction(5, 2)  # by hand, in game()


GAME_FILE = """
import mdp
from fractions import Fraction

class St:
    def __init__(self, k): self.k = k
    def __eq__(self, other): return isinstance(other, St) and other.k == self.k
    def __hash__(self): return hash(self.k)
    def __repr__(self): REPR

@mdp.hookimpl
def mdp_initial_state(): return St(0)

@mdp.hookimpl
def mdp_actions(state): return ["a", "b"] if state.k == 0 else ["c"] if state.k == 1 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    if state.k == 0: return [(1, St(1))]
    return [(Fraction(1, 2), St(2)), (Fraction(1, 2), St(3))]

@mdp.hookimpl
def mdp_terminal_value(state): return state.k
"""


@pytest.mark.parametrize("body", ["raise RuntimeError('no')", "return 5"])
def test_the_command_line_solves_it(tmp_path, capsys, body):
    # Before: a traceback from mdp/engine/same.py (RuntimeError, TypeError), exit 1.
    from mdp.program.cli import main

    path = tmp_path / "reprs.py"
    path.write_text(GAME_FILE.replace("REPR", body))
    code = main(["solve", str(path), "--exact", "--json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert '"exact": "5/2"' in out  # by hand, as game() says
