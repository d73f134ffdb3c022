"""The public API as a type checker sees it, and as ``from mdp import *`` does."""

import ast
from pathlib import Path

import mdp

INIT = Path(mdp.__file__)


def _served() -> set[str]:
    """Every public name that ``mdp`` serves: imported in its ``__init__``, or on first use."""
    tree = ast.parse(INIT.read_text())
    eager = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    return {name for name in eager | set(mdp._LAZY) if not name.startswith("_")}


def test_every_name_mdp_serves_is_in_all_and_every_name_of_all_is_served():
    assert _served() - {"TYPE_CHECKING", "Any"} == set(mdp.__all__)
    for name in mdp.__all__:
        assert getattr(mdp, name) is not None
