"""A helper module beside a game or plugin file, which the file imports (``import
my_helpers``), edited after the file was loaded is loaded as it is now: ``mdp.load_game`` of
the same path again in one process solves the game with the helper as edited, however soon
the edit comes and whatever its size. Before, the first load's helper was kept until the
file itself changed: a silently stale value."""

import itertools
import textwrap
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK, WALK_BONUS, walk_value

# WALK and WALK_BONUS (tests/models.py) with their WORTH and BONUS read from a helper.
GAME = "import HELPER\n" + WALK.replace("WORTH", "HELPER.WORTH")
PLUGIN = "import HELPER\n" + WALK_BONUS.replace("BONUS", "HELPER.BONUS")

VALUES = st.lists(st.integers(0, 10**6), min_size=2, max_size=4)
_NUMBERS = itertools.count()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(worths=VALUES)
def test_a_game_s_helper_edited_is_loaded_as_it_is_now(tmp_path_factory, worths):
    folder = tmp_path_factory.mktemp("helper")
    helper = f"worth_{next(_NUMBERS)}"
    (folder / "walk.py").write_text(textwrap.dedent(GAME.replace("HELPER", helper)))
    for worth in worths:  # written at once, one after another: often the same second and size
        (folder / f"{helper}.py").write_text(f"WORTH = {worth}\n")
        assert walk_value(folder / "walk.py") == worth


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(worth=st.integers(0, 100), bonuses=VALUES)
def test_a_plugin_s_helper_edited_is_applied_as_it_is_now(tmp_path_factory, worth, bonuses):
    folder = tmp_path_factory.mktemp("helper")
    number = next(_NUMBERS)
    worths, bonus_of = f"worth_{number}", f"bonus_{number}"
    (folder / f"{worths}.py").write_text(f"WORTH = {worth}\n")
    (folder / "walk.py").write_text(GAME.replace("HELPER", worths))
    (folder / "plus.py").write_text(PLUGIN.replace("HELPER", bonus_of))
    for bonus in bonuses:
        (folder / f"{bonus_of}.py").write_text("from fractions import Fraction\n"
                                               f"BONUS = {Fraction(bonus, 7)!r}\n")
        assert walk_value(folder / "walk.py", [folder / "plus.py"]) == worth + Fraction(bonus, 7)


def test_a_helper_unchanged_is_not_imported_again(tmp_path):
    log = tmp_path / "imports.log"
    helper = f"worth_{next(_NUMBERS)}"
    (tmp_path / f"{helper}.py").write_text(f"open({str(log)!r}, 'a').write('imported ')\nWORTH = 3\n")
    (tmp_path / "walk.py").write_text(GAME.replace("HELPER", helper))
    for _ in range(3):
        assert walk_value(tmp_path / "walk.py") == 3
    assert log.read_text() == "imported "
