"""Sphinx configuration for the mdp documentation."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "mdp"
author = "the mdp developers"
copyright = "2026, the mdp developers"
# autosummary: the tables of hooks on the Writing a game page, their signatures and first
# lines read from the hook specifications themselves.
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx_copybutton"]
exclude_patterns = ["_build", "_generated"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Furo: light and dark modes (following the reader's system, with a toggle), a readable line
# length, a phone layout, and little to configure; kept up by pip's maintainer and used by
# pip, attrs, black and urllib3. docs/_static/custom.css wraps long lines in code blocks
# and tables so that no page scrolls sideways (tests/docs/test_docs_layout.py checks it).
html_theme = "furo"
html_title = "mdp: exact solutions of finite-horizon MDPs"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
pygments_style = "friendly"
pygments_dark_style = "monokai"
# The copy button copies the command, not the prompt or the output after it.
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_line_continuation_character = "\\"
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


def _write_results(app):
    """docs/_generated/results.inc, the figures of docs/results.rst: every command run again
    and checked against its source, so that the page cannot drift (docs/results.py)."""
    sys.path.insert(0, str(ROOT / "docs"))
    import results

    results.write()


def setup(app):
    app.connect("builder-inited", _write_results)
    app.connect("build-finished", _write_report)
