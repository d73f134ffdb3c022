"""A hook that changes the state object it is handed (a mutable state class, hashed and
compared by its fields) is refused in one line naming the hook: kept by its hash, the state
was taken for another, and another game solved (round 26: Reroll of two rolls worth 17/4 by
hand solved to 14/3, exit 0, when mdp_actions set a face of 1 to 6)."""

from fractions import Fraction
from types import SimpleNamespace

import pytest

import mdp


class S:
    __slots__ = ("left", "face")

    def __init__(self, left, face):
        self.left, self.face = left, face

    def __eq__(self, other):
        return isinstance(other, S) and (self.left, self.face) == (other.left, other.face)

    def __hash__(self):
        return hash((self.left, self.face))

    def __repr__(self):
        return f"S({self.left}, {self.face})"


def reroll(changes):
    """Reroll of two rolls (keep a face, or roll again: worth 17/4 by hand, (6 + 5 + 4 + 3.5 +
    3.5 + 3.5) / 6), its state objects changed by the hook ``changes`` where it is asked
    about a first roll of 1."""
    def touch(hook, state):
        if hook == changes and state.face == 1 and (state.left == 1 or hook == "mdp_terminal_value"):
            state.face = 6

    def actions(state):
        touch("mdp_actions", state)
        return ["roll"] if state.face == 0 else ["keep", "roll"] if state.left > 0 else []

    made = []  # (changes == "later": the states it gave, one changed when another is asked)

    def outcomes(state, action):
        touch("mdp_outcomes", state)
        if changes == "later" and (state.left, state.face) == (1, 2):
            for given in made:
                if (given.left, given.face) == (1, 1):
                    given.face = 6
        if action == "keep":
            return [(1, S(0, state.face))]
        given = [(Fraction(1, 6), S(state.left - 1, f)) for f in range(1, 7)]
        made.extend(s for _, s in given)
        return given

    def columns(state):
        touch("mdp_state_columns", state)
        return {"left": state.left, "face": state.face or None}

    def terminal(state):
        touch("mdp_terminal_value", state)
        return state.face

    hooks = dict(mdp_initial_state=lambda: S(2, 0), mdp_actions=actions, mdp_outcomes=outcomes,
                 mdp_terminal_value=terminal, mdp_state_columns=columns)
    for name, hook in hooks.items():
        hook.__name__ = name
    return mdp.load_game(SimpleNamespace(GAME_NAME="reroll", **{n: mdp.hookimpl(h) for n, h in hooks.items()}))


def test_a_game_that_leaves_its_states_alone_is_solved():
    assert mdp.solve(mdp.compile(reroll(None)), exact=True).value == Fraction(17, 4)


@pytest.mark.parametrize(("hook", "said", "now"), [
    ("mdp_actions", "mdp_actions", "S(1, 6)"), ("mdp_outcomes", "mdp_outcomes", "S(1, 6)"),
    ("mdp_state_columns", "its columns' hooks", "S(1, 6)"),
    ("mdp_terminal_value", "mdp_terminal_value", "S(0, 6)")])  # (round 33, P33-10)
def test_a_state_changed_by_a_hook_is_refused(hook, said, now):
    with pytest.raises(mdp.ModelError, match=rf"^game reroll: {said} changed the state it was handed, "
                                             rf"now {now.replace('(', '[(]').replace(')', '[)]')}"):
        mdp.compile(reroll(hook))


def test_a_state_given_before_and_changed_by_a_later_hook_is_refused():
    """Round 27: a hook that changed a state it had given before (kept in a list of its own),
    not the one it was handed, had another game solved (341/72 for Reroll's 14/3), exit 0."""
    with pytest.raises(mdp.ModelError, match=r"^game reroll: a hook changed a state in place after it was "
                                             r"given, now S\(1, 6\)"):
        mdp.compile(reroll("later"))
