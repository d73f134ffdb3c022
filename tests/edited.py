"""A game's source with one hook replaced, written to a file of its own: the games that
misbehave in the tests of errors (tests/program/test_errors.py, test_plugin_mistakes.py) and
of the report (tests/outputs/test_report.py)."""

import textwrap


def edited(source: str, stem: str, tmp_path, replace: str, hook: str | None = None) -> str:
    """A game's ``source`` with ``hook``'s implementation replaced by ``replace`` (or
    ``replace`` appended), written to a file named after ``stem``; returns its path."""
    if hook:
        start = source.index(f"def {hook}(")
        end = source.find("\n@mdp.hookimpl", start)
        source = source[:start] + textwrap.dedent(replace).strip() + "\n" + (source[end:] if end > 0 else "")
    else:
        source += "\n" + textwrap.dedent(replace)
    tmp_path.mkdir(exist_ok=True)
    # A module name of its own per test: Python keeps an imported module for the process.
    path = tmp_path / f"{stem}_{tmp_path.name.replace('-', '_')}.py"
    path.write_text(source)
    return str(path)
