"""A parameter's value is shown as the text --set takes back: a ``show`` whose text its own
parser reads as another value would record another game than the one solved (--json), and
is refused, naming the plugin and the parameter."""

import json
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

PLUGIN = '''
import mdp
GAME = "shutbox"

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("extra", 3, int, "an extra", show=lambda v: SHOW)]
'''


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shift=st.integers(-2, 2), text=st.booleans())
def test_a_show_that_gives_another_value_is_refused_as_the_plugin_loads(tmp_path, capsys, shift, text):
    # Before: show=lambda v: str(v + 1) made --json record extra "4" for the value 3, exit 0.
    shown = f"v + {shift}" if not text else f"str(v + {shift})"
    plugin = tmp_path / f"show{shift + 2}{int(text)}.py"
    plugin.write_text(PLUGIN.replace("SHOW", shown))
    code = main(["solve", "games/shutbox", "--set", "tiles=1-3", "-p", str(plugin), "--json"])
    out, err = capsys.readouterr()
    if shift == 0:  # read back as the value itself (3 + 0)
        assert code == 0 and '"extra": ' + ('"3"' if text else "3") in out, err
    else:
        got = repr(str(3 + shift)) if text else str(3 + shift)
        assert (code, err) == (2, f"mdp: error: game shutbox: plugin {plugin}'s mdp_params declared "
                                  f"parameter extra badly: its show gave {got} for extra=3, which "
                                  f"--set reads as extra={3 + shift}; a value is shown as the text "
                                  "--set takes back\n")


@pytest.mark.parametrize("value", ["2", "4"])
def test_a_show_that_lies_for_a_value_set_is_refused_where_it_is_shown(tmp_path, capsys, value):
    plugin = tmp_path / "liar.py"
    plugin.write_text(PLUGIN.replace("SHOW", "str(v if v == 3 else v + 1)"))
    code = main(["solve", "games/shutbox", "--set", "tiles=1-3", "--set", f"extra={value}",
                 "-p", str(plugin), "--json"])
    assert code == 2
    assert capsys.readouterr().err == (
        f"mdp: error: game shutbox: plugin {plugin}'s parameter extra: its show gave '{int(value) + 1}' for "
        f"extra={value}, which --set reads as extra={int(value) + 1}; a value is shown as the "
        "text --set takes back\n")


DEFAULTS = '''
import mdp
GAME = "shutbox"

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("extra", DEFAULT, PARSE, "an extra", show=SHOW)]
'''

# Parsers a plugin might write, each reading text (what --set gives) into a value, and the
# show that writes such a value back: a default they read as another value (a tuple read
# through str(), a set read as text) was played so while `mdp params` showed the declared
# default; it shows what is played.
PARSERS = {
    "words": ('lambda t: tuple(str(t).split("|"))', 'lambda v: "|".join(v)'),
    "set": ('lambda t: frozenset(str(t).split("|"))', 'lambda v: "|".join(sorted(v))'),
    "whole": ("lambda t: int(str(t))", "None"),
    "text": ("str", "None"),
}


@pytest.mark.slow  # a game loaded for each of 25 examples: about 5 s
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parser=st.sampled_from(sorted(PARSERS)),
       default=st.one_of(st.integers(0, 9), st.text("ab", min_size=1, max_size=3),
                         st.lists(st.text("ab", min_size=1, max_size=2), min_size=1, max_size=3).map(tuple)))
# (no set as a default: a parser reading it through str() reads its elements in an order of
# the set's making, another in the plugin's file than here)
def test_mdp_params_shows_the_default_played(tmp_path, capsys, parser, default):
    parse, show = PARSERS[parser]
    plugin = tmp_path / "defaults.py"
    plugin.write_text(DEFAULTS.replace("DEFAULT", repr(default)).replace("PARSE", parse)
                      .replace("SHOW", show))
    code = main(["params", "games/shutbox", "-p", str(plugin), "--json"])
    out, err = capsys.readouterr()
    try:  # what the game's own parser makes of the default
        read = eval(parse)(default)
    except ValueError:  # refused by its own parser: the plugin's fault, said so
        assert (code, "is refused by its own parser" in err) == (2, True), err
        return
    if code == 2:  # only a show whose text its parser reads as another value
        assert err.startswith("mdp: error: ") and err.count("\n") == 1 and "show" in err, err
        return
    assert code == 0, err
    # what `mdp params` shows is what is played: the default as its own parser reads it
    shown = [row for row in __import__("json").loads(out) if row["name"] == "extra"][0]["default"]
    again = eval(parse)(shown)
    assert again == read


@pytest.mark.parametrize("game", ["shutbox", "yahtzee", "pig"])
def test_an_empty_value_sets_back_every_parameter_unset_by_default(game):
    # Before: Yahtzee's card, kind and category refused "--set card=" (their parsers take no
    # empty text), where Shut the Box's unset parameters took it (R19-N10).
    import mdp

    loaded = mdp.load_game(game)
    unset = [p.name for p in loaded.declared if p.default is None and not p.repeat]
    assert unset or game == "pig"
    for name in unset:
        assert mdp.load_game(game, **{name: ""}).params == loaded.params, name
    if game == "yahtzee":  # a variant's card taken back: one turn again
        assert mdp.load_game(game, variant="full", card="").params == loaded.params


OWN = '''
import mdp
@mdp.hookimpl
def mdp_params():
    return [mdp.Param("rolls", 3, int, "rolls"), mdp.Param("bonus", 3, int, "a bonus", show=SHOW)]
@mdp.hookimpl
def mdp_initial_state(): return 0
@mdp.hookimpl
def mdp_actions(state): return []
@mdp.hookimpl
def mdp_terminal_value(state): return 1
'''


@pytest.mark.parametrize(("show", "said"), [
    ("lambda v: str(v) + '\\x1b[31m'", "show gave '3\\x1b[31m': text with a control character"),
    ("lambda v: {}['nope']", "show raised KeyError: 'nope' (value 3)"),
    ("lambda v: '\\uff13'", "show gave '\uff13' for bonus=3, which its parser refuses"),
])
def test_a_game_s_own_show_at_fault_is_named_by_its_parameter(tmp_path, capsys, show, said):
    # Round 20 (F4): "game walk: its show gave ...": whose show, of two parameters, unsaid.
    game = tmp_path / "walk.py"
    game.write_text(OWN.replace("SHOW", show))
    assert main(["params", str(game)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: game walk: parameter bonus's {said}"), err


EMPTY = '''
import mdp
GAME_NAME = "walk"
@mdp.hookimpl
def mdp_params():
    return [mdp.Param("bonus", None, PARSE, "a bonus; empty means 7")]
@mdp.hookimpl
def mdp_initial_state(): return 0
@mdp.hookimpl
def mdp_actions(state): return []
@mdp.hookimpl
def mdp_terminal_value(state, params): return params["bonus"] or 0
'''


@pytest.mark.parametrize(("parse", "played"), [
    ("lambda v: 7 if v == '' else int(v)", 7),  # its parser's own reading of "" is played
    ("int", None),  # refused by its parser: unset, as before (R19-N10)
    ("lambda v: None if v == '' else int(v)", None),
])
def test_an_empty_value_of_a_parameter_unset_by_default_is_its_parser_s_to_read(tmp_path, parse, played):
    # Round 20 (F8): "--set bonus=" never reached the parser that read "" as 7: unset, 0 played.
    import mdp

    path = tmp_path / "walk.py"
    path.write_text(EMPTY.replace("PARSE", parse))
    game = mdp.load_game(str(path), bonus="")
    assert game.params["bonus"] == played
    assert mdp.solve(mdp.compile(game), exact=True).value == (played or 0)


VALUES = {  # what a parser with no show may give, and what --json shows of it
    "text": ("'a'", "a"), "whole": ("7", 7), "float": ("0.5", 0.5), "nan": ("float('nan')", "nan"),
    "true": ("True", True), "numpy int": ("np.int64(3)", 3), "numpy float": ("np.float32(0.25)", 0.25),
    "fraction": ("Fraction(1, 2)", "1/2"), "decimal": ("Decimal('0.1')", "0.1"),
    "long double": ("np.longdouble('1e4000')", "1e+4000"), "array": ("np.array([1, 2])", "[1 2]"),
    "set": ("frozenset('a')", "frozenset({'a'})"), "dict": ("{1: 'a', '1': 'b'}", "{1: 'a', '1': 'b'}"),
    "list": ("[float('nan')]", "[nan]"), "tuple": ("(1, 2)", [1, 2]), "mapping": ("{'k': 1}", {"k": 1}),
    "bytes": ("b'x'", None)}
GIVES = '''
import mdp
import numpy as np
from decimal import Decimal
from fractions import Fraction
GAME = "shutbox"

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("extra", "", lambda text: VALUE, "an extra")]
'''


@pytest.mark.slow
@pytest.mark.parametrize("kind", VALUES)
def test_a_value_with_no_show_is_shown_as_json_holds_it_or_as_its_text(tmp_path, capsys, kind):
    # Round 23: a set, an array, a long double with no show were tracebacks in --json after
    # the work (TypeError, ValueError, RecursionError), and a mapping of keys 1 and "1" JSON
    # with two keys alike. Shown as JSON holds it, or as its text, as tables show it; bytes,
    # which have no text, refused as the game loads.
    value, expected = VALUES[kind]
    plugin = tmp_path / "gives.py"
    plugin.write_text(GIVES.replace("VALUE", value))
    code = main(["solve", "games/shutbox", "--set", "tiles=1-3", "-p", str(plugin), "--json"])
    out, err = capsys.readouterr()
    if expected is None:
        assert (code, out) == (2, "")
        assert err.startswith(f"mdp: error: game shutbox: plugin {plugin}'s ") and \
            "its value is b'x' (bytes)" in err, err
        return
    assert code == 0, err
    assert json.loads(out)["params"]["extra"] == expected


@pytest.mark.parametrize("show", [str, repr, lambda v: f"{v:d}"])
def test_an_unset_parameter_is_shown_unset_without_asking_its_show(show):
    # Round 32, P32-15: show=str was asked about None (not set), gave 'None', which the
    # parser refused: the whole game was refused. A show renders values that are set.
    param = mdp.Param("x", None, int, "x", show=show)
    assert param.shown(None) is None
    module = SimpleNamespace(
        GAME_NAME="unset", mdp_params=mdp.hookimpl(lambda: [param]),
        mdp_initial_state=mdp.hookimpl(lambda: 0), mdp_actions=mdp.hookimpl(lambda state: []),
        mdp_terminal_value=mdp.hookimpl(lambda params, state: params["x"] or 0))
    game = mdp.load_game(module)
    assert game.params["x"] is None and game.shown_params() == {"x": None}
    assert mdp.load_game(module, x="5").shown_params() == {"x": show(5)}
