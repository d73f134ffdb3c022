"""Sphinx configuration for the mdp documentation."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "mdp"
author = "the mdp developers"
copyright = "2026, the mdp developers"
extensions = ["sphinx.ext.autodoc"]
exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
html_theme = "alabaster"
html_theme_options = {"description": "Exact solutions of finite-horizon MDPs", "fixed_sidebar": True}
nitpicky = False
