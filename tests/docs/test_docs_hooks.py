"""The docs list every hook, with its signature, and every public name of mdp."""

import re
from pathlib import Path

import mdp
import mdp.hookspecs.game
import mdp.hookspecs.program
import mdp.hookspecs.turns
from mdp_games.shutbox import hookspecs as shutbox_hooks

DOCS = Path(__file__).resolve().parents[2] / "docs"
HOOKSPEC_MODULES = [mdp.hookspecs.game, mdp.hookspecs.program, shutbox_hooks]
# A game's hooks: those of mdp.hookspecs.game, then the one it keeps in mdp.hookspecs.turns.
GAME_MORE = [mdp.hookspecs.turns]


def _hookspecs(module):
    """The hook specifications of a module, in the order of its source, found by the marker
    that pluggy reads (not by their names)."""
    return [f"{module.__name__}.{name}" for name, value in vars(module).items()
            if hasattr(value, f"{mdp.hookspecs.PROJECT}_spec") and value.__module__ == module.__name__]


def _autosummaries(page):
    """The entries of every ``autosummary`` table of a page, in order, each one list."""
    blocks = re.findall(r"^\.\. autosummary::\n\n((?:   \S.*\n)+)", (DOCS / page).read_text(), flags=re.MULTILINE)
    return [[line.strip().lstrip("~") for line in block.splitlines()] for block in blocks]


def test_writing_a_game_lists_every_hook_in_the_order_of_its_specification():
    # autosummary reads each hook's signature and first line from the specification itself;
    # the names are checked here, so that a hook added or removed is added or removed there.
    expected = [_hookspecs(module) for module in HOOKSPEC_MODULES]
    expected[0] += [hook for module in GAME_MORE for hook in _hookspecs(module)]
    assert _autosummaries("writing-a-game.rst") == expected
    # Those kept apart are a game's hooks all the same: pluggy finds them in the game's module.
    assert all(hasattr(mdp.hookspecs.game, hook.rsplit(".", 1)[1]) for hook in expected[0])


def test_the_api_page_documents_every_public_name():
    text = (DOCS / "api.rst").read_text()
    documented = set(re.findall(r"^\.\. (?:auto)?(?:class|function|data|exception|module):: mdp\.(\w+)$",
                                text, flags=re.MULTILINE))
    assert set(mdp.__all__) - documented == set()


def test_shut_the_boxs_classes_for_rule_plugins_are_documented():
    text = (DOCS / "rule-plugins.rst").read_text()
    assert ".. autoclass:: mdp_games.shutbox.scoring.ScoringRule\n" in text
    assert ".. autoclass:: mdp_games.shutbox.box.Box\n" in text
