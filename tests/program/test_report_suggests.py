"""The commands a report page suggests (``mdp strategies ...``, ``mdp advise ...``) load the
game the page is about with the page's rules and aim: its path or installed name, ``--set``,
``--variant``, ``-p`` and ``--minimize`` as it was made; run, they answer for those rules.
The command line is said in one place (:meth:`mdp.Game.command`)."""

import html
import json
import re
import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _suggested(page: str) -> list[str]:
    return [html.unescape(code) for code in re.findall(r"<code>(mdp (?:strategies|advise) [^<]*)</code>", page)]


def _page(tmp_path, argv):
    out = tmp_path / "r.html"
    assert main(["report", *argv, "--no-strategies", "--max-rows", "1", "--out", str(out)]) == 0
    return out.read_text()


def _optimal(argv, capsys):
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    return next(row["value"] for row in json.loads(capsys.readouterr().out) if row["strategy"] == "optimal")


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tiles=st.sampled_from([None, "1-3", "2-5"]), variant=st.sampled_from([None, "durango", "two-dice"]),
       minimize=st.booleans())
def test_the_suggested_commands_answer_for_the_page_s_rules(tmp_path_factory, capsys, tiles, variant, minimize):
    rules = ["shutbox", *(["--variant", variant] if variant else []),
             *(["--set", f"tiles={tiles}"] if tiles else []), *(["--minimize"] if minimize else [])]
    page = _page(tmp_path_factory.mktemp("report"), rules)
    strategies, advise = _suggested(page)
    words = shlex.split(strategies)
    assert words[:2] == ["mdp", "strategies"]
    assert shlex.split(advise)[2:-2] == words[2:]  # advise names the game as strategies does
    game = mdp.load_game("shutbox", variant=variant, **({"tiles": tiles} if tiles else {}))
    expected = mdp.solve(mdp.compile(game), sense="min" if minimize else None).value
    assert _optimal(words[1:], capsys) == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow  # half a second or more of CPU
def test_a_game_by_path_with_a_plugin_is_suggested_by_its_path_and_plugin(tmp_path, capsys):
    path, plugin = str(ROOT / "games" / "shutbox"), str(ROOT / "docs" / "examples" / "shutbox_one_tile.py")
    page = _page(tmp_path, [path, "--set", "tiles=1-5", "-p", plugin])
    strategies = shlex.split(_suggested(page)[0])
    assert strategies[2:] == [path, "--set", "tiles=1-5", "-p", plugin]
    game = mdp.load_game(path, plugins=[plugin], tiles="1-5")
    assert _optimal(strategies[1:], capsys) == pytest.approx(mdp.solve(mdp.compile(game)).value, rel=1e-12)


def test_a_game_remembers_how_it_was_loaded_through_changes_of_its_rules():
    game = mdp.load_game("shutbox", variant="durango", tiles="1-4")
    assert game.command("strategies") == "mdp strategies shutbox --variant durango --set tiles=1-4"
    changed = game.with_params(tiles="1-5", dice="3")
    assert changed.command("advise", "X=1") == (
        "mdp advise shutbox --set tiles=1-5 --set dice=3 --variant durango X=1")
    assert mdp.load_game(mdp.load_game("shutbox").plugins.list_name_plugin()[0][1]).command("solve") == \
        "mdp solve GAME"  # a game loaded from a Python object: no command line names it
