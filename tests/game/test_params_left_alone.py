"""A parameter's value that a hook changes (appends to a list, sets a key of a dict, writes
into an array) had another game solved than the one asked for, and --json record a value no
one set. What the parameters show is kept as the game loads, before any hook runs, and
compared when the walk has asked every hook (:func:`mdp.game.kept.check_params`): a change
is refused in one line naming the game and the parameter. A hook that only reads them is
never refused.

The game: ``go`` wins the parameter's worth (the sum of its numbers) with chance 1/2, else
0; ``stay`` gets 1: worth max(worth/2, 1), by hand."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import GO_OR_STAY, go_or_stay

import mdp
from mdp.game.kept import check_params
from mdp.program.cli import main

# Each kind: a parser of "3+4", its show (the text the parser reads back), how a hook
# changes the value, and the worth of a value.
KINDS = {
    "list": (lambda t: [int(x) for x in str(t).split("+")], lambda v: "+".join(map(str, v)),
             lambda v: v.append(1), sum),
    "list shown as it is": (lambda t: [int(x) for x in str(t).split("+")] if isinstance(t, str) else list(t),
                            None, lambda v: v.append(1), sum),
    "dict": (lambda t: {"n": [int(x) for x in str(t).split("+")]}, lambda v: "+".join(map(str, v["n"])),
             lambda v: v.update(n=[*v["n"], 1]), lambda v: sum(v["n"])),
    "array": (lambda t: np.array([int(x) for x in str(t).split("+")]),
              lambda v: "+".join(map(str, v.tolist())), lambda v: v.__setitem__(0, v[0] + 1),
              lambda v: int(v.sum())),
}
HOOKS = ("mdp_initial_state", "mdp_actions", "mdp_outcomes", "mdp_terminal_value")


def game(kind, hook, change):
    parse, show, mutate, worth = KINDS[kind]

    def touch(params, name):
        if change and name == hook:
            mutate(params["pay"])

    return go_or_stay(mdp.Param("pay", "3+0", parse, "the prize", show=show),
                      lambda params: worth(params["pay"]), touch)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(sorted(KINDS)), hook=st.sampled_from(HOOKS), change=st.booleans(),
       pay=st.lists(st.integers(0, 9), min_size=1, max_size=3))
def test_a_parameter_changed_by_a_hook_is_refused(kind, hook, change, pay):
    loaded = mdp.load_game(game(kind, hook, change), pay="+".join(map(str, pay)))
    if change:
        with pytest.raises(mdp.ModelError) as error:
            mdp.compile(loaded)
        text = str(error.value)
        assert text.startswith("game par: parameter pay was ") and "its code changed it" in text, text
        assert "\n" not in text
    else:
        value = mdp.solve(mdp.compile(loaded), exact=True).value
        assert value == max(Fraction(sum(pay), 2), 1)  # by hand: the module's docstring
        check_params(loaded)  # and nothing to say after


def test_with_params_keeps_its_own():
    # A game with other parameters compares with those, not with the first game's.
    first = mdp.load_game(game("list", "mdp_actions", False), pay="3")
    second = first.with_params(pay="8")
    assert mdp.solve(mdp.compile(second), exact=True).value == 4  # max(8/2, 1)
    check_params(first)


PAR = GO_OR_STAY.replace("PARSE", "def parse(t):\n    return [int(x) for x in str(t).split('+')]").replace(
    "DEFAULT", '"3+0"').replace("SHOW", ', show=lambda v: "+".join(map(str, v))').replace(
    "ACT", 'params["pay"].append(1)').replace("WORTH", 'sum(params["pay"])')


def test_the_command_line_refuses_it(tmp_path, capsys):
    # Before: "params": {"pay": "5+1+1+1+1"}, "value": 4.5, exit 0.
    path = tmp_path / "par.py"
    path.write_text(PAR)
    assert main(["solve", str(path), "--set", "pay=5", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("mdp: error: game par: parameter pay was '5' as the game loaded and is "
                   "'5+1+1+1+1' now: its code changed it; a hook reads its parameters and leaves "
                   "them as they are\n")


def test_the_parameters_are_kept_whatever_the_copy_module_does(monkeypatch):
    """Kept by mdp's own copy: a game that made :mod:`copy` copy a list as itself had its
    hook's change of a parameter go unseen, and another game solved and recorded."""
    import copy

    monkeypatch.setitem(copy._deepcopy_dispatch, list, lambda value, memo, deepcopy: value)
    monkeypatch.setattr(copy, "deepcopy", lambda value, memo=None: value)
    loaded = mdp.load_game(game("list shown as it is", "mdp_actions", True), pay="3+4")
    with pytest.raises(mdp.ModelError, match=r"^game par: parameter pay was \[3, 4\] as the game loaded"):
        mdp.compile(loaded)
