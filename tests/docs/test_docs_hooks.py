"""The docs list every hook, with its signature, and every public name of mdp."""

import re
from pathlib import Path

import mdp
import mdp.hookspecs.game
import mdp.hookspecs.program
from mdp_games.shutbox import hookspecs as shutbox_hooks

DOCS = Path(__file__).resolve().parents[2] / "docs"
HOOKSPEC_MODULES = [mdp.hookspecs.game, mdp.hookspecs.program, shutbox_hooks]


def _hookspecs(module):
    """The hook specifications of a module, in the order of its source, found by the marker
    that pluggy reads (not by their names)."""
    return [f"{module.__name__}.{name}" for name, value in vars(module).items()
            if hasattr(value, f"{mdp.hookspecs.PROJECT}_spec")]


def _autosummaries(page):
    """The entries of every ``autosummary`` table of a page, in order, each one list."""
    blocks = re.findall(r"^\.\. autosummary::\n\n((?:   \S.*\n)+)", (DOCS / page).read_text(), flags=re.MULTILINE)
    return [[line.strip().lstrip("~") for line in block.splitlines()] for block in blocks]


def test_writing_a_game_lists_every_hook_in_the_order_of_its_specification():
    # autosummary reads each hook's signature and first line from the specification itself;
    # the names are checked here, so that a hook added or removed is added or removed there.
    assert _autosummaries("writing-a-game.rst") == [_hookspecs(module) for module in HOOKSPEC_MODULES]


def test_the_api_page_documents_every_public_name():
    text = (DOCS / "api.rst").read_text()
    documented = set(re.findall(r"^\.\. (?:auto)?(?:class|function|data|exception|module):: mdp\.(\w+)$",
                                text, flags=re.MULTILINE))
    assert set(mdp.__all__) - documented == set()


def test_shut_the_boxs_classes_for_rule_plugins_are_documented():
    text = (DOCS / "rule-plugins.rst").read_text()
    assert ".. autoclass:: mdp_games.shutbox.scoring.ScoringRule\n" in text
    assert ".. autoclass:: mdp_games.shutbox.box.Box\n" in text
