"""A game's named variants are checked where the game is loaded, whatever the command: two
variants of one name, or one that sets a parameter the game does not have or a value its
parser refuses, are the fault of the game's mdp_variants, one line naming it."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import HALF, THIRD, Table, go_or_stay

import mdp
from mdp.program.cli import main

PARAMS = [mdp.Param("rounds", 3, mdp.parse_int(1, 9), "rounds"),
          mdp.Param("name", "a", str, "a name")]


class WithVariants(Table):
    """The coin of tests/models.py with two parameters and the variants given."""

    GAME_NAME = "coin"

    def __init__(self, variants):
        super().__init__({"start": {"bet": [(HALF, "won"), (HALF, "lost")], "walk": [(1, "walked")]}},
                         {"won": 1, "lost": 0, "walked": THIRD})
        self.variants = variants

    @mdp.hookimpl
    def mdp_params(self):
        return PARAMS

    @mdp.hookimpl
    def mdp_variants(self):
        return self.variants


VARIANTS = st.lists(st.builds(
    mdp.Variant, st.sampled_from(["a", "b", "c"]),
    st.dictionaries(st.sampled_from(["rounds", "name", "round", "colour"]),
                    st.sampled_from(["1", "9", "0", "10", "x", ""]), max_size=2),
    st.just("house rules")), max_size=4)


def fault(variants):
    """The mistake a brute reading of the variants finds, independently of mdp: a name said
    twice (found first), or a setting the game has not, or a number of rounds outside 1 to 9."""
    names = [v.name for v in variants]
    duplicate = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if duplicate is not None:
        return f"mdp_variants returned an mdp.Variant named {duplicate!r}, as another is"
    for variant in variants:
        for key, value in variant.params.items():
            if key not in ("rounds", "name"):
                return repr(key)
            if key == "rounds" and value not in ("1", "9"):
                return f"rounds={value}"
    return None


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(VARIANTS)
def test_every_load_checks_the_variants(variants):
    wrong = fault(variants)
    if wrong is None:
        assert mdp.load_game(WithVariants(variants)).params["rounds"] == 3
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(WithVariants(variants))
    message = str(error.value)
    assert message.startswith("game coin: ")
    assert wrong in message
    assert "mdp_variants" in message or "two variants" in message


@pytest.mark.parametrize("command", [["solve"], ["policy"], ["params"], ["variants"],
                                     ["simulate", "--games", "2"]])
def test_a_variant_of_an_unknown_parameter_is_the_games_fault_in_every_command(
        tmp_path, capsys, command):
    game = tmp_path / "coin.py"
    game.write_text("import mdp\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return ['stay'] if state == 0 else []\n"
                    "@mdp.hookimpl\ndef mdp_outcomes(state, action): return [(1, 1)]\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n"
                    "@mdp.hookimpl\ndef mdp_variants(): return [mdp.Variant('b', {'nope': '1'}, 'rules')]\n")
    assert main([command[0], str(game), *command[1:]]) == 2
    err = capsys.readouterr().err
    assert err == ("mdp: error: game coin: mdp_variants gives variant 'b' the parameter 'nope', "
                   "which the game does not have (its parameters: none)\n")


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.integers(-3, 12), st.text(max_size=3), st.none(), st.floats(0, 10)))
def test_a_default_its_own_parser_refuses_is_the_games_fault_at_load(default):
    # A parameter's default was taken as it came, unchecked: a game ran on a value its own
    # parser refuses. The parser here takes whole numbers from 1 to 9 (or their text); None
    # is a parameter not set, which no parser need take.
    class Defaulting(WithVariants):
        @mdp.hookimpl
        def mdp_params(self):
            return [mdp.Param("rounds", default, mdp.parse_int(1, 9), "rounds")]

    text = str(default)
    takes = default is None or (isinstance(default, int) and 1 <= default <= 9) or (
        isinstance(default, float) and default.is_integer() and 1 <= default <= 9) or (
        isinstance(default, str) and text.isascii() and text.isdigit()  # no blank around it
        and 1 <= int(text) <= 9)
    if takes:  # the game gets the default as the parser reads it, as it gets --set's value
        got = mdp.load_game(Defaulting([])).params["rounds"]
        assert got == (None if default is None else int(default))
        assert default is None or type(got) is int
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(Defaulting([]))
    assert str(error.value).startswith(f"game coin: the default of parameter rounds, {default!r}, "
                                       "is refused by its own parser (")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.sampled_from([str, int, float, lambda n: f"{n}"]))
@pytest.mark.slow
def test_a_default_reaches_the_hooks_as_set_gives_it(rounds, form):
    # A default given as text ("6", as --set and mdp.Variant take values) passed the load
    # check, and the hooks got the text: the game's value of rounds "6" differed from that of
    # --set rounds=6. The hooks here see the value itself; any form the parser takes must
    # reach them as the parser reads it, the value --set gives.
    seen = []

    class Seeing(WithVariants):
        @mdp.hookimpl
        def mdp_params(self):
            return [mdp.Param("rounds", form(rounds), mdp.parse_int(1, 9), "rounds")]

        @mdp.hookimpl
        def mdp_terminal_value(self, params, state):
            seen.append(params["rounds"])
            return super().mdp_terminal_value(params, state)

    by_default = mdp.solve(mdp.compile(mdp.load_game(Seeing([]))), exact=True).value
    defaults = set(map(repr, seen))
    seen.clear()
    by_set = mdp.solve(mdp.compile(mdp.load_game(Seeing([]), rounds=str(rounds))), exact=True).value
    assert by_default == by_set
    assert defaults == set(map(repr, seen)) == {repr(rounds)}


PLUGIN_VARIANTS = st.lists(st.builds(
    mdp.Variant, st.sampled_from(["p", "q"]),
    st.dictionaries(st.sampled_from(["rounds", "name", "colour"]),
                    st.sampled_from(["1", "9", "0", "x"]), max_size=2), st.just("house rules")),
    max_size=2, unique_by=lambda v: v.name)


@settings(max_examples=40, deadline=None)
@given(PLUGIN_VARIANTS)
def test_a_rule_plugins_wrong_variant_is_blamed_on_the_plugin(tmp_path_factory, variants):
    # Before: "game coin: mdp_variants gives variant 'two' the parameter 'nosuch' ...", the
    # game blamed for a rule plugin's variant. The game's own variant is right.
    path = tmp_path_factory.mktemp("plugin") / "extra.py"
    path.write_text("import mdp\nGAME = 'coin'\n@mdp.hookimpl\ndef mdp_variants():\n"
                    f"    return [{', '.join(f'mdp.Variant({v.name!r}, {dict(v.params)!r}, {v.name!r})' for v in variants)}]\n")
    game = WithVariants([mdp.Variant("a", {"rounds": "2"}, "two rounds")])
    wrong = fault(variants)
    if wrong is None:
        assert [v.name for v in mdp.load_game(game, plugins=[str(path)]).variants()] == \
            ["a", *(v.name for v in variants)]
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(game, plugins=[str(path)])
    message = str(error.value)
    assert message.startswith(f"game coin: plugin {path}'s mdp_variants gives variant "), message
    assert wrong in message


def test_a_set_one_variant_refuses_is_named_with_that_variant(capsys):
    # twelve-box-321 sets a schedule of dice (three, then two, then one), so --set dice=3 has
    # no effect there: the line names the variant whose rules refuse it, before any solve.
    assert main(["variants", "shutbox", "--set", "dice=3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: variant twelve-box-321: parameter dice=3 has no effect")
    assert err.count("\n") == 1


class Checked(WithVariants):
    """The coin, whose own check refuses a name other than "a" (its parser takes any text)."""

    @mdp.hookimpl
    def mdp_check(self, params):
        if params["name"] != "a":
            raise mdp.ParamError(f"parameter name={params['name']}: only 'a' is played")


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["rounds", "name"]), st.sampled_from(["1", "9", "a", "b"]),
                       max_size=2),
       st.dictionaries(st.sampled_from(["rounds", "name"]), st.sampled_from(["2", "a", "b"]),
                       max_size=2))
def test_a_variant_its_games_own_check_refuses_is_named_with_what_it_sets(ruled, typed):
    """Where the game's mdp_check refuses a parameter the variant set (and the caller did not
    set again), the variant is named with its settings: it said only "parameter name=b: ...",
    and the user, who typed no name=b, could not tell which variant was wrong. A parameter
    the caller set is the caller's, said as it is."""
    ruled = {k: v for k, v in ruled.items() if k == "name" or v in ("1", "9")}  # parsed rules
    typed = {k: v for k, v in typed.items() if k == "name" or v == "2"}
    name = typed.get("name", ruled.get("name", "a"))
    variant = mdp.Variant("v", ruled, "house rules")
    if name == "a":
        assert mdp.load_game(Checked([variant]), variant="v", **typed).params["name"] == "a"
        return
    with pytest.raises(mdp.ParamError) as error:
        mdp.load_game(Checked([variant]), variant="v", **typed)
    own = {k: v for k, v in ruled.items() if k not in typed}
    named = f"variant v ({', '.join(f'{k}={v}' for k, v in own.items())}): " if "name" in own else ""
    assert str(error.value) == f"{named}parameter name={name}: only 'a' is played"


@pytest.mark.parametrize("rolls", ["0", "-3"])
def test_a_rule_plugins_variant_its_game_refuses_names_the_plugin(tmp_path, rolls):
    # Round 32, P32-07: "variant zero (rolls=0): ..." named no plugin, though a plugin's
    # variant is the plugin's to mend.
    plugin = tmp_path / "house.py"
    plugin.write_text('import mdp\nGAME = "reroll"\n\n\n@mdp.hookimpl\ndef mdp_variants():\n'
                      f'    return [mdp.Variant("zero", {{"rolls": "{rolls}"}}, "no rolls")]\n')
    reroll = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
    with pytest.raises(mdp.ParamError) as error:
        mdp.load_game(reroll, variant="zero", plugins=[str(plugin)])
    assert str(error.value).startswith(f"variant zero of plugin {plugin} (rolls={rolls}): parameter rolls="), error.value


@pytest.mark.parametrize("parser, played", [(int, None), (lambda text: int(text or 7), 7)])
def test_a_variants_empty_text_is_read_as_set_reads_it(parser, played):
    # Round 32, P32-18: a variant's x="" (what --set x= gives to unset x) was refused as a
    # value its parser refuses; it unsets x, unless the parser reads the empty text.
    game = go_or_stay(mdp.Param("x", None, parser, "x"), lambda params: 2,
                      variants=[mdp.Variant("unset", {"x": ""}, "x unset")])
    assert mdp.load_game(game, variant="unset").params["x"] == played
    assert mdp.load_game(game, x="").params["x"] == played  # as --set x= sets it


@pytest.mark.parametrize("text, played", [("  ", None), (" 3 ", 3), ("", None)])
def test_a_variants_text_is_stripped_as_set_strips_it(text, played):
    # Round 34, P34-07: a variant's "  " was refused as its parser refuses it, where --set
    # gives the empty text (the spaces taken away) and unsets the parameter.
    game = go_or_stay(mdp.Param("x", None, int, "x"), lambda params: 2,
                      variants=[mdp.Variant("spaced", {"x": text}, "x spaced")])
    assert mdp.load_game(game, variant="spaced").params["x"] == played
