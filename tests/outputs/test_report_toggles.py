"""A toggles control of a report (mdp_report_controls) is checked against the values its
column takes: an item no value holds is a button that names no state, and a value made of a
text that is not an item is one the buttons cannot make; either is the game's fault, one line
naming the hook, before the page is written. Before, items the column never takes passed."""

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.controls import controls

ITEMS = st.lists(st.sampled_from(["1", "2", "3", "4"]), min_size=1, max_size=4, unique=True)
VALUES = st.lists(st.lists(st.sampled_from(["1", "2", "3", "4", "x"]), max_size=3, unique=True),
                  min_size=1, max_size=5)


def _game(control):
    hooks = dict(mdp_initial_state=lambda: 0, mdp_actions=lambda state: [],
                 mdp_terminal_value=lambda state: 1, mdp_report_controls=lambda: [control])
    for name, hook in hooks.items():
        hook.__name__ = name
    return mdp.load_game(SimpleNamespace(GAME_NAME="g", **{n: mdp.hookimpl(h) for n, h in hooks.items()}))


@settings(max_examples=150, deadline=None)
@given(ITEMS, VALUES, st.sampled_from([" ", ","]))
@pytest.mark.slow  # half a second or more of CPU
def test_toggles_items_are_the_texts_the_columns_values_are_made_of(items, values, separator):
    control = {"column": "held", "kind": "toggles", "label": "held", "items": items,
               "separator": separator}
    taken = sorted({separator.join(value) for value in values})
    parts = {part for value in values for part in value}
    game = _game(control)
    if parts <= set(items) and set(items) <= parts:  # by hand: exactly the texts used
        assert controls(game, ["held"], {"held": taken})[0]["items"] == items
        return
    with pytest.raises(mdp.ModelError) as error:
        controls(game, ["held"], {"held": taken})
    message = str(error.value)
    assert message.startswith(f"game g: mdp_report_controls gave {control!r}: ")
    if not parts <= set(items):
        assert "is not one of its items" in message
    else:
        unused = next(i for i in items if i not in parts)
        assert message.endswith(f"item {unused!r} is in no value the column takes; the items "
                                "are the texts its values are made of")


def test_a_column_whose_values_are_not_at_hand_is_not_checked():
    control = {"column": "round", "kind": "toggles", "label": "r", "items": ["a"]}
    assert controls(_game(control), ["round"])[0]["items"] == ["a"]
