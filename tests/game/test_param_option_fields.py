"""A game's parameter is given by ``--set NAME=VALUE`` alone (round 32, P32-01 to P32-03): a
field only an analysis's option takes (``required`` made ``mdp params`` itself fail;
``repeat`` turned the value into a tuple; ``positional``, ``metavar``, ``shared`` did
nothing), or a name of ``mdp.load_game``'s own (``variant``, ``plugins``: listed by ``mdp
params``, set by nothing), is refused as the game loads, naming the parameter, whether the
game or a rule plugin declares it. Generated: every such field and name, alone or beside a
plain parameter, declared by the game or by a plugin, through Python and the command line."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import DECLARES

import mdp
from mdp.program.cli import main

FIELDS = {"required": "required=True", "repeat": "repeat=True", "positional": "positional=True",
          "metavar": "metavar='N'", "shared": "shared=True"}
PLUGIN = '''import mdp

GAME = "declares"


@mdp.hookimpl
def mdp_params():
    return [{declared}]
'''
_written = itertools.count()
FAULTS = st.one_of(st.sampled_from(sorted(FIELDS)).map(lambda f: ("n", FIELDS[f], f)),
                   st.sampled_from(["variant", "plugins"]).map(lambda n: (n, "", "name")),
                   # a column of a table of rule sets (round 35, P35-16: it took the column)
                   st.sampled_from(["value", "exact", "states", "VALUE", "player_1", "player_12_exact",
                                    "Player_2_Percent"]).map(lambda n: (n, "", "column")))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(FAULTS, st.booleans(), st.booleans(), st.sampled_from(["params", "solve"]))
def test_a_game_parameter_given_by_set_alone(tmp_path_factory, capsys, fault, by_plugin, beside, command):
    name, field, kind = fault
    declared = f'mdp.Param({name!r}, 1, int, "a number"{", " + field if field else ""})'
    if beside:
        declared = f'mdp.Param("other", 1, int, "a number"), {declared}'
    where = tmp_path_factory.mktemp("declares")
    game, plugin = where / f"declares{next(_written)}.py", where / "plugin.py"
    game.write_text(DECLARES.format(name="declares",
                                    declared='mdp.Param("plain", 1, int, "a number")' if by_plugin else declared))
    plugin.write_text(PLUGIN.format(declared=declared))
    plugins = [str(plugin)] if by_plugin else []
    with pytest.raises(mdp.ModelError) as refused:
        mdp.load_game(str(game), plugins=plugins)
    said = str(refused.value)
    assert "\n" not in said and f"parameter {name}" in said, said
    expected = {"name": "one of mdp.load_game's own (variant, plugins)",
                "column": "one of the columns a table of rule sets adds beside the parameters varied"}
    assert expected.get(kind, f"{kind} is set, which only an analysis's option takes") in said, said
    if by_plugin:
        assert f"plugin {plugin}'s mdp_params" in said, said
    capsys.readouterr()
    assert main([command, str(game), *(["-p", str(plugin)] if by_plugin else [])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"mdp: error: {said}\n"
