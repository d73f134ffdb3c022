"""A column's name is what a user types as COLUMN=VALUE (``mdp advise``, ``--within``): a
name that cannot be typed so (empty, with ``=``, a control character such as a newline, a
space at either end) is refused by every column hook, where it answers, in one line naming
the game, the hook and the name. Before, ``mdp_round_columns`` named ``a=b`` (or ``""``, or
``fil\\nled``) was accepted, and then no round state could be named, not even by the hint
mdp itself gave (found by a plugin author's attack). The declared names (parameters,
variants, strategies) share the check, one word each."""

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from models import two_boxes

import mdp
from mdp.game.names import typable
from mdp.game.params import parse_assignments

GOOD = st.from_regex(r"[a-z][a-z_ ]{0,6}[a-z]|[a-z]", fullmatch=True)
"""Names anyone can type (a space inside is quoted on the command line)."""


@st.composite
def untypable(draw):
    """A good name spoilt in one of the ways the command line cannot carry."""
    name = draw(GOOD)
    kind = draw(st.sampled_from(["empty", "equals", "control", "lead", "trail"]))
    at = draw(st.integers(0, len(name)))
    if kind == "empty":
        return ""
    if kind == "equals":
        return name[:at] + "=" + name[at:]
    if kind == "control":
        return name[:at] + draw(st.sampled_from(["\n", "\t", "\r", "\x00", "\x1b", "\x7f"])) + \
            name[at:]
    space = draw(st.sampled_from([" ", "  ", "\u00a0"]))
    return space + name if kind == "lead" else name + space


def _with_columns(hook, name):
    """Two boxes (tests/models.py) whose hook ``hook`` gives a column ``name``."""

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {name: [10 * s for s in states.tolist()]}

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {name: str(state)}  # every state told apart, as tables need

    @mdp.hookimpl
    def mdp_action_columns(state, action):
        return {name: action}

    @mdp.hookimpl
    def mdp_columns(states, actions):  # every state and action told apart, as tables need
        moves = [None] * len(states) if actions is None else \
            [None if a is None else str(a) for a in actions]
        return {name: [str(s) for s in states], "move": moves}

    return two_boxes(**{hook: locals()[hook]})


HOOKS = ["mdp_round_columns", "mdp_state_columns", "mdp_action_columns", "mdp_columns"]


def _policy(game):
    return mdp.policy(mdp.solve(mdp.compile(game), exact=True), game, within="all")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(HOOKS), untypable())
def test_a_column_name_no_one_can_type_is_refused_by_every_column_hook(hook, name):
    game = _with_columns(hook, name)
    with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: {hook} names a column "
                       rf"{re.escape(repr(name))}, which no one can type; a column's name is "
                       r"typed as COLUMN=VALUE"):
        _policy(game)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.sampled_from(HOOKS), GOOD)
def test_a_column_name_anyone_can_type_is_accepted(hook, name):
    assert name in _policy(_with_columns(hook, name)).columns


@settings(max_examples=300)
@given(st.text(max_size=8))
@example("-h")
@example("--x")
def test_a_column_name_is_accepted_exactly_where_it_comes_back_from_column_equals_value(name):
    # The parser of COLUMN=VALUE (mdp advise, --within, --set) reads the name back, and a
    # printable one is on one line: an independent statement of the check.
    try:
        back = parse_assignments([f"{name}=1"]) == {name: "1"}
    except mdp.ParamError:
        back = False
    option = name.startswith("-")  # the command line reads -x=1 as an option, not COLUMN=VALUE
    assert typable(name, word=False) == (back and name.isprintable() and not option)
    # A declared name is one word of a list as well: a column's name with no space or ','.
    assert typable(name, word=True) == (typable(name, word=False) and
                                       not any(c.isspace() or c == "," for c in name))


def test_the_state_column_is_refused_as_the_game_is_compiled():
    # mdp_state_columns is asked as the states are found: a solve refuses it, before a table.
    with pytest.raises(mdp.ModelError, match=r"mdp_state_columns names a column 'rolls=left'"):
        mdp.compile(_with_columns("mdp_state_columns", "rolls=left"))
