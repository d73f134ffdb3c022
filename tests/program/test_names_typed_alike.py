"""A plugin's name that a user would type as one of mdp's, in other capitals (``CSV`` beside
``csv``, ``Policy`` beside ``policy``), is refused as a name offered twice (round 24: taken,
``--format CSV`` ran the plugin's writer, unsaid); and a format that lists one extension
twice is said so, not called two formats."""

import pytest

from mdp.program.cli import main

PLUGIN = '''
import polars as pl
import mdp


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format(NAME, EXTENSIONS, lambda frame, file: file.write(b""), "a format")]


@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis(ANALYSIS, "an analysis", lambda solution, game: pl.DataFrame({"a": [1]}))]
'''


@pytest.mark.parametrize("name, extensions, analysis, said", [
    ("CSV", '(".tsv",)', "mine", "two plugins offer the format 'csv' and 'CSV', which read alike"),
    ("Markdown", '(".tsv",)', "mine", "two plugins offer the format 'markdown' and 'Markdown', which read alike"),
    ("tsv", '(".tsv",)', "Policy", "two plugins offer the analysis 'policy' and 'Policy', which read alike"),
    ("tsv", '(".tsv", ".TSV")', "mine", "format 'tsv' lists the extension .TSV twice"),
])
def test_a_name_typed_alike_is_refused(tmp_path, capsys, name, extensions, analysis, said):
    plugin = tmp_path / "names.py"
    plugin.write_text(PLUGIN.replace("NAME", repr(name)).replace("EXTENSIONS", extensions)
                      .replace("ANALYSIS", repr(analysis)))
    assert main(["-p", str(plugin), "formats"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: {said}") and err.count("\n") == 1, err
