"""Plugins tried without installing them: ``mdp -p FILE`` and ``mdp.load_game(plugins=...)``,
and the packaging that docs/rule-plugins.rst shows for them."""

import importlib.machinery
import json
import re
import shutil
import sys
import tomllib
import types
from fractions import Fraction
from pathlib import Path

import pytest
from brute_shutbox import solve as brute

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
ONE_TILE = str(ROOT / "docs" / "examples" / "shutbox_one_tile.py")
BLUNDERS = str(ROOT / "docs" / "examples" / "blunders.py")
REROLL = str(ROOT / "docs" / "examples" / "reroll.py")
PAGE = (ROOT / "docs" / "rule-plugins.rst").read_text()

# By hand (docs/rule-plugins.rst): tiles 1 and 2, one tile per roll. One die shuts tile 1 on a
# 1 or tile 2 on a 2 (1/6 each), and the tile left needs its own number with one die (1/6):
# 1/18. Two dice: only a 2 (1/36) shuts a tile, tile 2, leaving tile 1: 1/36 x 1/6 = 1/216.
# Without the rule a roll of 3 (one die: 1/6) shuts both: 1/6 + 1/18 = 2/9.
ONE_TILE_VALUE, TWO_DICE_VALUE, USUAL_VALUE = Fraction(1, 18), Fraction(1, 216), Fraction(2, 9)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_rule_plugin_file_is_solved_with_p(capsys):
    code, out, err = run(capsys, "solve", "shutbox", "-p", ONE_TILE, "--set", "tiles=1-2", "--exact")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].endswith("; one tile shut per roll")
    assert lines[2] == f"exact: {ONE_TILE_VALUE}"
    # and without it, the usual rules
    assert run(capsys, "solve", "shutbox", "--set", "tiles=1-2", "--exact")[1].splitlines()[2] == f"exact: {USUAL_VALUE}"


def test_the_command_on_the_page_prints_what_it_shows(capsys, monkeypatch):
    [block] = re.findall(r"^   \$ (mdp solve shutbox -p .*)\n((?:   \S.*\n)+)", PAGE, flags=re.MULTILINE)
    command, shown = block
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, *command.split()[1:])
    assert code == 0
    # all but the time taken
    assert out.splitlines()[:3] == [line.strip() for line in shown.splitlines()][:3]


@pytest.mark.parametrize("argv", [
    ["-p", ONE_TILE, "solve", "shutbox"],
    ["solve", f"-p{ONE_TILE}", "shutbox"],
    ["solve", "shutbox", f"--plugin={ONE_TILE}"],
    ["solve", "shutbox", "--plugin", ONE_TILE],
])
@pytest.mark.slow
def test_p_is_read_anywhere_in_every_spelling(capsys, argv):
    # On the standard box the rule is max_flips=1, which the independent solver knows.
    code, out, err = run(capsys, *argv, "--exact")
    assert (code, err) == (0, "")
    assert out.splitlines()[2] == f"exact: {brute(range(1, 10), max_flips=1)}"


@pytest.mark.slow
def test_a_rule_plugin_is_advised_exported_and_reported(capsys, tmp_path):
    code, out, _ = run(capsys, "advise", "shutbox", "-p", ONE_TILE, "--set", "tiles=1-2", "open=1 2", "--json")
    assert code == 0
    actions = {row["dice"]: row["value"] for row in json.loads(out)["actions"]}
    assert actions == {1: float(ONE_TILE_VALUE), 2: float(TWO_DICE_VALUE)}

    # The export of the plugin's rule is the export of the shipped flip limit at one tile,
    # but for the comments that name the rules.
    ours, theirs = tmp_path / "ours.prism", tmp_path / "theirs.prism"
    assert run(capsys, "export", "shutbox", "-p", ONE_TILE, "--set", "tiles=1-3", "--out", str(ours))[0] == 0
    assert run(capsys, "export", "shutbox", "--set", "tiles=1-3", "--set", "max_flips=1", "--out", str(theirs))[0] == 0
    uncommented = [[line for line in path.read_text().splitlines() if not line.startswith("//")]
                   for path in (ours, theirs)]
    assert uncommented[0] == uncommented[1]
    assert run(capsys, "export", "shutbox", "--set", "tiles=1-3", "--out", str(tmp_path / "usual.prism"))[0] == 0
    assert (tmp_path / "usual.prism").read_text().count("\n") > ours.read_text().count("\n")

    page = tmp_path / "report.html"
    assert run(capsys, "report", "shutbox", "-p", ONE_TILE, "--set", "tiles=1-2", "--out", str(page))[0] == 0
    html = page.read_text()
    assert "one tile shut per roll" in html and str(ONE_TILE_VALUE) in html


def test_a_rule_plugin_reaches_the_tables_of_vary(capsys):
    code, out, _ = run(capsys, "solve", "shutbox", "-p", ONE_TILE, "--vary", "tiles=1-2;1-3", "--exact", "--json")
    assert code == 0
    assert [row["exact"] for row in json.loads(out)] == [
        str(ONE_TILE_VALUE), str(brute(range(1, 4), max_flips=1))]


def test_a_rule_plugins_parameters_are_listed_and_set(tmp_path, capsys):
    plugin = _write(tmp_path, "streak.py", (
        "import mdp\n\n\n@mdp.hookimpl\ndef mdp_params():\n"
        "    return [mdp.Param('streak', 0, mdp.parse_int(0), 'a number of the plugin')]\n"))
    code, out, _ = run(capsys, "params", "shutbox", "-p", plugin, "--json")
    assert code == 0
    assert json.loads(out)[-1] == {"name": "streak", "default": 0, "help": "a number of the plugin"}
    assert mdp.load_game("shutbox", plugins=[plugin], streak="3").params["streak"] == 3


def test_a_rule_plugins_mdp_configure_is_called(tmp_path):
    # Its mdp_configure registers a plugin of its own, which flips the rule of one tile.
    plugin = _write(tmp_path, "nested.py", (
        "import mdp\n\n\n@mdp.hookimpl\ndef mdp_configure(plugins):\n"
        f"    plugins.register(mdp.game.found.load_plugin({ONE_TILE!r})[1], name='one tile')\n"))
    game = mdp.load_game("shutbox", plugins=[plugin], tiles="1-2")
    assert mdp.solve(mdp.compile(game), exact=True).value == ONE_TILE_VALUE


@pytest.mark.parametrize("meant", ["yahtzee", ("pig", "yahtzee")])
def test_a_plugin_an_mdp_configure_registers_is_checked_as_one_given(tmp_path, meant):
    # Round 32, P32-22: a plugin of another game (GAME = "bankmin") registered by a rule
    # plugin's mdp_configure ran inside game coin, where one given with -p is refused.
    other = _write(tmp_path, "other.py", f"import mdp\nGAME = {meant!r}\n\n\n@mdp.hookimpl\n"
                   "def mdp_describe():\n    return 'other rules'\n")
    plugin = _write(tmp_path, "nested.py", (
        "import mdp\n\n\n@mdp.hookimpl\ndef mdp_configure(plugins):\n"
        f"    plugins.register(mdp.game.found.load_plugin({other!r})[1], name='sneaky')\n"))
    games = meant if isinstance(meant, str) else " or ".join(meant)
    with pytest.raises(mdp.ParamError, match=f"^plugin sneaky is a rule plugin of game {games}, "
                                             "not of game shutbox$"):
        mdp.load_game("shutbox", plugins=[plugin], tiles="1-2")


def test_load_game_takes_plugins_by_path_name_or_module(monkeypatch):
    def value(plugins):
        game = mdp.load_game("shutbox", plugins=plugins, tiles="1-2")
        return mdp.solve(mdp.compile(game), exact=True).value

    assert value([ONE_TILE]) == value([Path(ONE_TILE)]) == ONE_TILE_VALUE
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "examples"))
    assert value(["shutbox_one_tile"]) == ONE_TILE_VALUE
    import shutbox_one_tile

    assert value([shutbox_one_tile]) == ONE_TILE_VALUE
    assert value([]) == USUAL_VALUE


def test_a_plugin_of_the_program_is_registered_for_the_run_alone(capsys):
    # docs/examples/blunders.py: with tile 1 alone open, two dice never total 1 while one die
    # rolls it with chance 1/6: choosing two dice there loses 1/6 (tests/program/test_extensions.py).
    code, out, _ = run(capsys, "blunders", "shutbox", "-p", BLUNDERS, "--set", "tiles=1-4", "--top", "1")
    assert code == 0 and out.splitlines()[1] == "0.1667 lost: open 1, dice 2"
    assert "blunders" not in mdp.analyses()  # gone once the run is over
    with pytest.raises(SystemExit):
        main(["-p", BLUNDERS, "--help"])
    assert re.search(r"^ +blunders +", capsys.readouterr().out, flags=re.MULTILINE)
    assert run(capsys, "formats", "-p", BLUNDERS)[1].splitlines()[-1].startswith("tsv")
    assert "tsv" not in mdp.formats()


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


HOOK = "import mdp\n\n\n@mdp.hookimpl\ndef {}(total):\n    return []\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "shutbox", "-p", "no_such_rule.py"], "plugin no_such_rule.py: no such file"),
    (["solve", "shutbox", "-p", " "],  # a blank name, quoted to be seen
     "plugin ' ': no such file or module (a plugin is a .py file, a package folder, or "
     "the name of a module that Python can import)"),
    (["solve", "shutbox", "-p", "no_such_module"],
     "plugin no_such_module: no such file or module (a plugin is a .py file, a package folder, or "
     "the name of a module that Python can import)"),
    (["solve", "shutbox", "-p", "{tmp}/unimportable.py"],
     "cannot import the plugin at {tmp}/unimportable.py: ModuleNotFoundError: No module named 'no_such_module_here'"),
    (["solve", "shutbox", "-p", "{tmp}/unparsable.py"],
     "cannot import the plugin at {tmp}/unparsable.py: SyntaxError: invalid syntax (unparsable.py, line 1)"),
    (["solve", "shutbox", "-p", "{tmp}/unmarked.py"],
     "plugin {tmp}/unmarked.py has no hooks: none of its functions is marked @mdp.hookimpl"),
    (["solve", "shutbox", "-p", "{tmp}/misspelt.py"],
     "game shutbox: plugin {tmp}/misspelt.py implements shutbox_move, which is no hook; did you mean shutbox_moves?"),
    (["solve", REROLL, "-p", ONE_TILE],  # it says which game it is for
     f"plugin {ONE_TILE} is a rule plugin of game shutbox, not of game reroll"),
    (["formats", "-p", ONE_TILE],
     f"plugin {ONE_TILE} implements no hook of the mdp program (its hooks: mdp_describe, shutbox_moves), "
     "and mdp formats loads no game for it to extend"),
    (["solve", "shutbox", "-p"], "-p needs a plugin: a .py file, a package folder or a module's name"),
    (["solve", "shutbox", "-p", str(ROOT / "plugins" / "shutbox_flip_limit.py")],
     f"game shutbox: plugin {ROOT / 'plugins' / 'shutbox_flip_limit.py'} is registered already"),
])
def test_a_bad_plugin_is_one_line(tmp_path, capsys, argv, message):
    _write(tmp_path, "unimportable.py", "import no_such_module_here\n")
    _write(tmp_path, "unparsable.py", "def (\n")
    _write(tmp_path, "unmarked.py", "def shutbox_moves(total):\n    return []\n")
    _write(tmp_path, "misspelt.py", HOOK.format("shutbox_move"))
    argv = [item.replace("{tmp}", str(tmp_path)) for item in argv]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"mdp: error: {message.replace('{tmp}', str(tmp_path))}\n"


def test_a_bad_plugin_is_the_same_error_in_python(tmp_path):
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game("shutbox", plugins=[_write(tmp_path, "misspelt_rule.py", HOOK.format("shutbox_move"))])
    assert str(error.value) == (f"game shutbox: plugin {tmp_path}/misspelt_rule.py implements shutbox_move, which is "
                                "no hook; did you mean shutbox_moves?")
    with pytest.raises(mdp.ModelError, match=r"^plugin object has no hooks: "):
        mdp.load_game("shutbox", plugins=[object()])


# The packaging that docs/rule-plugins.rst shows.


def _pyproject():
    blocks = re.findall(r"^\.\. code-block:: toml\n\n((?:   .*\n|\n)+)", PAGE, flags=re.MULTILINE)
    [text] = [block for block in blocks if "[build-system]" in block]
    return tomllib.loads("\n".join(line[3:] for line in text.splitlines()))


def test_the_pyproject_on_the_page_offers_the_plugin_in_the_games_group():
    from mdp_games import shutbox

    project = _pyproject()
    assert project["project"]["dependencies"] == ["exact-mdp"]  # this distribution's name
    assert list(project["project"]["entry-points"]) == [shutbox.RULE_PLUGINS]
    [(name, module)] = project["project"]["entry-points"][shutbox.RULE_PLUGINS].items()
    assert project["tool"]["setuptools"]["py-modules"] == [module]
    assert (ROOT / "docs" / "examples" / f"{module}.py").is_file()


def test_the_plugin_installed_as_the_page_says_is_in_force(tmp_path, monkeypatch):
    """What ``pip install .`` leaves for mdp to find: the module, and a distribution's
    entry_points.txt holding the entry points of the pyproject.toml on the page."""
    project = _pyproject()
    [module] = project["tool"]["setuptools"]["py-modules"]
    shutil.copy(ROOT / "docs" / "examples" / f"{module}.py", tmp_path)
    info = tmp_path / "shutbox_one_tile-0.1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
        for group, points in project["project"]["entry-points"].items()))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = mdp.load_game("shutbox", tiles="1-2")
    assert mdp.solve(mdp.compile(game), exact=True).value == ONE_TILE_VALUE


@pytest.mark.parametrize("name", [" ", "", "a b", "1x", "x..y", "mdp-rule"])
def test_a_name_no_import_gives_is_no_module_whatever_sys_modules_holds(monkeypatch, name):
    # A name that Python's import never gives (blank, spaced, dashed) names no module, even
    # where code of the same process left one in sys.modules under it (a test's, a game's):
    # in the full suite, -p " " had taken such a module as the plugin.
    left = types.ModuleType(name)
    left.__spec__ = importlib.machinery.ModuleSpec(name, None)  # as one imported has
    left.mdp_describe = mdp.hookimpl(lambda params: "left behind")
    monkeypatch.setitem(sys.modules, name, left)
    with pytest.raises(mdp.ModelError, match=r"^plugin .*: no such file or module \(a plugin is"):
        mdp.load_game("shutbox", plugins=[name])


def test_a_copied_game_folder_that_imports_beyond_itself_says_what_to_do(tmp_path, capsys):
    # Round 33, U33-08: a copy of games/shutbox (which imports ..dice) said only Python's
    # "attempted relative import beyond top-level package".
    shutil.copytree(ROOT / "games" / "shutbox", tmp_path / "sb", ignore=shutil.ignore_patterns("__pycache__"))
    assert main(["solve", str(tmp_path / "sb"), "--set", "tiles=1-3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: cannot import the game at {tmp_path / 'sb'}: ImportError: attempted "
                          "relative import beyond top-level package; its code imports from the package it "
                          "was copied out of"), err
    # Done as the line says: dice.py copied in, imported with one dot.
    shutil.copy(ROOT / "games" / "dice.py", tmp_path / "sb" / "dice.py")
    for module in (tmp_path / "sb").glob("*.py"):
        module.write_text(module.read_text().replace("from ..dice import", "from .dice import"))
    assert main(["solve", str(tmp_path / "sb"), "--set", "tiles=1-3", "--exact"]) == 0
    copied = capsys.readouterr().out.splitlines()
    assert main(["solve", "shutbox", "--set", "tiles=1-3", "--exact"]) == 0
    assert copied[1:3] == capsys.readouterr().out.splitlines()[1:3]  # the shipped game's value


def test_a_plugin_registered_by_a_configure_is_configured_too(tmp_path):
    # Round 33, P33-13: a rule plugin the game registered in its mdp_configure never had its
    # own mdp_configure called: what that registered was silently not in force.
    (tmp_path / "six.py").write_text("import mdp\n\n\n@mdp.hookimpl\ndef mdp_terminal_value(state):\n"
                                     "    return 100 if state[1] == 6 else None\n")
    (tmp_path / "outer.py").write_text(
        "import mdp\n\n\n@mdp.hookimpl\ndef mdp_configure(plugins):\n"
        f"    plugins.register(mdp.game.found.load_plugin({str(tmp_path / 'six.py')!r})[1], name='six')\n")
    reroll = (ROOT / "docs" / "examples" / "reroll.py").read_text()
    (tmp_path / "nested.py").write_text(
        reroll + "\n\n@mdp.hookimpl\ndef mdp_configure(plugins):\n"
        f"    plugins.register(mdp.game.found.load_plugin({str(tmp_path / 'outer.py')!r})[1], name='outer')\n")
    # By hand, a kept 6 worth 100: one roll 115/6; two, keep a 6 alone: (100 + 5 * 115/6)/6;
    # three: (100 + 5 * 1175/36)/6 = 9475/216.
    value = Fraction(9475, 216)
    assert mdp.solve(mdp.compile(mdp.load_game(str(tmp_path / "nested.py"))), exact=True).value == value
    given = mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py"), plugins=[str(tmp_path / "outer.py")])
    assert mdp.solve(mdp.compile(given), exact=True).value == value


def test_a_plugin_registered_without_a_name_is_named_by_its_class():
    # Round 34, P34-01: pluggy names a plugin registered without a name by its id, and the
    # refusal said "plugin 140212345678" of an object of class Other.
    class Other:
        GAME = "pig"

        @mdp.hookimpl
        def mdp_describe(self):
            return "other rules"

    @mdp.hookimpl
    def mdp_configure(plugins):
        plugins.register(Other())

    game = types.SimpleNamespace(GAME_NAME="host", mdp_configure=mdp_configure,
                                 mdp_initial_state=mdp.hookimpl(lambda: 0))
    with pytest.raises(mdp.ParamError, match="^plugin Other is a rule plugin of game pig, not of game host$"):
        mdp.load_game(game)


def test_a_game_of_no_hash_configures_what_it_registers():
    # A game given as a namespace (no hash) whose mdp_configure registers a plugin that has a
    # mdp_configure of its own: each is called once (pluggy's subset of a hook needs hashes).
    called = []

    class Inner:
        @mdp.hookimpl
        def mdp_describe(self):
            return "inner rules"

    class Outer:
        @mdp.hookimpl
        def mdp_configure(self, plugins):
            called.append("outer")
            plugins.register(Inner(), name="inner")

    @mdp.hookimpl
    def mdp_configure(plugins):
        called.append("game")
        plugins.register(Outer(), name="outer")

    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="host", mdp_configure=mdp_configure,
                                               mdp_initial_state=mdp.hookimpl(lambda: 0)))
    assert called == ["game", "outer"] and game.describe() == "inner rules"
