"""The public API as a type checker sees it, and as ``from mdp import *`` does."""

import ast
from pathlib import Path

import mdp

INIT = Path(mdp.__file__)


def _served() -> set[str]:
    """Every public name that ``mdp`` serves: imported in its ``__init__``, or on first use."""
    tree = ast.parse(INIT.read_text())
    eager = {alias.asname or alias.name for node in tree.body
             if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mdp.")
             for alias in node.names}
    return {name for name in eager | set(mdp._LAZY) if not name.startswith("_")}


def test_every_name_mdp_serves_is_in_all_and_every_name_of_all_is_served():
    assert _served() == set(mdp.__all__)
    for name in mdp.__all__:
        assert getattr(mdp, name) is not None


def _type_checking_imports() -> dict[str, str]:
    """name -> module of the imports under ``if TYPE_CHECKING:`` in mdp's ``__init__``."""
    tree = ast.parse(INIT.read_text())
    blocks = [node for node in tree.body if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"]
    return {alias.name: node.module for block in blocks for node in block.body
            if isinstance(node, ast.ImportFrom) for alias in node.names}


def test_a_type_checker_sees_each_name_served_on_first_use_from_its_module():
    # mdp serves most names on first use (mdp.__getattr__), which a type checker cannot
    # follow: it reads them from the block under TYPE_CHECKING instead, which must agree.
    assert _type_checking_imports() == mdp._LAZY
