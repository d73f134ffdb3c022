"""A game file or a ``-p`` plugin named like a module that mdp or its libraries import
(``numpy.py``, ``json.py``, ``decimal.py`` beside a plugin) is loaded as itself: it neither
replaces that module nor is taken for it, so the game solves to its own value."""

import functools
import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp

# A coin: bet for 1 with chance 1/2, or walk away with 1/3. Its value is 1/2, known by hand.
# It imports modules that mdp imports too, so that a shadow of them would show.
COIN = '''
import decimal, fractions, json, random
import mdp

GAME_NAME = "coin"

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["bet", "walk"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    half = fractions.Fraction(1, 2)
    return [(half, "won"), (half, "lost")] if action == "bet" else [(1, "walked")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {"won": 1, "lost": 0, "walked": fractions.Fraction(1, 3)}[state]
'''

# A rule plugin that says so in the game's description, and imports a module of its own
# that lies beside it: sibling imports keep working.
RULE = '''
import mdp
import rule_helper_of_this_test

@mdp.hookimpl
def mdp_describe():
    return rule_helper_of_this_test.WORDS
'''


@functools.cache
def imported_names() -> list[str]:
    """Every top-level module that mdp and its libraries have imported once mdp solved a
    game and drew a plot: the names a user's file could shadow."""
    code = textwrap.dedent("""
        import json, sys
        import attrs, matplotlib, matplotlib.pyplot, numpy, pluggy, polars
        import mdp
        game = mdp.load_game("shutbox", tiles="1-4")
        solution = mdp.solve(mdp.compile(game), exact=True)
        mdp.policy(solution, game), mdp.distribution(solution, game), mdp.report(solution, game)
        names = {name.partition(".")[0] for name in sys.modules}
        # Those an import finds by that name: not a compiled module that registered itself
        # under a second, top-level name as it loaded (SciPy's _csparsetools, Cython's
        # _cython_3_2_4), which no import finds.
        def found(name):
            spec = getattr(sys.modules.get(name), "__spec__", None)
            return name in sys.builtin_module_names or name == "__main__" or \
                (spec is not None and spec.name == name)
        print(json.dumps(sorted(name for name in names if name.isidentifier() and found(name))))
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "MPLBACKEND": "Agg"})
    return json.loads(done.stdout)


@pytest.mark.slow  # half a second or more of CPU
def test_the_names_are_those_of_mdp_and_its_libraries():
    names = imported_names()
    assert {"numpy", "polars", "pluggy", "attrs", "matplotlib", "json", "random", "decimal",
            "mdp", "fractions"} <= set(names)


def mdp_run(*argv: str, cwd) -> subprocess.CompletedProcess:
    # From another folder than the files': ``python -m`` puts its own folder first on sys.path.
    return subprocess.run([sys.executable, "-m", "mdp", *argv], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env={**os.environ, "MPLBACKEND": "Agg"})


@pytest.mark.slow
def test_every_name_as_a_game_file_loads_that_file_in_one_process(tmp_path):
    # In one process, each name in turn: the game solves to the coin's 1/2, and the module
    # of that name (imported already, or later) is still the library's, not the file.
    names = imported_names()
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.py").write_text(COIN)
    code = textwrap.dedent(f"""
        import importlib, json, sys
        import mdp
        folder, names, wrong = {str(tmp_path)!r}, {names!r}, []
        for name in names:
            game = mdp.load_game(f"{{folder}}/{{name}}/{{name}}.py")
            value = mdp.solve(mdp.compile(game), exact=True).value
            module = sys.modules.get(name) or importlib.import_module(name)
            if game.name != "coin" or str(value) != "1/2" \\
                    or (getattr(module, "__file__", None) or "").startswith(folder):
                wrong.append((name, game.name, str(value), getattr(module, "__file__", None)))
        print(json.dumps(wrong))
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd="/", env={**os.environ, "MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def name_of_a_module() -> st.SearchStrategy[str]:
    # Deferred: the names are found (a process of their own) when a test draws one, not as
    # the tests are collected, by every worker, for runs that leave these tests out.
    return st.deferred(lambda: st.sampled_from(imported_names()))


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=name_of_a_module())
def test_a_game_file_named_like_a_module_solves(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("game")
    (folder / f"{name}.py").write_text(COIN)
    done = mdp_run("solve", str(folder / f"{name}.py"), "--exact", "--json",
                   cwd=tmp_path_factory.mktemp("elsewhere"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["exact"] == "1/2"


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=name_of_a_module(), beside=name_of_a_module())
def test_a_plugin_named_like_a_module_is_itself_and_hides_nothing(tmp_path_factory, name, beside):
    # The plugin's folder holds, beside it, a module that breaks whoever imports it: the
    # library's own module of that name is still the one imported.
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "coin.py").write_text(COIN)
    (folder / f"{name}.py").write_text(RULE)
    (folder / "rule_helper_of_this_test.py").write_text("WORDS = 'the coin, with a rule'\n")
    if beside not in (name, "rule_helper_of_this_test"):
        (folder / f"{beside}.py").write_text("raise RuntimeError('the wrong module')\n")
    done = mdp_run("solve", str(folder / "coin.py"), "-p", str(folder / f"{name}.py"),
                   "--exact", "--json", cwd=tmp_path_factory.mktemp("elsewhere"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["exact"], result["rules"]) == ("1/2", "the coin, with a rule")


def test_a_game_package_keeps_its_relative_imports(tmp_path):
    # A game folder named like a library, whose rules live in a module of its own.
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "rules.py").write_text("STAKE = 3\n")
    (tmp_path / "json" / "__init__.py").write_text(COIN.replace(
        '"won": 1', '"won": rules.STAKE').replace("import mdp\n", "import mdp\nfrom . import rules\n", 1))
    game = mdp.load_game(tmp_path / "json")
    # Bet: (3 + 0) / 2 = 3/2 beats walking away with 1/3.
    assert (game.name, mdp.solve(mdp.compile(game), exact=True).value) == ("coin", 3 / 2)
    assert json.loads("[1]") == [1]  # the library's json still answers


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.lists(st.tuples(st.sampled_from(["helper", "rules", "common"]), st.booleans()),
                      min_size=2, max_size=4))
def test_games_in_two_folders_each_import_their_own_module_of_one_name(tmp_path_factory, games):
    # Before: the second game's "from helper import STAKE" got the first game's helper (found
    # by a plugin author's attack). Game k's stake is k + 1: the coin is worth (k + 1) / 2.
    loaded = []
    for k, (helper, package) in enumerate(games):
        folder = tmp_path_factory.mktemp("game")
        (folder / f"{helper}.py").write_text(f"STAKE = {k + 1}\n")
        source = COIN.replace('"won": 1', '"won": STAKE').replace(
            "import mdp\n", f"import mdp\nfrom {helper} import STAKE\n", 1)
        if package:
            (folder / "pk").mkdir()
            (folder / "pk" / "__init__.py").write_text(source)
            loaded.append(mdp.load_game(str(folder / "pk")))
        else:
            (folder / "coin.py").write_text(source)
            loaded.append(mdp.load_game(str(folder / "coin.py")))
    values = [mdp.solve(mdp.compile(game), exact=True).value for game in loaded]
    assert values == [Fraction(k + 1, 2) for k in range(len(games))]
