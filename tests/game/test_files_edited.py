"""A game or plugin given by its path and edited after it was loaded is loaded as it is now:
``mdp.load_game`` of the same path again (in a notebook, after an edit) solves the game as
edited, however soon the edit comes and whatever its size, and loading an unchanged file
again gives the very same module."""

import os
import textwrap
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK, WALK_BONUS, walk_value

GAME, PLUGIN = WALK, WALK_BONUS

WORTHS = st.lists(st.integers(0, 10**6), min_size=2, max_size=4)


def _write(path, text, **values):
    for name, value in values.items():
        text = text.replace(name, repr(value))
    with open(path, "w") as file:
        file.write(textwrap.dedent(text))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(worths=WORTHS)
def test_a_game_file_edited_is_solved_as_it_is_now(tmp_path_factory, worths):
    game = tmp_path_factory.mktemp("edited") / "walk.py"
    for worth in worths:  # written at once, one after another: often the same second and size
        _write(game, GAME, WORTH=worth)
        assert walk_value(game) == worth


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(worths=WORTHS)
def test_a_game_package_edited_in_a_module_of_its_own_is_solved_as_it_is_now(tmp_path_factory, worths):
    package = tmp_path_factory.mktemp("edited") / "walking"
    package.mkdir()
    _write(package / "__init__.py", GAME.replace("WORTH", "worth.WORTH").replace(
        "import mdp", "import mdp\nfrom . import worth"))
    for edit, worth in enumerate(worths, 1):
        (package / "worth.py").write_text(f"WORTH = {worth}\n")
        # Python's cache of the module beside is told from its source by the second of change
        # and the size: a new second for each edit, as an editor's save has.
        stamp = os.stat(package / "worth.py").st_mtime_ns + 10**9 * edit
        os.utime(package / "worth.py", ns=(stamp, stamp))
        assert walk_value(package) == worth


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(worth=st.integers(0, 100), bonuses=st.lists(st.integers(0, 10**6), min_size=2, max_size=4))
def test_a_plugin_file_edited_is_applied_as_it_is_now(tmp_path_factory, worth, bonuses):
    folder = tmp_path_factory.mktemp("edited")
    _write(folder / "walk.py", GAME, WORTH=worth)
    for bonus in bonuses:
        _write(folder / "bonus.py", PLUGIN, BONUS=Fraction(bonus, 7))
        assert walk_value(folder / "walk.py", [folder / "bonus.py"]) == worth + Fraction(bonus, 7)


def test_a_file_unchanged_is_not_imported_again(tmp_path):
    log = tmp_path / "imports.log"
    _write(tmp_path / "walk.py", f"open({str(log)!r}, 'a').write('imported ')\n" + GAME, WORTH=3)
    for _ in range(3):
        assert walk_value(tmp_path / "walk.py") == 3
    assert log.read_text() == "imported "
