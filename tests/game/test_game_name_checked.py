"""A game's ``GAME_NAME`` is checked as a rule plugin's ``GAME`` is: text, not empty, printable
(no line break, escape or other control character) and no space at either end; anything else
is one line naming the game by its file and the value, exit code 2. Before, control
characters reached standard output raw, ``42`` was taken (an int in the JSON) and ``""`` fell
back to the file's name without a word."""

import json
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

NAMES = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["walk", "Shut the Box", " walk", "walk ", "a\nb", "a\x1b[31mRED", "\u2028",
                     "tab\there", "\xa0walk", "walk\u200b", "é"]),
    st.integers(), st.none(), st.binary(max_size=3), st.lists(st.text(max_size=2), max_size=2))


def _named(name):
    """Whether ``name`` is a game's name, by hand: text, not empty, each character of a
    category outside "Other" and the separators (the space alone excepted), not a space
    first or last."""
    if not isinstance(name, str) or name == "":
        return False
    shown = all(c == " " or unicodedata.category(c)[0] not in "CZ" for c in name)
    return shown and name[0] != " " and name[-1] != " "


def _game(**names):
    game = ModuleType("walk_game")
    vars(game).update(names)
    game.mdp_initial_state = mdp.hookimpl(lambda: "start")
    game.mdp_actions = mdp.hookimpl(lambda state: ["walk"] if state == "start" else [])
    game.mdp_outcomes = mdp.hookimpl(lambda state, action: [(1, "walked")])
    game.mdp_terminal_value = mdp.hookimpl(lambda state: 3)
    return game


@settings(max_examples=150, deadline=None)
@given(NAMES)
def test_a_game_s_name_is_taken_or_refused_in_one_line(name):
    if _named(name):
        assert mdp.load_game(_game(GAME_NAME=name)).name == name
        return
    with pytest.raises(mdp.ModelError) as refused:
        mdp.load_game(_game(GAME_NAME=name))
    assert str(refused.value) == (f"game walk_game: GAME_NAME is {name!r}; a game's name is text, "
                                  "not empty, with no line break or other control character and "
                                  "no space at either end")


@settings(max_examples=60, deadline=None)
@given(NAMES)
def test_a_rule_plugin_s_game_is_held_to_the_same_rule(name):
    plugin = ModuleType("rule")
    plugin.GAME = name
    plugin.mdp_describe = mdp.hookimpl(lambda: "described")
    game = _game(GAME_NAME="walk")
    if name is None:  # no GAME: a plugin of any game
        assert mdp.load_game(game, plugins=[plugin]).name == "walk"
    elif not _named(name) and not isinstance(name, list):
        with pytest.raises(mdp.ModelError, match="^plugin rule: GAME is .*, not a game's name"):
            mdp.load_game(game, plugins=[plugin])
    elif name == "walk":
        assert mdp.load_game(game, plugins=[plugin]).name == "walk"
    else:
        with pytest.raises(mdp.MdpError):
            mdp.load_game(game, plugins=[plugin])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES)
@pytest.mark.slow  # half a second or more of CPU
def test_the_program_says_a_game_s_name_refused_in_one_printable_line(tmp_path_factory, capsys, name):
    game = tmp_path_factory.mktemp("named") / "walk.py"
    game.write_text(f"import mdp\nGAME_NAME = {name!r}\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return []\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n")
    code = main(["solve", str(game), "--json"])
    out, err = capsys.readouterr()
    if _named(name):
        assert code == 0 and json.loads(out)["game"] == name, err
    else:
        assert code == 2 and out == "" and err.count("\n") == 1 and err[:-1].isprintable(), err
        assert err == (f"mdp: error: game walk: GAME_NAME is {name!r}; a game's name is text, "
                       "not empty, with no line break or other control character and no space "
                       "at either end\n")


def test_a_game_without_a_name_is_named_by_its_file():
    assert mdp.load_game(_game()).name == "walk_game"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"),
               min_size=1, max_size=6) | st.sampled_from([" -dash", "x ", "\tx", " ", "x\nvalue: 99"]))
def test_a_game_named_by_its_file_shows_no_character_raw(tmp_path_factory, stem):
    # A game without GAME_NAME is named by its file: a file "x\nvalue: 99.py" printed a line
    # "value: 99" above the real value; its control characters are shown as their escapes.
    folder = tmp_path_factory.mktemp("named")
    path = folder / f"{stem}.py"
    try:
        path.write_text("import mdp\n"
                        "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
                        "@mdp.hookimpl\ndef mdp_actions(state): return ['a'] if state == 0 else []\n"
                        "@mdp.hookimpl\ndef mdp_outcomes(state, action): return [(1, 1)]\n"
                        "@mdp.hookimpl\ndef mdp_terminal_value(state): return 2\n")
    except (OSError, ValueError):  # a name this file system refuses
        return
    if " " in (stem[0], stem[-1]):  # a space at either end (other spaces are escaped): refused
        with pytest.raises(mdp.ModelError) as refused:
            mdp.load_game(str(path))
        message = str(refused.value)
        assert message.startswith("a game without GAME_NAME is named by its file's name, and ")
        assert message.endswith("; set GAME_NAME, or rename the file") and message.isprintable()
        return
    name = mdp.load_game(str(path)).name
    assert name.isprintable()  # nothing raw: no line of its own, no escape sequence
    assert name == stem if stem.isprintable() else "\\" in name
    assert name == name.strip() and name  # held to GAME_NAME's rules


@pytest.mark.parametrize("name", ["pig", "shutbox"])
def test_a_folder_here_named_like_an_installed_game_is_refused(tmp_path, monkeypatch, capsys, name):
    # Before: the folder took the installed game's place without a word (R19-N9): mdp params
    # yahtzee listed nothing, mdp solve pig solved the folder's Reroll.
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text(
        (Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py").read_text())
    monkeypatch.chdir(tmp_path)
    assert main(["solve", name]) == 2
    assert capsys.readouterr().err == (f"mdp: error: {name!r} names both the installed game {name} "
                                       f"and the folder ./{name} here: give ./{name} for the folder, "
                                       "or run mdp from another folder for the installed game\n")
    assert main(["solve", f"./{name}"]) == 0
    assert "Reroll" in capsys.readouterr().out


class _Shown(str):
    """A name that shows itself otherwise when printed or formatted."""

    def __str__(self):
        return "other"

    def __format__(self, spec):
        return "fmt"


def test_a_name_of_a_str_subclass_is_read_once_by_its_text(tmp_path, capsys):
    # Before: messages (formatted) named the game "fmt", the JSON "walk" (R20 F12).
    assert type(mdp.load_game(_game(GAME_NAME=_Shown("walk"))).name) is str
    plugin = ModuleType("rule")
    plugin.GAME = _Shown("walk")
    plugin.mdp_describe = mdp.hookimpl(lambda: "described")
    assert mdp.load_game(_game(GAME_NAME="walk"), plugins=[plugin]).name == "walk"
    game = tmp_path / "walk.py"
    game.write_text("import mdp\nclass _S(str):\n    def __str__(self): return 'other'\n"
                    "    def __format__(self, spec): return 'fmt'\nGAME_NAME = _S('walk')\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return []\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n")
    assert main(["solve", str(game), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "walk"
    assert main(["solve", str(game), "--set", "x=1"]) == 2
    assert "for game walk " in capsys.readouterr().err
