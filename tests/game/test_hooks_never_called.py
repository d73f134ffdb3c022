"""A rule plugin's hook that the game's play never calls is refused as the game loads: Shut
the Box and Pig are played a stage at a time (mdp_expand), and a plugin's mdp_actions,
mdp_outcomes or mdp_terminal_value beside them changed nothing, even its NaN, with no word
(a plugin doubling Shut the Box's win printed the plain game's value, its rules line saying
the house rule was in force). A plugin that wraps mdp_expand too may keep both, and a game
may give both kinds itself (tests/engine/test_batch.py solves one both ways)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.game.played import STATE_BY_STATE

HOOKS = {
    "mdp_actions": "def mdp_actions(state):\n    return []\n",
    "mdp_outcomes": "def mdp_outcomes(state, action):\n    return []\n",
    "mdp_terminal_value": "def mdp_terminal_value(state):\n    return float('nan')\n",
    "mdp_expand": ("@mdp.hookimpl(wrapper=True)\ndef mdp_expand():\n"
                   "    return (yield)\n"),
}


def _plugin(tmp_path, hooks):
    body = "".join(("" if h == "mdp_expand" else "@mdp.hookimpl\n") + HOOKS[h] + "\n" for h in hooks)
    path = tmp_path / f"plugin_{'_'.join(sorted(hooks))}.py"
    path.write_text("import mdp\n\n" + body)
    return str(path)


SUBSETS = [set(c) for n in range(1, 4) for c in itertools.combinations(STATE_BY_STATE, n)]


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(["shutbox", "pig"]), hooks=st.sampled_from(SUBSETS),
       expands=st.booleans())
def test_a_hook_of_a_state_at_a_time_beside_a_game_of_stages(tmp_path_factory, game, hooks, expands):
    tmp_path = tmp_path_factory.mktemp("plugin")
    plugin = _plugin(tmp_path, hooks | ({"mdp_expand"} if expands else set()))
    if expands:  # it changes what is solved through mdp_expand: its own business
        assert mdp.load_game(game, plugins=[plugin]).name == game
        return
    with pytest.raises(mdp.ModelError) as refused:
        mdp.load_game(game, plugins=[plugin])
    first = next(h for h in STATE_BY_STATE if h in hooks)
    assert str(refused.value) == (
        f"game {game}: plugin {plugin}'s {first} would never be called: the game is played a "
        "stage at a time (mdp_expand), and a rule plugin of it changes what mdp_expand gives "
        "(docs/rule-plugins.rst)")

