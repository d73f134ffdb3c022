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


def _write_report(app, exception):
    """The standard box's page of ``mdp report``, made at each build so that it cannot drift
    from the code; docs/report.rst links it."""
    if exception is not None or app.builder.format != "html":
        return
    import mdp

    game = mdp.load_game(str(ROOT / "games" / "shutbox"))
    page = mdp.report(mdp.solve(mdp.compile(game)), game)
    (Path(app.outdir) / "shutbox-report.html").write_text(page, encoding="utf-8")


def setup(app):
    app.connect("build-finished", _write_report)
