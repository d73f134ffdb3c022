"""Names taken from installed distributions' entry points: a name two distributions offer is
refused, naming both, in every group mdp reads (never "first on sys.path wins"), and a broken
installed plugin is named by its entry point and distribution, while ``--help`` and
``--version`` still answer."""

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mdp
from mdp.game.plugins import GAMES_ENTRY_POINTS, PLUGINS_ENTRY_POINTS, distribution
from mdp.program.cli import main
from mdp.program.registry import plugins

GAME = '"""A game of one state."""\nimport mdp\n\n@mdp.hookimpl\ndef mdp_initial_state():\n    return 0\n'
PLUGIN = "import mdp\n"  # a plugin of the program that implements no hook


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """``install(distribution, group, {name: module text})``: an installed distribution
    (its dist-info folder on sys.path) offering the modules in ``group``."""

    def install(dist, group, offers):
        folder = tmp_path / f"{dist}-1.0.dist-info"
        folder.mkdir()
        lines = []
        for name, text in offers.items():
            module = f"m_{dist}_{name}".lower().replace(".", "_")
            (tmp_path / f"{module}.py").write_text(text)
            lines.append(f"{name} = {module}")
        (folder / "entry_points.txt").write_text(f"[{group}]\n" + "\n".join(lines) + "\n")

    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.cache_clear()
    yield install
    monkeypatch.undo()
    plugins.cache_clear()


def test_a_game_two_distributions_offer_is_refused_naming_both(installed, capsys):
    installed("one_pack", GAMES_ENTRY_POINTS, {"clash": GAME, "alone": GAME})
    installed("two.Pack", GAMES_ENTRY_POINTS, {"clash": GAME})
    message = ("two installed distributions offer the game 'clash' (one-pack and two-pack, in the "
               "mdp.games entry-point group); uninstall one of them")
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game("clash")
    assert str(error.value) == message
    assert main(["solve", "clash"]) == 2
    assert capsys.readouterr().err == f"mdp: error: {message}\n"
    assert mdp.load_game("alone").name == "m_one_pack_alone"  # the others are not touched
    assert main(["games"]) == 0
    shown = {line.split("  ")[0].strip(): line for line in capsys.readouterr().out.splitlines()}
    assert shown["clash"].endswith("(two installed distributions offer it (one-pack and two-pack, "
                                   "in the mdp.games entry-point group); uninstall one of them)")
    assert shown["alone"].endswith("A game of one state.")


def test_an_installed_plugin_two_distributions_offer_is_refused_naming_both(installed, capsys):
    installed("one_pack", PLUGINS_ENTRY_POINTS, {"dup": PLUGIN})
    installed("two_pack", PLUGINS_ENTRY_POINTS, {"dup": PLUGIN})
    assert main(["formats"]) == 2
    assert capsys.readouterr().err == (
        "mdp: error: two installed distributions offer the plugin 'dup' (one-pack and two-pack, "
        "in the mdp.plugins entry-point group); uninstall one of them\n")


def test_one_distribution_on_sys_path_twice_is_no_clash(installed, tmp_path, capsys):
    installed("one_pack", GAMES_ENTRY_POINTS, {"twice": GAME})
    copy = tmp_path / "one_pack-0.9.dist-info"  # an older copy of the same distribution
    copy.mkdir()
    copy.joinpath("entry_points.txt").write_text("[mdp.games]\ntwice = m_one_pack_twice\n")
    assert mdp.load_game("twice").name == "m_one_pack_twice"


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,5}([-_.]+[A-Za-z0-9]{1,5}){0,3}", fullmatch=True),
       st.sampled_from(["dist-info", "egg-info"]))
@pytest.mark.slow  # half a second or more of CPU
def test_a_distribution_is_named_as_its_spellings_normalize(name, kind):
    version = "-1.2.3" if kind == "dist-info" else ""
    normalized = re.sub(r"[-_.]+", "-", name).lower()
    shown = distribution(f"/site/{name.replace('-', '_')}{version}.{kind}/entry_points.txt")
    assert shown == normalized


@pytest.mark.parametrize("asked", [["--version"], ["--help"], ["solve", "--help"]])
def test_a_broken_installed_plugin_is_named_and_help_and_version_still_answer(installed, capsys, asked):
    installed("broken_pack", PLUGINS_ENTRY_POINTS, {"badprog": "import no_such_module_here\n"})
    line = ("installed plugin badprog (broken-pack's mdp.plugins entry point): cannot import "
            "m_broken_pack_badprog: ModuleNotFoundError: No module named 'no_such_module_here'")
    assert main(["formats"]) == 2
    assert capsys.readouterr().err == f"mdp: error: {line}\n"
    with pytest.raises(SystemExit) as exited:
        main(asked)
    assert exited.value.code == 0
    said = capsys.readouterr()
    assert said.err == f"mdp: warning: {line}; mdp's own commands alone are offered\n"
    assert ("mdp " + mdp.__version__) in said.out if asked == ["--version"] else "usage: mdp" in said.out


PACKS = itertools.count()
RAISING = """import mdp


def write(frame, file):
    file.write(b"half")
    raise {error}


def run(args):
    raise {error}


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("boom", (".boom",), write, "a format that raises")]


@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("boom", "a command that raises", run, lambda parser: None)]
"""


@pytest.mark.slow
@pytest.mark.parametrize("error", ["mdp.ModelError('bad')", "mdp.ParamError('bad')",
                                   "mdp.TooLarge('bad')", "MemoryError()", "ValueError('bad')"])
@pytest.mark.parametrize("argv", [["policy", "shutbox", "--set", "tiles=1-3", "--out", "t.boom"],
                                  ["boom"]])
def test_an_installed_plugins_own_code_is_named_as_a_plugin_files_is(installed, tmp_path, capsys,
                                                                      monkeypatch, error, argv):
    """What an installed plugin's format or command raises (one of mdp's errors, or running out
    of memory itself) was said as mdp's own ("mdp: error: bad", or "out of memory ... solve a
    smaller game", exit 3), where the same code in a plugin's file was named: both are named."""
    monkeypatch.chdir(tmp_path)
    code = RAISING.format(error=error)
    (tmp_path / "own.py").write_text(code)
    from_file = main(["-p", "own.py", *argv]), capsys.readouterr().err
    installed(f"pack{next(PACKS)}", PLUGINS_ENTRY_POINTS, {"own": code})  # (a module of its own)
    (tmp_path / "later").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path / "later"))  # another sys.path: its entry points read
    plugins.cache_clear()
    as_installed = main(argv), capsys.readouterr().err
    assert from_file[0] == as_installed[0] == 2, (from_file, as_installed)
    assert as_installed[1] == from_file[1].replace("plugin own.py's", "plugin own's"), as_installed
    refusal = argv == ["boom"] and "ParamError" in error  # a command's word to its user, as is
    assert ("plugin own's " in as_installed[1]) is not refusal and not (tmp_path / "t.boom").exists()
